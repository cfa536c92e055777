"""Writes of a user's collection: a card's count, a step up or down, a whole set, an import.
Each takes the user whose collection it changes; nobody changes anyone else's."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext_lazy

from cards.models import Card, CardSet
from collection.models import MAX_COPIES, CollectionEntry, CollectionVersion

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import StrOrPromise

COUNT_RANGE = gettext_lazy("A count is a whole number from 0 to {limit}; {value!r} is not.")
NO_SUCH_CARD = gettext_lazy("There is no card {code!r}; check the code on the card's page.")
NO_SUCH_SET = gettext_lazy("There is no card set {code!r}; pick one of the sets listed.")
COPIES_RANGE = gettext_lazy("Add from 1 to {limit} copies of each card; {value!r} is not.")


class CollectionInputError(ValueError):
    """Input the collection cannot take; the message says what to write instead (400)."""


def _count(value: object, message: StrOrPromise = COUNT_RANGE, low: int = 0) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise CollectionInputError(message.format(limit=MAX_COPIES, value=value)) from None
    if not low <= number <= MAX_COPIES:
        raise CollectionInputError(message.format(limit=MAX_COPIES, value=value))
    return number


def _version_bump(user: User) -> None:
    """One more change of ``user``'s collection (``CollectionVersion``), in the caller's
    transaction: the row lock it takes orders the user's writes."""
    if CollectionVersion.objects.filter(user=user).update(number=F("number") + 1):
        return
    try:
        with transaction.atomic():
            CollectionVersion.objects.create(user=user, number=1)
    except IntegrityError:     # made meanwhile by another write of the same user
        CollectionVersion.objects.filter(user=user).update(number=F("number") + 1)


def collection_card(code: str) -> Card:
    """The card ``code`` (CollectionInputError naming it when there is none)."""
    card = Card.objects.filter(code=code).first() if "\x00" not in code else None
    if card is None:
        raise CollectionInputError(NO_SUCH_CARD.format(code=code[:40]))
    return card


@transaction.atomic
def collection_card_set(*, user: User, card: Card, count: object) -> int:
    """Own exactly ``count`` copies of ``card`` (0 forgets it); returns the count kept."""
    number = _count(count)
    _version_bump(user)
    return _card_count_write(user, card, number)


def _card_count_write(user: User, card: Card, number: int) -> int:
    if number == 0:
        CollectionEntry.objects.filter(user=user, card=card).delete()
    else:
        CollectionEntry.objects.update_or_create(user=user, card=card,
                                                 defaults={"count": number})
    return number


@transaction.atomic
def collection_card_add(*, user: User, card: Card, delta: int) -> int:
    """One step of the +/− buttons: the count moves by ``delta``, staying within 0…999."""
    _version_bump(user)    # first, as every write: the user's writes queue on this one lock
    entry = (CollectionEntry.objects.select_for_update().filter(user=user, card=card).first())
    current = entry.count if entry else 0
    return _card_count_write(user, card, max(0, min(MAX_COPIES, current + int(delta))))


@dataclass(frozen=True)
class Capped:
    """A card the collection kept at ``MAX_COPIES``: the count it would have had, and kept."""

    code: str
    asked: int
    kept: int

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "asked": self.asked, "kept": self.kept}


@dataclass(frozen=True)
class Merged:
    changed: int                # cards whose count changed
    stored: int                 # copies the list put into the collection, as stored
    capped: tuple[Capped, ...]  # cards kept at MAX_COPIES, in the list's order


@transaction.atomic
def collection_counts_merge(*, user: User, counts: Mapping[str, int],
                            replace: bool = False) -> Merged:
    """Add ``counts`` (by card code) to the collection, or with ``replace`` make the
    collection exactly ``counts``. A card that would pass ``MAX_COPIES`` keeps that many and
    is named in the answer's ``capped``; ``stored`` counts the copies added (with ``replace``:
    the copies the listed cards now have)."""
    cards = dict(Card.objects.filter(code__in=set(counts)).values_list("code", "pk"))
    unknown = sorted(set(counts) - set(cards))
    if unknown:
        raise CollectionInputError(NO_SUCH_CARD.format(code=unknown[0][:40]))
    _version_bump(user)
    existing = {e.card_id: e for e in CollectionEntry.objects.filter(user=user)}
    if replace:
        keep = {cards[code] for code in counts}
        CollectionEntry.objects.filter(user=user).exclude(card_id__in=keep).delete()
    changed = stored = 0
    capped: list[Capped] = []
    for code, count in counts.items():
        pk = cards[code]
        before = existing[pk].count if pk in existing else 0
        asked = int(count) + (0 if replace else before)
        after = min(MAX_COPIES, asked)
        if asked > after:
            capped.append(Capped(code=code, asked=asked, kept=after))
        stored += after if replace else after - before
        if after != before:
            changed += 1
            CollectionEntry.objects.update_or_create(user=user, card_id=pk,
                                                     defaults={"count": after})
    return Merged(changed=changed, stored=stored, capped=tuple(capped))


@dataclass(frozen=True)
class SetAdded:
    card_set: CardSet
    copies: int                 # copies of each card asked for
    cards: int                  # cards in the set
    changed: int
    stored: int                 # copies added to the collection, as stored
    capped: tuple[Capped, ...]


def collection_set_add(*, user: User, set_code: str, copies: object = 1) -> SetAdded:
    """Add ``copies`` of every card of a set (a box opened, a set bought whole)."""
    number = _count(copies, COPIES_RANGE, low=1)
    card_set = CardSet.objects.filter(code=set_code).first() if "\x00" not in set_code else None
    if card_set is None:
        raise CollectionInputError(NO_SUCH_SET.format(code=set_code[:40]))
    codes = list(card_set.cards.order_by("code").values_list("code", flat=True))
    merged = collection_counts_merge(user=user, counts={code: number for code in codes})
    return SetAdded(card_set=card_set, copies=number, cards=len(codes), changed=merged.changed,
                    stored=merged.stored, capped=merged.capped)


@dataclass(frozen=True)
class Imported:
    cards: int      # different cards in the list
    copies: int     # copies the list put into the collection, as stored (see Merged.stored)
    changed: int    # cards whose count changed
    capped: tuple[Capped, ...] = ()
