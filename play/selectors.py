"""Reading games: a person's own games, and a shared finished game's replay."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext_lazy

from play import conf
from play.models import NO_SHOW, Challenge, ChallengeStatus, PlayerSettings, PlayGame

NO_GAME = gettext_lazy("There is no game {uid!r} of yours.")
NO_CHALLENGE = gettext_lazy("There is no challenge {uid!r} for you.")


def play_get(*, uid: str, user: Any) -> PlayGame:
    """The user's game (another user's is as missing as an unknown one: 404)."""
    if user is None or not user.is_authenticated:
        raise Http404(str(NO_GAME).format(uid=uid))
    found = PlayGame.objects.filter(Q(owner=user) | Q(guest=user), uid=uid).select_related(
        "owner", "guest").first()
    if found is None:
        raise Http404(str(NO_GAME).format(uid=uid))
    return found


def play_reread(record: PlayGame) -> PlayGame | None:
    """The game as it now stands in the database (None once it is gone)."""
    return PlayGame.objects.filter(pk=record.pk).first()


def play_replay_get(*, uid: str, user: Any) -> PlayGame:
    """A finished game for its replay: the owner's, or anyone's when it is shared; none for a
    game called off before it began."""
    game = PlayGame.objects.filter(uid=uid).exclude(status="playing").first()
    if game is None or not game.has_replay or not (game.is_shared or game.is_player(user)):
        raise Http404(str(NO_GAME).format(uid=uid))
    return game


def plays_listed(user: Any) -> QuerySet[PlayGame]:
    """The user's games, the latest first."""
    return PlayGame.objects.filter(Q(owner=user) | Q(guest=user)).select_related(
        "owner", "guest").order_by("-updated_at")


def viewer_seat(record: PlayGame, user: Any, asked: int | None) -> int | None:
    """The seat a page or the API shows: in a game between people always the viewer's own
    (whatever was asked: the other seat's view is never sent), else the one asked."""
    if record.friendly:
        return record.seat_of(user)
    return asked


def acting_seat(record: PlayGame, user: Any, asked: int | None) -> int:
    """The seat a change (undo, concede) is for: the one asked, else the person's own — P1
    against an agent, their own seat between people. The services refuse a seat that is not
    the person's to play."""
    if asked is not None:
        return asked
    if record.friendly:
        own = record.seat_of(user)
        return own if own is not None else 0
    return record.human_seats[0] if record.human_seats else 0


def challenge_get(*, uid: str, user: Any) -> Challenge:
    """A challenge its challenger or the player named in it may see; an open one, anyone signed
    in with its link. Anyone else: 404, as for a missing one."""
    found = Challenge.objects.select_related("challenger", "opponent", "game").filter(
        uid=uid).first()
    if found is None or user is None or not user.is_authenticated or (
            found.opponent_id is not None
            and user.pk not in (found.challenger_id, found.opponent_id)):
        raise Http404(str(NO_CHALLENGE).format(uid=uid))
    if found.status == ChallengeStatus.PENDING and found.expires_at <= timezone.now():
        Challenge.objects.filter(pk=found.pk, status=ChallengeStatus.PENDING).update(
            status=ChallengeStatus.EXPIRED)
        found.status = ChallengeStatus.EXPIRED
    return found


def challenges_emailed(user: Any) -> bool:
    """Whether the user asked to be told of challenges by e-mail."""
    return PlayerSettings.objects.filter(user=user, email_challenges=True).exists()


def spectators_default(user: Any) -> bool:
    """Whether the user lets anyone watch their games against people, unless they say
    otherwise for a game (off until they choose it)."""
    return PlayerSettings.objects.filter(user=user, allow_spectators=True).exists()


def challenges_for(user: Any) -> dict[str, list[Challenge]]:
    """The user's pending challenges: ``incoming`` (named to them) and ``outgoing``; and the
    lobby's ``open`` ones, open links of other players that anyone may accept, the longest
    waiting first."""
    now = timezone.now()
    pending = Challenge.objects.filter(status=ChallengeStatus.PENDING, expires_at__gt=now)
    rows = pending.select_related("challenger", "opponent")
    return {"incoming": list(rows.filter(opponent=user)[:50]),
            "outgoing": list(rows.filter(challenger=user)[:50]),
            "open": list(rows.filter(opponent__isnull=True).exclude(challenger=user)
                         .order_by("created_at")[:50])}


def challenges_digest(found: Mapping[str, Sequence[Challenge]]) -> str:
    """A short fingerprint of the challenges a page lists: it changes when one comes or goes,
    so a page that polls them swaps its lists only then."""
    listed = "|".join(f"{key}:{','.join(c.uid for c in rows)}"
                      for key, rows in sorted(found.items()))
    return hashlib.blake2b(listed.encode(), digest_size=8).hexdigest()


def challenge_lists_context(user: Any) -> dict[str, Any]:
    """What ``play/_challenge_lists.html`` needs: the user's pending challenges, their
    fingerprint and how often the page asks again."""
    found = challenges_for(user)
    return {"challenges": found, "challenges_digest": challenges_digest(found),
            "challenge_poll_seconds": conf.challenge_poll_seconds()}


def rematch_offer_of(record: PlayGame) -> Challenge | None:
    """The pending offer of a rematch of ``record`` (by either player), if any."""
    return Challenge.objects.select_related("challenger", "opponent").filter(
        rematch_of=record, status=ChallengeStatus.PENDING,
        expires_at__gt=timezone.now()).first()


def game_end_context(record: PlayGame, user: Any) -> dict[str, Any]:
    """What ``play/_game_end.html`` needs for a player of a finished game between people: the
    outcome from their seat (``won``, ``lost``, ``drawn``, ``called_off``) and the rematch on
    offer — by them (``mine``) or to them — so the other player sees it on this page."""
    seat = record.seat_of(user)
    result = record.result or {}
    winner = result.get("winner")
    if result.get("reason") == NO_SHOW:
        outcome = "called_off"
    elif winner is None:
        outcome = "drawn"
    else:
        outcome = "won" if winner == seat else "lost"
    offer = rematch_offer_of(record)
    return {"game": record, "outcome": outcome, "rematch": offer,
            "rematch_mine": offer is not None and offer.challenger_id == getattr(user, "pk", None),
            "end_poll_seconds": conf.challenge_poll_seconds()}
