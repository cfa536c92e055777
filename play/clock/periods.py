"""The clock's times: what a new game's clock holds, what a move costs each seat, and the clock
as a page or the API shows it.

A seat's *period* is the run of decisions it makes in a row (its turn, or a choice asked of it
in the other's turn). A period may take ``turn`` seconds for free; past them the seat's reserve
(``reserve`` seconds for the whole game) runs down. Nothing here writes: the move's writer
(``play.store.move_write``) writes what ``clock_fields`` says.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from play.models import PlayGame
from rules.engine import Game


def clock_new(clock: Mapping[str, Any]) -> dict[str, Any]:
    """The clock fields of a new game between people."""
    if not clock:
        return {}
    return {"clock": dict(clock), "reserve": [float(clock["reserve"])] * 2}


def deadline_of(record: PlayGame, seat: int | None, began: datetime,
                reserve: list[float]) -> datetime | None:
    """When ``seat``'s period begun at ``began`` runs out, with ``reserve`` left."""
    if seat is None:
        return None
    return began + timedelta(seconds=float(record.clock["turn"]) + reserve[seat])


def clock_fields(record: PlayGame, after: Game, now: datetime | None = None, *,
                 spent: int | None = None) -> dict[str, Any]:
    """What an action writes besides itself: the seat to move and, when the period passes to
    the other seat, the ended period's cost to its reserve and the new period's deadline.
    ``spent``: a seat whose period the clock ended, its reserve all used."""
    to_move = after.to_move if after.result is None else None
    out: dict[str, Any] = {"to_move": to_move}
    now = now or timezone.now()
    if not record.clock or record.turn_began is None or to_move == record.to_move:
        if after.result is not None:
            out["deadline"] = None
    else:
        reserve = [float(r) for r in record.reserve]
        seat = record.to_move
        if seat is not None:
            used = (now - record.turn_began).total_seconds()
            reserve[seat] = max(0.0, reserve[seat] - max(0.0, used - float(record.clock["turn"])))
        out.update(reserve=reserve, turn_began=now,
                   deadline=deadline_of(record, to_move, now, reserve))
    if spent is not None:
        reserve = list(out.get("reserve") or record.reserve)
        reserve[spent] = 0.0
        out["reserve"] = reserve
        if out.get("turn_began"):
            out["deadline"] = deadline_of(record, out["to_move"], now, reserve)
    return out


def clock_state(record: PlayGame, now: datetime | None = None) -> dict[str, Any] | None:
    """The clock as a page or the API shows it: the seat to move, when its free turn time and
    its reserve run out (epoch ms, with the server's now to correct the browser's clock), and
    each seat's reserve left."""
    if not record.clock:
        return None
    now = now or timezone.now()
    out: dict[str, Any] = {"turn": record.clock["turn"], "reserve": record.clock["reserve"],
                           "away": record.clock["away"], "now": _ms(now),
                           "started": record.turn_began is not None,
                           "to_move": record.to_move, "reserves": list(record.reserve),
                           "turn_ends": None, "deadline": None}
    if record.turn_began is not None and record.to_move is not None and not record.over:
        seat = record.to_move
        began = record.turn_began
        turn_ends = began + timedelta(seconds=float(record.clock["turn"]))
        out["turn_ends"] = _ms(turn_ends)
        deadline = record.deadline or deadline_of(record, seat, began, list(record.reserve))
        out["deadline"] = _ms(deadline) if deadline is not None else None
        spent = max(0.0, (now - turn_ends).total_seconds())
        out["reserves"][seat] = max(0.0, float(record.reserve[seat]) - spent)
    return out


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)
