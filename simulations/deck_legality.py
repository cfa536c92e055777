"""Which decks of a run (or of the simulation form's menu) break their format's rules, and
which rules. Simulating an illegal deck stays allowed — a designer may mean to — but the form
and the run's page say so, rule by rule, in the page's language.

A saved deck is checked against its own format, a starter deck against Standard. The run's
decks are checked as they were frozen at submission, with the card data the run played."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from common.language import data_form_names, frozen_deck_name
from decks.adapters import format_to_rules
from decks.models import Deck, DeckEntry
from decks.problem_text import format_name, problems_text
from rules.decks import legality
from rules.decks.piles import MAIN_PILE

NOT_LEGAL_MARK = gettext_lazy("{name} — not legal: {problems}")


@dataclass(frozen=True)
class _Card:
    """What legality reads of a card (``legality.CardLike``), from frozen data or a row."""

    code: str
    kind: str
    name_en: str
    name_zh: str
    rarity: str


def _card(code: str, kind: str, names: object, rarity: str) -> _Card:
    """``names``: a frozen map's card data or a row's keyed ``names`` (``{"names": …}``)."""
    name_en, name_zh = data_form_names(names).values()
    return _Card(code=code, kind=kind, name_en=name_en, name_zh=name_zh, rarity=rarity)


def _cards(data: Mapping[str, Mapping[str, Any]]) -> dict[str, _Card]:
    return {code: _card(code, c.get("kind", ""), c, c.get("rarity", ""))
            for code, c in data.items()}


def _problems(hero: str | None, counts: Mapping[str, int], cards: Mapping[str, _Card],
              fmt: legality.Format) -> list[str]:
    deck = legality.Deck.of(hero, dict(counts))
    problems = legality.check_deck(deck, cards, fmt)
    return [p.message for p in problems_text(problems, fmt=fmt, cards=cards)]


def run_deck_warnings(decks: Iterable[Mapping[str, Any]], cards: Mapping[str, Any]
                      ) -> list[dict[str, Any]]:
    """``{deck, format, problems}`` for each frozen deck that breaks its format's rules."""
    decks = list(decks)
    uids = [d["uid"] for d in decks if d.get("uid")]
    formats = {d.uid: d.format for d in Deck.objects.filter(uid__in=uids).select_related("format")}
    engine_cards = _cards(cards)
    rules_of: dict[int, legality.Format] = {}
    out: list[dict[str, Any]] = []
    for deck in decks:
        fmt = formats.get(str(deck.get("uid")))
        if fmt is not None and fmt.pk not in rules_of:
            rules_of[fmt.pk] = format_to_rules(fmt)
        rules = rules_of[fmt.pk] if fmt is not None else legality.STANDARD
        problems = _problems(deck.get("hero"), deck.get("cards") or {}, engine_cards, rules)
        if problems:
            out.append({"deck": frozen_deck_name(deck, len(out) + 1), "problems": problems,
                        "format": fmt.display_name if fmt is not None
                        else format_name(rules)})
    return out


def saved_decks_problems(decks: Iterable[Deck]) -> dict[int, list[str]]:
    """``{deck id: problems}`` of the saved decks that break their format's rules, in a few
    queries whatever the number of decks (the form's menu lists up to a few hundred)."""
    decks = list(decks)
    entries = (DeckEntry.objects.filter(deck__in=decks, pile=MAIN_PILE)
               .values_list("deck_id", "card__code", "count", "card__kind", "card__names",
                            "card__rarity"))
    counts: dict[int, dict[str, int]] = {}
    cards: dict[str, _Card] = {}
    for deck_id, code, count, kind, names, rarity in entries:
        counts.setdefault(deck_id, {})[code] = count
        cards[code] = _card(code, kind, {"names": names}, rarity)
    heroes = {d.pk: d.hero for d in decks if d.hero is not None}
    for hero in heroes.values():
        cards[hero.code] = _card(hero.code, hero.kind, hero, hero.rarity)
    rules_of: dict[int, legality.Format] = {}
    out: dict[int, list[str]] = {}
    for deck in decks:
        if deck.format_id not in rules_of:
            rules_of[deck.format_id] = format_to_rules(deck.format)
        its_hero = heroes.get(deck.pk)
        problems = _problems(its_hero.code if its_hero else None, counts.get(deck.pk, {}), cards,
                             rules_of[deck.format_id])
        if problems:
            out[deck.pk] = problems
    return out
