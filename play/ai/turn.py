"""The AI's turn: the agent to move, and its moves played and written one by one.

Each move is written on its own by the game's one writer (``play.store``), with the version it
was chosen at, so the page can show the moves step by step and an undo, a restart or a
concession meanwhile wins over a move still being worked out (the writer's ``PlayConflict``
ends the turn). The agent's random source at a step is seeded by the game's seed and the step
(``play.engine.adapter.agent_rng``): the same move at the same point after an undo.
"""

from __future__ import annotations

from play.engine.adapter import agent_rng, game_at, game_history, history_after
from play.errors import PlayConflict
from play.models import HUMAN, PlayGame
from play.store import move_write
from rules.ai.agents import make_agent
from rules.engine import Game

MAX_AGENT_MOVES = 400     # one call's moves; a turn is capped by the ruleset's action limit


def agent_to_move(record: PlayGame, game: Game | None = None) -> str | None:
    """The agent that must decide now, if any (a game between people has none: no replay)."""
    if record.over or all(seat == HUMAN for seat in record.seats):
        return None
    game = game or game_at(record)
    seat = game.to_move
    if seat is None or record.seats[seat] == HUMAN:
        return None
    return str(record.seats[seat])


def play_agent_advance(*, uid: str, limit: int = MAX_AGENT_MOVES) -> int:
    """Let the agents play until a person must decide or the game ends; returns the moves made.
    A conflict (an undo, a restart, a concession meanwhile) ends the call."""
    moves = 0
    while moves < limit:
        record = PlayGame.objects.get(uid=uid)
        history = game_history(record)
        game = history.game
        name = agent_to_move(record, game)
        if name is None:
            break
        seat = int(game.to_move or 0)
        agent = make_agent(name)
        view = game.view(seat) if agent.needs_view else None
        step = len(record.actions)
        chosen = agent.choose(view, game.legal_actions(), agent_rng(record.seed, step))
        try:
            move_write(record, version=record.version, history=history_after(history, chosen),
                       actions=[*record.actions, chosen.to_dict()])
        except PlayConflict:
            break
        moves += 1
    return moves
