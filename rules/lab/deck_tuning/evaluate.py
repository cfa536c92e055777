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
from dataclasses import dataclass
from typing import Protocol

from rules.ai.agents import make_agent
from rules.lab.deck_tuning.problem import DeckKey, TuneField, deck_list
from rules.lab.match import game_seed, play_game
from rules.lab.piece_pool import PiecePool

BLOCK = 50          # games per block (25 seat-swapped pairs)
_MASK = (1 << 63) - 1


def opponent_seed(seed: int, opponent: int, *, fresh: int = 0) -> int:
    """The run seed every candidate plays opponent ``opponent`` with; ``fresh`` > 0 gives the
    independent seeds of re-verification."""
    return random.Random(f"tune/{seed}/{opponent}/{fresh}").getrandbits(62) & _MASK


def pairing_seed(seed: int, first: int, second: int) -> int:
    """The run seed of the field's own pairing (opponent ``first`` against ``second``), played
    once on fresh seeds so the tuned deck's share of the field's equilibria can be told."""
    return random.Random(f"tune/{seed}/{first}-{second}/field").getrandbits(62) & _MASK


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


def play_tune_task(field: TuneField, task: TuneTask) -> list[str]:
    agent = make_agent(field.agent)
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


class LocalTuneEvaluator(PiecePool[TuneField, TuneTask, str]):
    """Plays tasks in this process (``processes=1``) or in a pool of processes, cut into pieces
    of ``piece`` blocks so the processes stay evenly busy."""

    def __init__(self, field: TuneField, processes: int = 1, piece: int = 2):
        super().__init__(field, play_tune_task, processes, piece)
