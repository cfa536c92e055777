"""Template helpers for simulation pages, and the panel a deck page can include."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def pct(value) -> str:
    """0.5312 → "53.1 %"; None → "—"."""
    if value is None or value == "":
        return "—"
    return f"{float(value) * 100:.1f} %"


@register.filter
def signed_pct(value) -> str:
    """0.031 → "+3.1 pts" (a change between two rates, in percentage points)."""
    if value is None:
        return "—"
    return f"{float(value) * 100:+.1f} pts"


@register.filter
def card_name(code: str, run) -> str:
    return run.cards.get(code, {}).get("name_en", code)


@register.filter
def index_name(decks, index) -> str:
    try:
        return decks[int(index)].get("name") or f"Deck {int(index) + 1}"
    except (IndexError, TypeError, ValueError):
        return "?"


@register.filter
def item(sequence, index):
    try:
        return sequence[int(index)]
    except (IndexError, TypeError, ValueError):
        return None


@register.filter
def card_sides(report) -> list:
    return [(report["deck_a"], report["cards_a"]), (report["deck_b"], report["cards_b"])]


@register.inclusion_tag("simulations/_deck_panel.html", takes_context=True)
def deck_simulations(context, deck, limit: int = 5):
    """A deck page's "Simulate" button and its latest runs:
    ``{% load simulations_extras %}{% deck_simulations deck %}``."""
    from simulations.selectors import runs_listed

    user = context.get("user")
    runs = list(runs_listed(user, deck_uid=deck.uid)[:limit])
    return {"deck": deck, "runs": runs, "user": user}
