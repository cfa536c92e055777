"""A stored game back into the engine: start it from its frozen setup, replay its actions.

The engine is deterministic, so the state after ``actions[:k]`` is rebuilt exactly by replaying
them; nothing but the setup and the actions is stored (``play.models``). A replay of a whole game
is a few milliseconds of the compiled engine.

Also here: where each turn began (the undo point) and the seeded random source of an agent's
decision, so an agent plays the same move at the same point of the same game after an undo, a
restart or on another server.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine import Action, Game
from rules.engine.cards import CardDef, DeckList, Ruleset


@dataclass
class History:
    """A game replayed to its last action, with the snapshot before each action."""

    game: Game
    snapshots: list[dict[str, Any]]        # snapshots[k]: the state after k actions
    turn_starts: dict[int, int] = field(default_factory=dict)   # turn → its first step

    @property
    def steps(self) -> int:
        return len(self.snapshots) - 1


def card_defs(cards: Mapping[str, Mapping[str, Any]]) -> dict[str, CardDef]:
    return {code: CardDef.from_dict(data) for code, data in cards.items()}


def deck_lists(decks: Sequence[Mapping[str, Any]]) -> list[DeckList]:
    return [DeckList.from_counts(d["hero"], d["cards"], d.get("name", "")) for d in decks]


def game_start(*, cards: Mapping[str, Mapping[str, Any]], decks: Sequence[Mapping[str, Any]],
               seed: int, ruleset: Mapping[str, Any], first_player: int | None) -> Game:
    """The game before its first action (raises ``CardDataError`` on decks it cannot play)."""
    return Game(card_defs(cards), deck_lists(decks), seed=seed,
                ruleset=Ruleset.from_dict(dict(ruleset)), first_player=first_player)


def record_start(record: Any) -> Game:
    """``record``: anything with the fields of ``play.models.PlayGame``."""
    return game_start(cards=record.cards, decks=record.decks, seed=record.seed,
                      ruleset=record.ruleset, first_player=record.first_player)


def game_at(record: Any, step: int | None = None) -> Game:
    """The game after ``step`` of its actions (all of them by default)."""
    game = record_start(record)
    actions = record.actions if step is None else record.actions[:max(0, step)]
    for action in actions:
        game.apply(Action.from_dict(action), check=False)
    return game


def game_history(record: Any) -> History:
    """The whole game so far with every intermediate snapshot (for the log and the undo)."""
    game = record_start(record)
    snapshots = [game.snapshot()]
    starts: dict[int, int] = {game.turn: 0}
    for action in record.actions:
        game.apply(Action.from_dict(action), check=False)
        snapshots.append(game.snapshot())
        starts.setdefault(game.turn, len(snapshots) - 1)
    return History(game=game, snapshots=snapshots, turn_starts=starts)


def undo_point(history: History, seat: int) -> int | None:
    """The step where the current turn (or the setup) began, if it is ``seat``'s and ``seat``
    has acted in it since; None when there is nothing to undo."""
    game = history.game
    turn = game.turn
    start = history.turn_starts.get(turn)
    if start is None or start >= history.steps or (turn != 0 and game.active != seat):
        return None
    if not any(_actor(history, step) == seat for step in range(start, history.steps)):
        return None
    return start


def _actor(history: History, step: int) -> int | None:
    """Who chose the action after ``step``."""
    decision = history.snapshots[step].get("decision") or {}
    return decision.get("player")


def agent_rng(seed: int, step: int) -> random.Random:
    """An agent's random source at ``step`` of the game seeded ``seed`` (a string seed is hashed
    the same way in every process)."""
    return random.Random(f"play:{seed}:{step}")
