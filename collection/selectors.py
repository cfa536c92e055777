"""Reads of collections. Every function takes the user whose collection it reads, and nothing
here reads anyone else's: a page or an answer about a deck says what *the visitor* owns."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Count, IntegerField, Max, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from cards.models import Card, CardSet
from cards.selectors import cards_label
from collection.models import CollectionEntry, CollectionVersion
from common.language import reader_language
from common.visitor import Visitor
from decks.models import Deck, DeckEntry

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import WithAnnotations


class OwnedCount(TypedDict):
    owned: int   # the user's copies of the card (0 when none)


def collection_counts(*, user: Visitor) -> dict[str, int]:
    """``{card code: copies}`` of the user's collection (no row: none owned)."""
    if user is None or not user.is_authenticated:
        return {}
    return dict(CollectionEntry.objects.filter(user=user)
                .values_list("card__code", "count"))


def collection_stamp(*, user: Visitor) -> tuple[object, ...]:
    """Changes with every change of the user's collection: rows, copies and the last edit."""
    if user is None or not user.is_authenticated:
        return ()
    row = CollectionEntry.objects.filter(user=user).aggregate(
        rows=Count("id"), copies=Sum("count"), last=Max("updated_at"))
    return row["rows"], row["copies"], row["last"]


class CollectionOwnership:
    """What ``cards.ownership`` asks, answered from this app's table."""

    def counts(self, user: User) -> dict[str, int]:
        return collection_counts(user=user)

    def stamp(self, user: User) -> Hashable:
        return collection_stamp(user=user)


def collection_version(*, user: User) -> int:
    """How many changes ``user``'s collection has had. Read it before the counts a page shows
    (``CollectionVersion``): the counts are then at least as new as the number says."""
    found = CollectionVersion.objects.filter(user=user).values_list("number", flat=True).first()
    return found or 0


def cards_with_owned(cards: QuerySet[Card], *, user: User
                     ) -> QuerySet[WithAnnotations[Card, OwnedCount]]:
    """``cards`` annotated with ``owned``: the user's copies of each (0 when none)."""
    mine = CollectionEntry.objects.filter(user=user, card=OuterRef("pk")).values("count")[:1]
    return cards.annotate(owned=Coalesce(Subquery(mine, output_field=IntegerField()), 0))


@dataclass(frozen=True)
class SetTotal:
    card_set: CardSet
    cards: int          # cards in the set
    owned_cards: int    # of them, with at least one copy owned
    copies: int         # copies owned of the set's cards

    @property
    def complete(self) -> bool:
        return self.cards > 0 and self.owned_cards == self.cards


def collection_set_totals(*, user: User) -> list[SetTotal]:
    """Per card set: how many of its cards the user owns, and how many copies."""
    owned = {row[0]: row[1:] for row in CollectionEntry.objects.filter(user=user)
             .values("card__card_set").annotate(n=Count("id"), copies=Sum("count"))
             .values_list("card__card_set", "n", "copies")}
    sets = CardSet.objects.select_related("game").annotate(size=Count("cards")).order_by("code")
    return [SetTotal(card_set=s, cards=s.size, owned_cards=owned.get(s.pk, (0, 0))[0],
                     copies=owned.get(s.pk, (0, 0))[1]) for s in sets if s.size]


def deck_needs(deck: Deck) -> dict[str, int]:
    """``{code: copies}`` a deck needs on the table: every pile, and its hero card."""
    needs: dict[str, int] = {}
    for code, count in DeckEntry.objects.filter(deck=deck).values_list("card__code", "count"):
        needs[code] = needs.get(code, 0) + count
    if deck.hero is not None:
        hero = deck.hero.code
        needs[hero] = needs.get(hero, 0) + 1
    return needs


@dataclass(frozen=True)
class MissingRow:
    card: Card
    need: int
    owned: int

    @property
    def missing(self) -> int:
        return max(0, self.need - self.owned)


def _cards(codes: Iterable[str]) -> dict[str, Card]:
    found = list(Card.objects.filter(code__in=set(codes)).select_related("card_set"))
    cards_label(found, reader_language())
    return {card.code: card for card in found}


def deck_missing(*, deck: Deck, user: Visitor) -> list[MissingRow]:
    """The cards of ``deck`` the user owns fewer copies of than it needs, cheapest first."""
    needs, owned = deck_needs(deck), collection_counts(user=user)
    short = {code: n for code, n in needs.items() if owned.get(code, 0) < n}
    cards = _cards(short)
    rows = [MissingRow(card=cards[code], need=n, owned=owned.get(code, 0))
            for code, n in short.items() if code in cards]
    return sorted(rows, key=lambda r: (r.card.kind != "hero", r.card.cost or 0,
                                       r.card.english_name.casefold()))


@dataclass(frozen=True)
class Claim:
    """A card that the user's active decks need more copies of, together, than are owned."""

    card: Card
    decks: list[tuple[Deck, int]]
    owned: int

    @property
    def needed(self) -> int:
        return sum(n for _deck, n in self.decks)

    @property
    def short(self) -> int:
        return max(0, self.needed - self.owned)


def active_deck_claims(*, user: Visitor) -> list[Claim]:
    """Cards claimed by two or more of the user's active decks beyond the copies owned (each
    deck alone may be buildable; together they cannot be on the table at once)."""
    if user is None or not user.is_authenticated:
        return []
    decks = list(Deck.objects.filter(owner=user, active=True).select_related("hero")
                 .order_by("name", "pk"))
    claims: dict[str, list[tuple[Deck, int]]] = {}
    for deck in decks:
        for code, n in deck_needs(deck).items():
            claims.setdefault(code, []).append((deck, n))
    owned = collection_counts(user=user)
    over = {code: by for code, by in claims.items()
            if len(by) > 1 and sum(n for _d, n in by) > owned.get(code, 0)}
    cards = _cards(over)
    found = [Claim(card=cards[code], decks=by, owned=owned.get(code, 0))
             for code, by in over.items() if code in cards]
    return sorted(found, key=lambda c: (-c.short, c.card.english_name.casefold()))
