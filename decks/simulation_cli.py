"""Deck lookup for the command line: starter decks of a card set file, by name."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError

from rules.cardset import CORE_SET, TEST_SET, CardSetError, load_card_set
from rules.engine.cards import CardDef, DeckList


def load_decks_for_cli(name_a: str, name_b: str,
                       card_set: str | None) -> tuple[dict[str, CardDef], DeckList, DeckList]:
    """The cards and the two named decks; CommandError with the known names otherwise."""
    path = Path(card_set) if card_set else (CORE_SET if CORE_SET.exists() else TEST_SET)
    if not path.exists():
        raise CommandError(f"card set file not found: {path}")
    try:
        cards = load_card_set(path)
    except CardSetError as exc:
        raise CommandError(f"{path}: {exc}") from None
    decks = []
    for name in (name_a, name_b):
        try:
            decks.append(cards.deck(name))
        except KeyError as exc:
            raise CommandError(str(exc.args[0])) from None
    return cards.cards, decks[0], decks[1]
