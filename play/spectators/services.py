"""A player's consent to spectators, changed during the game: written by the game's one writer
(``play.store``), so the version moves and every stream of the game wakes — a spectator's
stream ends at once when either player stops allowing it, and both boards show the change."""

from __future__ import annotations

from typing import Any

from play.errors import NOT_A_PLAYER, STALE, PlayConflict, PlayError
from play.models import PlayGame
from play.store import game_write

TRIES = 3


def spectators_allow(*, record: PlayGame, by: Any, allow: bool) -> PlayGame:
    """``by`` (a player of ``record``) allows spectators, or stops allowing them. The game is
    watchable while both players allow it. A move written meanwhile is not lost: the consent
    is written on the game as it then stands."""
    seat = record.seat_of(by)
    if seat is None:
        raise PlayError(str(NOT_A_PLAYER), "allow")
    field = "watch_p1" if seat == 0 else "watch_p2"
    for _ in range(TRIES):
        if record.watch_allowed_by(seat) == allow:
            return record
        try:
            return game_write(record, version=record.version, **{field: allow})
        except PlayConflict:
            continue                  # the record now holds the game as it stands: again
    raise PlayConflict(str(STALE))
