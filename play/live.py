"""Reading a game as one of its players: the clock enforced first, the reader's presence noted.

Every read of a game between people (a page, the board, the API, a stream's wake-up) goes
through ``play_read``: the server, not the browser, ends a turn whose time ran out and the game
of a player gone too long, at the moment anyone looks (and the watcher, ``play.watch``, when
nobody does).
"""

from __future__ import annotations

from typing import Any

from play.clock import clock_enforce, seen_touch
from play.models import PlayGame
from play.selectors import play_get


def play_read(*, uid: str, user: Any) -> PlayGame:
    """The user's game (404 for anyone else), its clock enforced, the user marked present."""
    record = play_get(uid=uid, user=user)
    if record.friendly:
        seen_touch(record, record.seat_of(user))
        record = clock_enforce(record)
    return record
