"""What players do with decks besides building them: mark the ones they play as active, file
them under tags, and favourite other people's (with a count on public decks and the week's
most favoured list). Services (writes) and selectors (reads) in one small module.

Invariants: only a deck's owner changes its tags and its active mark (views check it through
``deck_get(edit=True)``); anyone signed in may favourite a deck they can see, once; a deck's
favourite count is shown only on public decks, and the most favoured list holds public decks
only, so favouriting never reveals an unlisted or private deck.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy

from common.visitor import Visitor
from decks.models import Deck, DeckEntry, DeckFavourite, DeckTag, Visibility

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_TAGS = 8
TAG_RULE = gettext_lazy(
    "{tag!r} is not a tag: use 1–30 letters, digits or dashes (e.g. aggro, budget, 新手).")
TOO_MANY_TAGS = gettext_lazy("A deck has at most {limit} tags; {count} were given.")
TAG = re.compile(r"^[\w-]{1,30}$")
WEEK = timedelta(days=7)


class SharingInputError(ValueError):
    """Input the sharing services refuse; the message says what to fix (400)."""


def tags_parse(text: str | list[str]) -> list[str]:
    """Tags from "aggro, budget" (commas or spaces) or a list; lower case, NFKC, no repeats."""
    words = text if isinstance(text, list) else re.split(r"[,\s，、]+", str(text))
    tags: list[str] = []
    for word in words:
        tag = unicodedata.normalize("NFKC", str(word)).strip().lower().lstrip("#")
        if not tag:
            continue
        if not TAG.match(tag) or tag.startswith("_"):
            raise SharingInputError(TAG_RULE.format(tag=str(word)[:40]))
        if tag not in tags:
            tags.append(tag)
    if len(tags) > MAX_TAGS:
        raise SharingInputError(TOO_MANY_TAGS.format(limit=MAX_TAGS, count=len(tags)))
    return tags


@transaction.atomic
def deck_tags_set(*, deck: Deck, tags: str | list[str]) -> list[str]:
    """Give the deck exactly these tags (its page changes, so the deck's date moves)."""
    words = tags_parse(tags)
    rows = [DeckTag.objects.get_or_create(slug=word)[0] for word in words]
    deck.tags.set(rows)
    deck.save(update_fields=["updated_at"])
    return words


@transaction.atomic
def deck_active_set(*, deck: Deck, active: bool) -> Deck:
    """Mark the deck as one its owner plays now (or no longer)."""
    if deck.active != bool(active):
        deck.active = bool(active)
        deck.save(update_fields=["active"])
    return deck


@transaction.atomic
def deck_favourite_set(*, deck: Deck, user: User, favourite: bool) -> bool:
    """Favourite the deck for ``user`` (or take it back); returns whether it is a favourite."""
    if favourite:
        DeckFavourite.objects.get_or_create(user=user, deck=deck)
    else:
        DeckFavourite.objects.filter(user=user, deck=deck).delete()
    return favourite


def deck_is_favourite(*, deck: Deck, user: Visitor) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return DeckFavourite.objects.filter(user_id=user.pk, deck=deck).exists()


def deck_favourite_count(*, deck: Deck) -> int | None:
    """How many users favour the deck; None for a deck that is not public (not shown)."""
    if deck.visibility != Visibility.PUBLIC:
        return None
    return deck.favourites.count()


def deck_tag_slugs(deck: Deck) -> list[str]:
    return sorted(tag.slug for tag in deck.tags.all())


def decks_most_favoured(*, since: datetime | None = None, limit: int = 10) -> QuerySet[Deck]:
    """Public decks by favourites given since ``since`` (default: the last seven days), most
    first; each carries ``recent_favourites``. Decks with none that week are left out."""
    since = since or timezone.now() - WEEK
    recent = Count("favourites", filter=Q(favourites__created_at__gte=since), distinct=True)
    return (Deck.objects.filter(visibility=Visibility.PUBLIC)
            .select_related("owner", "hero", "format")
            .annotate(recent_favourites=recent).filter(recent_favourites__gt=0)
            .order_by("-recent_favourites", "-updated_at", "-id")[:limit])


def decks_with_favourites(decks: QuerySet[Deck]) -> QuerySet[Deck]:
    """``decks`` annotated with ``favourite_count`` (every favourite, all time), as a subquery:
    a join would multiply the lists' other sums (their card counts)."""
    count = (DeckFavourite.objects.filter(deck=OuterRef("pk")).order_by().values("deck")
             .annotate(n=Count("id")).values("n"))
    return decks.annotate(favourite_count=Coalesce(Subquery(count, output_field=IntegerField()),
                                                   0))


def decks_mark_buildable(decks: Iterable[Deck], owned: Mapping[str, int]) -> None:
    """Give each deck ``buildable``: whether ``owned`` (one user's counts) covers every card
    of it, its hero included (one query for the whole page of decks)."""
    decks = list(decks)   # a page's queryset: read once, its rows the ones the page shows
    needs: dict[int, dict[str, int]] = {deck.pk: {} for deck in decks}
    for deck_id, code, count in (DeckEntry.objects.filter(deck__in=[d.pk for d in decks])
                                 .values_list("deck_id", "card__code", "count")):
        needs[deck_id][code] = needs[deck_id].get(code, 0) + count
    for deck in decks:
        need = needs[deck.pk]
        if deck.hero is not None:
            need[deck.hero.code] = need.get(deck.hero.code, 0) + 1
        deck.buildable = all(owned.get(code, 0) >= n for code, n in need.items())
