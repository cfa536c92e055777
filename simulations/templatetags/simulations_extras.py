"""Template helpers for simulation pages, and the panel a deck page can include."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.language import frozen_card_name, frozen_deck_name
from common.numbers import percent
from simulations.agents.skill import played_by as played_by_line
from simulations.agents.skill import skill_line
from simulations.meta.view import epsilon_words
from simulations.patches import text as patch_text

if TYPE_CHECKING:
    from django.template.context import Context

    from cards.rulesets import RulesetWords
    from decks.models import Deck
    from simulations.models import SimulationRun

# What a template hands a filter: a number, its text, or nothing.
Number = float | str | None

register = template.Library()




@register.filter
def epsilon_points(value: float | str) -> str:
    """ε (a share of win rate) as every meta table writes it: "0.5 points"."""
    return epsilon_words(float(value))


@register.filter
def agent_skill(agent: str, other: str | None = None) -> str:
    """``{{ run.agent_a|agent_skill:run.agent_b }}`` → "casual play, 743 Elo on the AI ladder":
    the level of play the win rates beside it stand for (``simulations.agents.skill``)."""
    return skill_line(agent, other or None)


@register.filter
def played_by(agent: str, other: str | None = None) -> str:
    """``{{ run.agent_a|played_by:run.agent_b }}`` → "greedy vs greedy: casual play, 743 Elo on
    the AI ladder"."""
    return played_by_line(agent, other or agent)


@register.filter
def whole_pct(value: Number) -> str:
    """0.53 → "53 %" (a share or a limit, in whole percent); None → "—"."""
    return percent(value, 0)


@register.filter
def signed_pct(value: Number) -> str:
    """0.031 → "+3.1 pts" (a change between two rates, in percentage points)."""
    if value is None:
        return "—"
    change = round(float(value) * 100, 1)
    number = number_format(abs(change), 1)
    return _("{sign}{number} pts").format(sign="-" if change < 0 else "+", number=number)


@register.filter
def pvalue(value: Number) -> str:
    """A p-value as people read it: 0.0312 → "0.031", 8.1e-05 → "8.1·10⁻⁵"."""
    if value is None:
        return "—"
    p = float(value)
    if p >= 0.001:
        return f"{p:.3f}".rstrip("0").rstrip(".") if p < 1 else "1"
    mantissa, exponent = f"{p:.1e}".split("e")
    digits = str(int(exponent)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{mantissa}·10{digits}"


@register.filter
def card_name(code: str, run: SimulationRun) -> str:
    return frozen_card_name(run.cards, code)


@register.filter
def field_name(field: str) -> str:
    """A card field's name in the page's language ("attack" → "攻击力")."""
    return patch_text.field_name(field)


@register.filter
def change_text(row: Mapping[str, Any], run: SimulationRun) -> str:
    """A patch's diff row ({card, field, old, new}) in words: "余烬幼犬：攻击力 2 → 3"."""
    printed = (run.patch or {}).get("unpatched") or {}
    cards = {**run.cards, **printed} if printed else run.cards
    return patch_text.change_line(cards, row["card"], row["field"], row["new"], old=row["old"])


@register.filter
def index_name(decks: Sequence[Mapping[str, Any]], index: int | str) -> str:
    try:
        return frozen_deck_name(decks[int(index)], int(index) + 1)
    except (IndexError, TypeError, ValueError):
        return "?"


@register.filter
def item(sequence: Sequence[Any], index: int | str) -> Any:
    try:
        return sequence[int(index)]
    except (IndexError, TypeError, ValueError):
        return None


@register.filter
def card_sides(report: Mapping[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    return [(report["deck_a"], report["cards_a"]), (report["deck_b"], report["cards_b"])]


@register.inclusion_tag("simulations/_deck_panel.html", takes_context=True)
def deck_simulations(context: Context, deck: Deck, limit: int = 5) -> dict[str, Any]:
    """A deck page's "Simulate" button and its latest runs:
    ``{% load simulations_extras %}{% deck_simulations deck %}``."""
    from simulations.selectors import runs_listed, runs_with_rates

    user = context.get("user")
    runs = runs_with_rates(runs_listed(user, deck_uid=deck.uid)[:limit])
    return {"deck": deck, "runs": runs, "user": user}


@register.filter
def ms(seconds: Number) -> str:
    """Seconds as milliseconds: 0.0004 → "0.4", 0.0623 → "62"."""
    if seconds is None:
        return "—"
    value = float(seconds) * 1000
    return number_format(value, 1 if value < 10 else 0)


@register.filter
def ruleset_words(ruleset: Mapping[str, Any] | None) -> RulesetWords:
    """A run's ruleset in sentences (``.summary``, ``.every``)."""
    from cards.rulesets import ruleset_words as words

    return words(ruleset)


@register.filter
def duration(seconds: Number) -> str:
    """83.2 → "1 min 24 s"; 3725 → "1 h 2 min"; under 10 s → "a few seconds"."""
    if seconds is None:
        return "—"
    whole = int(round(float(seconds)))
    if whole < 10:
        return str(gettext_lazy("a few seconds"))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return str(gettext_lazy("{h} h {m} min")).format(h=hours, m=minutes)
    if minutes:
        return str(gettext_lazy("{m} min {s} s")).format(m=minutes, s=secs)
    return str(gettext_lazy("{s} s")).format(s=secs)


@register.filter
def win_rate(run: SimulationRun) -> str:
    """Deck A's win rate of a run from ``runs_with_rates``: "53.1 % of 200"; "—" if none."""
    games = getattr(run, "deck_a_games", 0)
    if not games:
        return "—"
    return str(gettext_lazy("{rate} of {games}")).format(
        rate=f"{run.deck_a_wins / games * 100:.1f} %", games=games)
