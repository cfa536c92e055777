"""A deck being built, before (or between) saves: plain data, kept in the session for anyone,
saved into a ``Deck`` by the services once the user has an account.

Invariant: a ``Draft`` round-trips through ``to_session``/``from_session`` and survives any
garbage in the session (a tampered or stale session yields an empty draft, never an error).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext_lazy

from decks.codecs import clean_name
from rules.decks.legality import Deck as LegalityDeck
from rules.decks.piles import MAIN_PILE

DEFAULT_FORMAT = "standard"
DEFAULT_NAME = gettext_lazy("Untitled deck")
MAX_COPIES = 99
MAX_CARDS = 300
VISIBILITIES = ("private", "unlisted", "public")


@dataclass(frozen=True)
class Draft:
    name: str = ""
    description: str = ""
    hero: str | None = None
    cards: Mapping[str, int] = field(default_factory=dict)
    format_code: str = DEFAULT_FORMAT
    visibility: str = "private"
    piles: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Piles besides the main list (``cards``), for formats in piles: ``{"atlas": {...}}``."""

    @property
    def size(self) -> int:
        return sum(self.cards.values())

    def pile(self, code: str) -> Mapping[str, int]:
        """A pile's cards (``deck`` or the empty code: the main list)."""
        return self.cards if code in ("", MAIN_PILE) else self.piles.get(code, {})

    def all_codes(self) -> set[str]:
        return {*self.cards, *(c for p in self.piles.values() for c in p)}

    @property
    def display_name(self) -> str:
        return self.name or str(DEFAULT_NAME)

    def legality_deck(self) -> LegalityDeck:
        return LegalityDeck(heroes=(self.hero,) if self.hero else (), counts=dict(self.cards),
                            name=self.name, piles={k: dict(v) for k, v in self.piles.items()})

    def with_card(self, code: str, delta: int, pile: str = MAIN_PILE) -> Draft:
        """Add (or with a negative delta remove) copies; an entry at 0 disappears."""
        cards = dict(self.pile(pile))
        count = max(0, min(MAX_COPIES, cards.get(code, 0) + delta))
        if count:
            cards[code] = count
        else:
            cards.pop(code, None)
        if pile in ("", MAIN_PILE):
            return replace(self, cards=cards)
        piles = {k: dict(v) for k, v in self.piles.items()}
        if cards:
            piles[pile] = cards
        else:
            piles.pop(pile, None)
        return replace(self, piles=piles)

    def fitted(self, *, hero_pile: str | None, main_pile: str) -> Draft:
        """The draft as the builder edits a format in piles: a hero pile holding one card
        (an imported ``Pile: avatar``) fills the hero slot, and a pile named after the main
        pile (``Pile: spellbook``) joins the main list, so the hero picker, the status line
        and the piles all see them. Anything else stays where it is (two avatars stay in
        their pile, where legality counts them)."""
        cards = dict(self.cards)
        piles = {k: dict(v) for k, v in self.piles.items()}
        if main_pile not in ("", MAIN_PILE) and main_pile in piles:
            for code, count in piles.pop(main_pile).items():
                cards[code] = min(MAX_COPIES, cards.get(code, 0) + count)
        hero = self.hero
        if hero_pile and hero is None and list(piles.get(hero_pile, {}).values()) == [1]:
            hero = next(iter(piles.pop(hero_pile)))
        return replace(self, hero=hero, cards=cards, piles=piles)

    def to_session(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "hero": self.hero,
                "cards": dict(self.cards), "format": self.format_code,
                "visibility": self.visibility,
                "piles": {k: dict(v) for k, v in self.piles.items()}}

    @classmethod
    def from_session(cls, data: Any) -> Draft:
        if not isinstance(data, Mapping):
            return cls()
        raw_cards = data.get("cards")
        cards = {str(k): v for k, v in raw_cards.items()
                 if isinstance(v, int) and 0 < v <= MAX_COPIES} if isinstance(
                     raw_cards, Mapping) else {}
        hero = data.get("hero")
        visibility = data.get("visibility")
        raw_piles = data.get("piles")
        piles = {str(p)[:40]: {str(k): v for k, v in counts.items()
                               if isinstance(v, int) and 0 < v <= MAX_COPIES}
                 for p, counts in raw_piles.items()
                 if isinstance(counts, Mapping) and p != MAIN_PILE} if isinstance(
                     raw_piles, Mapping) else {}
        return cls(name=clean_name(str(data.get("name") or ""), 100),
                   description=str(data.get("description") or "")[:2000],
                   hero=hero if isinstance(hero, str) and hero else None, cards=cards,
                   format_code=str(data.get("format") or DEFAULT_FORMAT)[:40],
                   visibility=visibility if visibility in VISIBILITIES else "private",
                   piles={p: c for p, c in piles.items() if c})
