"""Playing candidate decks against the field: games in blocks, common random numbers, outcomes.

Every candidate plays opponent ``o`` on the same seeds (``opponent_seed``): game ``g`` is game
``g`` of a run with that seed, whatever the candidate (common random numbers), so two
candidates differ only by their cards. Games are played in *blocks* of ``BLOCK`` games (whole
seat-swapped pairs, the tuned deck first in the even game); a block's result is its outcome
string from the tuned deck's side — ``a`` won, ``b`` lost, ``d`` draw, ``e`` engine error —
so two candidates can be compared game by game (paired differences, McNemar).

Invariant: a task's outcomes depend only on the task, never on who plays it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from rules.agents import make_agent
from rules.deck_tuning.problem import DeckKey, TuneField, deck_list
from rules.match import game_seed, play_game

BLOCK = 50          # games per block (25 seat-swapped pairs)
_MASK = (1 << 63) - 1


def opponent_seed(seed: int, opponent: int, *, fresh: int = 0) -> int:
    """The run seed every candidate plays opponent ``opponent`` with; ``fresh`` > 0 gives the
    independent seeds of re-verification."""
    return random.Random(f"tune/{seed}/{opponent}/{fresh}").getrandbits(62) & _MASK


@dataclass(frozen=True)
class TuneTask:
    """Blocks ``first … first+blocks−1`` of deck ``deck`` against opponent ``opponent``."""

    deck: DeckKey
    opponent: int
    seed: int
    first: int
    blocks: int

    @property
    def games(self) -> int:
        return self.blocks * BLOCK


class TuneEvaluator(Protocol):
    def evaluate(self, tasks: Sequence[TuneTask]) -> list[list[str]]:
        """One list of per-block outcome strings for each task, in order."""


def play_tune_task(field: TuneField, task: TuneTask, agent: object | None = None) -> list[str]:
    agent = agent if agent is not None else make_agent(field.agent)
    deck, rival = deck_list(task.deck), field.opponents[task.opponent]
    out = []
    for block in range(task.first, task.first + task.blocks):
        chars = []
        for index in range(block * BLOCK, (block + 1) * BLOCK):
            result = play_game(field.cards, deck, rival, seed=game_seed(task.seed, index),
                               a_first=index % 2 == 0, agent_a=agent, agent_b=agent,
                               ruleset=field.ruleset)
            chars.append("e" if result.error is not None else (result.winner or "d"))
        out.append("".join(chars))
    return out


_FIELD: TuneField | None = None


def _init_worker(field: TuneField) -> None:
    global _FIELD
    _FIELD = field


def _play_one(task: TuneTask) -> list[str]:
    assert _FIELD is not None
    return play_tune_task(_FIELD, task)


class LocalTuneEvaluator:
    """Plays tasks in this process (``processes=1``) or in a pool of processes, cut into pieces
    of ``piece`` blocks so the processes stay evenly busy."""

    def __init__(self, field: TuneField, processes: int = 1, piece: int = 2):
        self.field, self.processes, self.piece = field, processes, piece
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> LocalTuneEvaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def evaluate(self, tasks: Sequence[TuneTask]) -> list[list[str]]:
        pieces = [TuneTask(t.deck, t.opponent, t.seed, t.first + i, min(self.piece, t.blocks - i))
                  for t in tasks for i in range(0, t.blocks, self.piece)]
        if self.processes <= 1:
            agent = make_agent(self.field.agent)
            played = [play_tune_task(self.field, piece, agent) for piece in pieces]
        else:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(self.processes, initializer=_init_worker,
                                                 initargs=(self.field,))
            played = list(self._pool.map(_play_one, pieces, chunksize=1))
        flat = iter(o for piece in played for o in piece)
        return [[next(flat) for _ in range(task.blocks)] for task in tasks]
