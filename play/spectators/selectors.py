"""Reading games as a spectator: one game (rights as everywhere: a game that may not be watched
is as missing as an unknown one), and the lobby's list of games that may be watched."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext_lazy

from decks.models import Format
from play.clock.keep import clock_keep
from play.models import PlayGame, PlayStatus
from play.selectors import challenge_lists_context
from play.spectators.presence import watchers_count

NO_WATCH = gettext_lazy("There is no game {uid!r} that you may watch.")
LISTED = 50


def spectate_get(*, uid: str, user: Any) -> PlayGame:
    """A game between people that ``user`` may watch (both players allow it), or plays (the
    views send a player to their seat); its clock kept. Anyone else, and anyone not signed in:
    404, as for a game that does not exist."""
    if user is None or not user.is_authenticated:
        raise Http404(str(NO_WATCH).format(uid=uid))
    found = PlayGame.objects.filter(uid=uid, guest__isnull=False).select_related(
        "owner", "guest").first()
    if found is None or not (found.watchable or found.is_player(user)):
        raise Http404(str(NO_WATCH).format(uid=uid))
    return clock_keep(found)


@dataclass(frozen=True)
class WatchRow:
    """A game in the lobby's list: who plays, the format, the turn, since when, watchers."""

    game: PlayGame
    format_label: str
    watchers: int

    @property
    def players(self) -> tuple[str, str]:
        return self.game.player_name(0), self.game.player_name(1)


def games_to_watch(user: Any, now: datetime | None = None) -> list[WatchRow]:
    """Games between people in progress that both players let anyone watch, the latest moved
    first; the reader's own games are on their list of games, not here."""
    rows = PlayGame.objects.filter(status=PlayStatus.PLAYING, guest__isnull=False,
                                   watch_p1=True, watch_p2=True).select_related(
        "owner", "guest", "challenge")
    if user is not None and user.is_authenticated:
        rows = rows.exclude(owner=user).exclude(guest=user)
    games = list(rows.order_by("-updated_at")[:LISTED])
    counts = watchers_count((g.pk for g in games), now)
    codes = {g.challenge.format_code for g in games if hasattr(g, "challenge")}
    labels = {f.code: f.display_name for f in Format.objects.filter(code__in=codes)}
    return [WatchRow(game=g, watchers=counts.get(g.pk, 0),
                     format_label=(labels.get(g.challenge.format_code, g.challenge.format_code)
                                   if hasattr(g, "challenge") else ""))
            for g in games]


def games_digest(rows: list[WatchRow], now: datetime | None = None) -> str:
    """A fingerprint of the list as a page shows it: a game coming or going, a move, a change
    of watchers, and each minute of play (the list says how long each game has run)."""
    now = now or timezone.now()
    listed = "|".join(f"{r.game.uid}:{r.game.version}:{r.watchers}:"
                      f"{int((now - r.game.created_at).total_seconds() // 60)}" for r in rows)
    return hashlib.blake2b(listed.encode(), digest_size=8).hexdigest()


def lobby_context(user: Any) -> dict[str, Any]:
    """What ``play/_challenge_lists.html`` needs: the challenges (``play.selectors``) and the
    games that may be watched, under one fingerprint, so the page's poll swaps the lists when
    either changed."""
    context = challenge_lists_context(user)
    rows = games_to_watch(user)
    both = f"{context['challenges_digest']}|{games_digest(rows)}"
    context.update(watch_games=rows,
                   challenges_digest=hashlib.blake2b(both.encode(), digest_size=8).hexdigest())
    return context
