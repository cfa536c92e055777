"""Which cards a signed-in user owns, for the pages below the collection app that offer "only
cards I own" (the catalogue, the builder's card panel, the deck list's "buildable").

The collection app sits on a floor above the catalogue and the decks, so they cannot import
it; it registers an ``OwnershipSource`` here when it starts (``collection.apps``), and these
functions answer "nothing owned" while none is registered or for an anonymous visitor. Every
answer is about the user asked for only: a page never learns another user's counts.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Protocol, TypeGuard

from django.db.models import Q

from common.visitor import Visitor

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class OwnershipSource(Protocol):
    def counts(self, user: User) -> dict[str, int]:
        """``{card code: copies owned}`` for the user's cards with at least one copy."""

    def stamp(self, user: User) -> Hashable:
        """A value that changes whenever the user's collection changes (for stored pages)."""


_sources: list[OwnershipSource] = []



def ownership_register(source: OwnershipSource) -> None:
    """Make ``source`` the one that answers (a second registration replaces the first)."""
    _sources[:] = [source]


def _signed_in(user: Visitor) -> TypeGuard[User]:
    return user is not None and bool(getattr(user, "is_authenticated", False))


def owned_counts(user: Visitor) -> dict[str, int]:
    if not _sources or not _signed_in(user):
        return {}
    return _sources[0].counts(user)


def ownership_stamp(user: Visitor) -> Hashable:
    if not _sources or not _signed_in(user):
        return None
    return _sources[0].stamp(user)


def owned_cards_q(user: Visitor) -> Q:
    """A filter on ``Card`` keeping the user's owned cards (none for a visitor)."""
    return Q(code__in=sorted(owned_counts(user)))
