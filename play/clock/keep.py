"""The clock's one door: every trigger that may find the clock due calls ``clock_keep``.

Reading a game as one of its players goes through ``play_read``: the reader's presence noted,
then the clock kept — the server, not the browser, ends a turn whose time ran out and the game
of a player gone too long, at the moment anyone looks. The other triggers are the stream held
open by a synchronous server (``play.streams.events``), each process's watcher when nobody
looks (``play.streams.watch``), and the count of a player's games in progress
(``play.friends.services``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from play.clock.enforce import clock_enforce
from play.clock.presence import seen_touch
from play.models import PlayGame
from play.selectors import play_get


def clock_keep(record: PlayGame, *, seat: int | None = None,
               now: datetime | None = None) -> PlayGame:
    """``record`` with its clock kept (started, a period ended, a timeout, a no-show), the
    player of ``seat`` marked present first; the record as it now stands."""
    if not record.friendly:
        return record
    seen_touch(record, seat, now)
    return clock_enforce(record, now)


def play_read(*, uid: str, user: Any) -> PlayGame:
    """The user's game (404 for anyone else), its clock kept, the user marked present."""
    record = play_get(uid=uid, user=user)
    return clock_keep(record, seat=record.seat_of(user))
