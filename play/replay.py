"""A finished game for the replay viewer: the simulator's own step-by-step board
(``simulations.replays.board``), rebuilt from the game's log."""

from __future__ import annotations

from typing import Any

from play.engine_adapter import game_at
from play.models import PlayGame
from simulations.replays.board import board, seats


def replay_context(record: PlayGame, step: int) -> dict[str, Any]:
    log = game_at(record).log()
    state = board(log, record.cards, step)
    winner = (record.result or {}).get("winner")
    return {"game": record, "board": state, "seats": seats(state.snapshot, record.cards),
            "seat_names": [record.deck_name(0), record.deck_name(1)],
            "winner": None if winner is None else record.deck_name(int(winner)),
            "turns": (record.result or {}).get("turns")}
