"""Reading games: a person's own games, and a shared finished game's replay."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext_lazy

from play.models import PlayGame

NO_GAME = gettext_lazy("There is no game {uid!r} of yours.")


def play_get(*, uid: str, user: Any) -> PlayGame:
    """The user's game (another user's is as missing as an unknown one: 404)."""
    if user is None or not user.is_authenticated:
        raise Http404(str(NO_GAME).format(uid=uid))
    try:
        return PlayGame.objects.get(uid=uid, owner=user)
    except PlayGame.DoesNotExist:
        raise Http404(str(NO_GAME).format(uid=uid)) from None


def play_replay_get(*, uid: str, user: Any) -> PlayGame:
    """A finished game for its replay: the owner's, or anyone's when it is shared."""
    game = PlayGame.objects.filter(uid=uid).exclude(status="playing").first()
    if game is None or not (game.is_shared or (user is not None and user.is_authenticated
                                               and game.owner_id == user.pk)):
        raise Http404(str(NO_GAME).format(uid=uid))
    return game


def plays_listed(user: Any) -> QuerySet[PlayGame]:
    """The user's games, the latest first."""
    return PlayGame.objects.filter(owner=user).order_by("-updated_at")
