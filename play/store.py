"""The one writer of a game's changes, version-checked (optimistic concurrency).

Every change of a game (a person's move, an agent's, undo, restart, concession, and the clock's
own: starting, ending a period, a timeout, calling a game off) is written by ``game_write`` with
the version it was read at as the precondition: if nobody changed the game since, the fields
are written and the version raised; else nothing is written and ``PlayConflict`` (409) is
raised, the record then holding the game as it stands. One contract for every writer, so a
caller that can lose a race (the clock enforced by two processes at once) handles it once.

``QuerySet.update`` skips ``auto_now``: the writer sets ``updated_at`` itself, so "latest first"
lists sort by the last change. ``move_write`` writes actions played on a replayed history: what
the move did to the game's status and result, and to the clock (``play.clock.periods``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from play.clock.periods import clock_fields
from play.engine.adapter import History, history_store
from play.errors import STALE, PlayConflict
from play.models import PlayGame, PlayStatus


def game_write(record: PlayGame, *, version: int, **fields: Any) -> PlayGame:
    """Write ``fields`` if the game is still at ``version``: the record then holds them (and the
    version after); else ``PlayConflict``, the record holding the game as it now stands."""
    updated = PlayGame.objects.filter(pk=record.pk, version=version).update(
        version=version + 1, updated_at=timezone.now(), **fields)
    record.refresh_from_db()
    if not updated:
        raise PlayConflict(str(STALE))
    return record


def move_write(record: PlayGame, *, version: int, history: History, actions: list[Any],
               now: datetime | None = None, spent: int | None = None) -> PlayGame:
    """Write ``actions`` (the game's whole list, ``history`` their replay) at ``version``: the
    game's end if it came, the clock's accounting (``spent``: the seat whose whole reserve the
    clock took), and the replay kept so the next read replays nothing."""
    game = history.game
    fields: dict[str, Any] = clock_fields(record, game, now, spent=spent)
    fields["turn"] = int(game.turn)
    if game.result is not None:
        fields.update(status=PlayStatus.FINISHED, result=dict(game.result))
    record = game_write(record, version=version, actions=actions, **fields)
    history_store(record, history)
    return record
