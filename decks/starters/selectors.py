"""Starter decks: the ready-made decks a card set ships with (``CardSet.starter_decks``), read
as decks anyone can open, download, copy into the builder and simulate against.

A starter deck is addressed by a slug of its name (``/decks/starter/ember-rush/``); the
simulator names it ``starter:<name>`` (``simulations.sources``), which reads the same list
from here so both agree on what the starter decks are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy

from cards.models import Card, CardSet
from common.deck_refs import starter_spec
from common.language import localized_value
from decks.drafts import DEFAULT_FORMAT, Draft

DESCRIPTION = gettext_lazy("The {set} starter deck “{name}”.")


@dataclass(frozen=True)
class StarterDeck:
    name: str
    hero: str
    cards: Mapping[str, int]
    set_code: str
    set_name: str       # in the page's language
    hero_card: Card | None = field(default=None, compare=False)
    name_zh: str = ""   # the card set's Chinese name for it, if it gives one

    @property
    def display_name(self) -> str:
        """The deck's name in the page's language (``name`` stays its address and spec)."""
        return localized_value({"name_en": self.name, "name_zh": self.name_zh}, "name")

    @property
    def slug(self) -> str:
        return slugify(self.name) or "deck"

    @property
    def spec(self) -> str:
        """How the simulator names it."""
        return starter_spec(self.name)

    @property
    def size(self) -> int:
        return sum(self.cards.values())

    def get_absolute_url(self) -> str:
        return reverse("decks:starter", args=[self.slug])

    def draft(self) -> Draft:
        return Draft(name=self.display_name, hero=self.hero, cards=dict(self.cards),
                     format_code=DEFAULT_FORMAT, visibility="private",
                     description=str(DESCRIPTION).format(set=self.set_name,
                                                         name=self.display_name))


def _read(card_set: CardSet, raw: object) -> StarterDeck | None:
    if not isinstance(raw, Mapping) or not raw.get("name") or not raw.get("hero"):
        return None
    try:
        cards = {str(code): int(n) for code, n in dict(raw.get("cards") or {}).items()}
    except (TypeError, ValueError):
        return None
    return StarterDeck(name=str(raw["name"]), hero=str(raw["hero"]), cards=cards,
                       set_code=card_set.code, set_name=card_set.display_name,
                       name_zh=str(raw.get("name_zh") or ""))


def starter_decks(*, with_heroes: bool = False) -> list[StarterDeck]:
    """Every starter deck of every card set in the catalogue, in set and file order."""
    decks = [deck for card_set in CardSet.objects.order_by("code")
             for raw in card_set.starter_decks or [] if (deck := _read(card_set, raw))]
    if with_heroes and decks:
        heroes = Card.objects.in_bulk([d.hero for d in decks], field_name="code")
        decks = [replace(d, hero_card=heroes.get(d.hero)) for d in decks]
    return decks


def starter_get(*, slug: str) -> StarterDeck:
    """The starter deck with this slug; LookupError if there is none."""
    for deck in starter_decks(with_heroes=True):
        if deck.slug == slug:
            return deck
    raise LookupError(slug)
