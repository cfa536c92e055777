"""A finished game for the replay viewer: the simulator's own step-by-step board
(``simulations.replays.board``), rebuilt from the game's log.

A game between people is replayed as each person may know it: a player sees their own seat's
cards and the other seat's only once played or revealed (the board's own redaction,
``play.seat.log_text``), and anyone else watching a shared replay sees neither hand — so a replay
never shows a deck the challenge kept hidden. Its sides are named by their players, and its
seed is not shown (with the deck lists it would tell the order of every draw)."""

from __future__ import annotations

from typing import Any

from play.engine.adapter import game_history
from play.models import PlayGame
from play.seat.log_text import SPECTATOR, redact_snapshot, step_lines
from simulations.replays.board import Board, card_names, seats, turn_starts


def replay_context(record: PlayGame, step: int, viewer: Any = None) -> dict[str, Any]:
    """What ``play/replay.html`` needs to show ``record`` at ``step`` to ``viewer``."""
    history = game_history(record)
    events = list(history.game.events or [])
    steps = history.steps
    step = max(0, min(step, steps))
    snapshot = history.snapshots[step]
    names = [record.deck_name(0), record.deck_name(1)]
    seen_as = None
    if record.friendly:
        names = [record.player_name(0), record.player_name(1)]
        own = record.seat_of(viewer)
        seen_as = SPECTATOR if own is None else own
        snapshot = redact_snapshot(snapshot, seen_as)
    lines = [line for _, line in step_lines(
        events=events, snapshots=history.snapshots, names=card_names(record.cards),
        viewer=seen_as, start=step, end=step)]
    # turn_starts reads only the log's events: the whole log is not built for it.
    state = Board(step=step, steps=steps, turn=int(snapshot.get("turn", 0)), snapshot=snapshot,
                  events=lines, turn_starts=turn_starts({"events": events}))
    winner = (record.result or {}).get("winner")
    return {"game": record, "board": state, "seats": seats(snapshot, record.cards),
            "seat_names": names, "spectator": seen_as == SPECTATOR,
            "winner": None if winner is None else names[int(winner)],
            "reason": (record.result or {}).get("reason"),
            "turns": (record.result or {}).get("turns")}
