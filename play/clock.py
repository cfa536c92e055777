"""The turn clock of a game between two people, kept by the server and never by a browser.

A seat's *period* is the run of decisions it makes in a row (its turn, or a choice asked of it
in the other's turn). A period may take ``turn`` seconds for free; past them the seat's reserve
(``reserve`` seconds for the whole game) runs down; when both are spent the server ends the
period for it (``END_CHOICES``: end the turn, keep the hand, pass …). The player to move who
has had no page of the game open for ``away`` seconds loses by timeout.

The clock starts once both players have opened the game (a challenge may be accepted while the
challenger is away). A game that one of them has still not opened ``away`` seconds after it was
made is called off (``NO_SHOW``): no winner, and it counts for neither — the player who came is
not left to concede, and accepting a challenge whose maker has gone wins nothing.

The clock is enforced lazily, by ``clock_enforce`` on every read (page, poll, stream) and by
each process's watcher (``play.watch``) at the deadline: both write with the
game's version as precondition, so of two enforcing at once one wins and the other reads the
result. Presence (``seen_p1``, ``seen_p2``) is written at most every ``SEEN_EVERY`` seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from play.engine_adapter import game_at, game_history, history_after, history_store
from play.errors import PlayConflict
from play.models import NO_SHOW, PlayGame, PlayStatus
from rules.engine import Action, Game

TIMEOUT = "timeout"
SEEN_EVERY = 5.0            # seconds between two writes of a player's presence
END_CHOICES = ("end", "keep", "ready", "pass", "decline")
MAX_FORCED = 60             # actions the server may play to end one period


def clock_new(clock: Mapping[str, Any]) -> dict[str, Any]:
    """The clock fields of a new game between people."""
    if not clock:
        return {}
    return {"clock": dict(clock), "reserve": [float(clock["reserve"])] * 2}


def _seen_field(seat: int) -> str:
    return "seen_p1" if seat == 0 else "seen_p2"


def seen_at(record: PlayGame, seat: int) -> datetime | None:
    return record.seen_p1 if seat == 0 else record.seen_p2


def seen_touch(record: PlayGame, seat: int | None, now: datetime | None = None) -> None:
    """The player of ``seat`` is here (a page, a poll, a stream, an action)."""
    if seat is None or not record.friendly:
        return
    now = now or timezone.now()
    last = seen_at(record, seat)
    if last is not None and (now - last).total_seconds() < SEEN_EVERY:
        return
    PlayGame.objects.filter(pk=record.pk).update(**{_seen_field(seat): now})
    setattr(record, _seen_field(seat), now)


def seen_touch_many(ids_by_seat: Mapping[int, list[int]], now: datetime | None = None) -> None:
    """Presence of the players whose pages wait on a stream: one update per seat."""
    now = now or timezone.now()
    for seat, ids in ids_by_seat.items():
        if ids:
            PlayGame.objects.filter(pk__in=ids).update(**{_seen_field(seat): now})


def _deadline(record: PlayGame, seat: int | None, began: datetime,
              reserve: list[float]) -> datetime | None:
    if seat is None:
        return None
    return began + timedelta(seconds=float(record.clock["turn"]) + reserve[seat])


def clock_fields(record: PlayGame, after: Game, now: datetime | None = None) -> dict[str, Any]:
    """What an action writes besides itself: the seat to move and, when the period passes to
    the other seat, the ended period's cost to its reserve and the new period's deadline."""
    to_move = after.to_move if after.result is None else None
    out: dict[str, Any] = {"to_move": to_move}
    if not record.clock or record.turn_began is None or to_move == record.to_move:
        if after.result is not None:
            out["deadline"] = None
        return out
    now = now or timezone.now()
    reserve = [float(r) for r in record.reserve]
    seat = record.to_move
    if seat is not None:
        used = (now - record.turn_began).total_seconds()
        reserve[seat] = max(0.0, reserve[seat] - max(0.0, used - float(record.clock["turn"])))
    out.update(reserve=reserve, turn_began=now, deadline=_deadline(record, to_move, now, reserve))
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
        deadline = record.deadline or _deadline(record, seat, began, list(record.reserve))
        out["deadline"] = _ms(deadline) if deadline is not None else None
        spent = max(0.0, (now - turn_ends).total_seconds())
        out["reserves"][seat] = max(0.0, float(record.reserve[seat]) - spent)
    return out


def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _save(record: PlayGame, **fields: Any) -> PlayGame | None:
    updated = PlayGame.objects.filter(pk=record.pk, version=record.version).update(
        version=record.version + 1, updated_at=timezone.now(), **fields)
    record.refresh_from_db()
    return record if updated else None


def _forced(game: Game) -> Action:
    legal = game.legal_actions()
    for kind in END_CHOICES:
        for action in legal:
            if action.kind == kind:
                return action
    return legal[0]


def clock_enforce(record: PlayGame, now: datetime | None = None) -> PlayGame:
    """Start the clock, end a period whose time ran out, or end the game of a player gone too
    long; returns the record as it now stands (unchanged when nothing was due)."""
    if not record.friendly or record.over or not record.clock:
        return record
    now = now or timezone.now()
    try:
        if record.turn_began is None:
            if record.seen_p1 is not None and record.seen_p2 is not None:
                _start(record, now)
            elif (now - record.created_at).total_seconds() > float(record.clock["away"]):
                _call_off(record)
            return record
        seat = record.to_move
        if seat is None:
            return record
        seen = seen_at(record, seat)
        if seen is None or (now - seen).total_seconds() > float(record.clock["away"]):
            _timeout(record, seat, now)
        elif record.deadline is not None and now >= record.deadline:
            _force_end(record, seat, now)
    except PlayConflict:
        record.refresh_from_db()
    return record


def _start(record: PlayGame, now: datetime) -> None:
    game = game_at(record)
    seat = game.to_move
    reserve = [float(r) for r in record.reserve]
    _save(record, to_move=seat, turn_began=now, deadline=_deadline(record, seat, now, reserve))


def _call_off(record: PlayGame) -> None:
    """A player never opened the game in time: it ends with no winner (``absent``: the seats
    that never came)."""
    absent = [seat for seat in (0, 1) if seen_at(record, seat) is None]
    _save(record, status=PlayStatus.FINISHED, to_move=None, deadline=None,
          result={"winner": None, "reason": NO_SHOW, "turns": 0, "absent": absent})


def _timeout(record: PlayGame, seat: int, now: datetime) -> None:
    game = game_at(record)
    _save(record, status=PlayStatus.FINISHED, to_move=None, deadline=None,
          result={"winner": 1 - seat, "reason": TIMEOUT, "turns": game.turn, "loser": seat})


def _force_end(record: PlayGame, seat: int, now: datetime) -> None:
    """The period's time ran out: the server plays its end for the seat."""
    history = game_history(record)
    actions = list(record.actions)
    for _ in range(MAX_FORCED):
        game = history.game
        if game.result is not None or game.to_move != seat:
            break
        chosen = _forced(game)
        history = history_after(history, chosen)
        actions.append(chosen.to_dict())
    after = history.game
    fields = clock_fields(record, after, now)
    reserve = list(fields.get("reserve") or record.reserve)
    reserve[seat] = 0.0
    fields["reserve"] = reserve
    if fields.get("turn_began"):
        fields["deadline"] = _deadline(record, fields["to_move"], now, reserve)
    if after.result is not None:
        fields.update(status=PlayStatus.FINISHED, result=dict(after.result))
    saved = _save(record, actions=actions, **fields)
    if saved is not None:
        history_store(saved, history)
