"""Where each format puts the cards of a pasted list, for the text importer
(``decks.codecs.base.Placing``): which kinds become the hero, which kinds have a pile of their
own, and which cards are its game's (the only ones a "did you mean" offers)."""

from __future__ import annotations

from cards.models import ENGINE_GAME, Card
from decks.adapters import format_to_rules
from decks.codecs.base import Placing
from decks.models import Format
from rules.decks import legality


def formats_placing() -> dict[str, Placing]:
    """``{format code: Placing}`` of every format (a query for the cards, one per format in
    piles for its rules)."""
    cards_of: dict[str, set[str]] = {}
    for code, game in Card.objects.values_list("code", "card_set__game__code"):
        cards_of.setdefault(game or ENGINE_GAME, set()).add(code)
    placing = {}
    for fmt in Format.objects.all():
        game = fmt.game.code if fmt.game is not None else ENGINE_GAME
        cards = frozenset(cards_of.get(game, ()))
        if fmt.has_piles:
            placing[fmt.code] = _piles_placing(format_to_rules(fmt), cards)
        else:
            placing[fmt.code] = Placing(cards=cards)
    return placing


def _piles_placing(rules: legality.Format, cards: frozenset[str]) -> Placing:
    """A format in piles: its hero pile's kinds become the hero; a kind the main pile does not
    take goes to the first other pile that does."""
    hero = rules.hero_pile
    main = rules.main_pile
    kind_piles: dict[str, str] = {}
    for pile in rules.piles:
        if pile.hero or pile is main:
            continue
        for kind in pile.kinds:
            if main is None or (main.kinds and kind not in main.kinds):
                kind_piles.setdefault(kind, pile.code)
    return Placing(hero_kinds=frozenset(hero.kinds) if hero is not None else frozenset(),
                   kind_piles=kind_piles, cards=cards)
