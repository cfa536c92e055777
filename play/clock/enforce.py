"""The clock enforced: started, a period ended, a game lost by timeout or called off.

When both a period's free time and the seat's reserve are spent the server ends the period for
it (``END_CHOICES``: end the turn, keep the hand, pass …). The player to move who has had no
page of the game open for ``away`` seconds loses by timeout.

The clock starts once both players have opened the game (a challenge may be accepted while the
challenger is away). A game that one of them has still not opened ``away`` seconds after it was
made is called off (``NO_SHOW``): no winner, and it counts for neither — the player who came is
not left to concede, and accepting a challenge whose maker has gone wins nothing.

Enforced lazily, from one door (``play.clock.keep.clock_keep``): on every read (page, poll,
stream) and by each process's watcher (``play.streams.watch``) at the deadline. Every write
goes through the game's one writer (``play.store``) with the version read as precondition, so
of two enforcing at once one wins and the other (``PlayConflict``) reads the result.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from play.clock.periods import deadline_of
from play.clock.presence import seen_at
from play.engine.adapter import game_at, game_history, history_after
from play.errors import PlayConflict
from play.models import NO_SHOW, PlayGame, PlayStatus
from play.store import game_write, move_write
from rules.engine import Action, Game

TIMEOUT = "timeout"
END_CHOICES = ("end", "keep", "ready", "pass", "decline")
MAX_FORCED = 60             # actions the server may play to end one period


def _forced(game: Game) -> Action:
    legal = game.legal_actions()
    for kind in END_CHOICES:
        for action in legal:
            if action.kind == kind:
                return action
    return legal[0]


def clock_enforce(record: PlayGame, now: datetime | None = None) -> PlayGame:
    """Start the clock, end a period whose time ran out, or end the game of a player gone too
    long; returns the record as it now stands (unchanged when nothing was due; as another
    writer left it when one changed the game meanwhile)."""
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
            _timeout(record, seat)
        elif record.deadline is not None and now >= record.deadline:
            _force_end(record, seat, now)
    except PlayConflict:
        pass                # another writer changed the game first: the record holds it now
    return record


def _start(record: PlayGame, now: datetime) -> None:
    game = game_at(record)
    seat = game.to_move
    reserve = [float(r) for r in record.reserve]
    game_write(record, version=record.version, to_move=seat, turn_began=now,
               deadline=deadline_of(record, seat, now, reserve))


def _call_off(record: PlayGame) -> None:
    """A player never opened the game in time: it ends with no winner (``absent``: the seats
    that never came)."""
    absent = [seat for seat in (0, 1) if seen_at(record, seat) is None]
    game_write(record, version=record.version, status=PlayStatus.FINISHED, to_move=None,
               deadline=None,
               result={"winner": None, "reason": NO_SHOW, "turns": 0, "absent": absent})


def _timeout(record: PlayGame, seat: int) -> None:
    game = game_at(record)
    game_write(record, version=record.version, status=PlayStatus.FINISHED, to_move=None,
               deadline=None,
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
    move_write(record, version=record.version, history=history, actions=actions, now=now,
               spent=seat)
