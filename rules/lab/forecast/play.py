"""The forecast's games: any list against any list, in blocks, on seeds shared across rounds.

A ``PairTask`` names both decks by their content (hero and counts), so one pool of processes
plays every round's games, however the lists change; a deck tuning's tasks (an opponent by its
index in the tuning's field) are translated to pair tasks by ``FieldEvaluator``. A block is the
deck's outcome string over ``BLOCK`` games (``rules.lab.deck_tuning.evaluate``): seat-swapped
pairs, both games of a pair on one seed.

Invariant: a task's outcomes depend only on the task, never on who plays it or when.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from rules.lab.deck_tuning import BLOCK, TuneField, TuneTask, play_tune_task
from rules.lab.deck_tuning.problem import DeckKey, deck_list
from rules.lab.piece_pool import PiecePool

_MASK = (1 << 62) - 1
Pairing = tuple[int, int]


def matchup_seed(seed: int, first: int, second: int, *, fresh: int = 0) -> int:
    """The seed of archetype ``first``'s matchup with ``second``: the same in every round
    (common random numbers: a matchup moves between rounds by its lists, not its dice);
    ``fresh`` > 0 gives the independent seeds of the settled field's figures."""
    return random.Random(f"forecast/{seed}/{first}/{second}/{fresh}").getrandbits(62) & _MASK


@dataclass(frozen=True)
class PairTask:
    """Blocks ``first … first+blocks−1`` of ``deck`` against ``rival`` on ``seed``, both
    played by ``agent`` (empty: the field's agent)."""

    deck: DeckKey
    rival: DeckKey
    seed: int
    first: int
    blocks: int
    agent: str = ""

    @property
    def games(self) -> int:
        return self.blocks * BLOCK


class PairEvaluator(Protocol):
    def evaluate(self, tasks: Sequence[PairTask]) -> list[list[str]]:
        """One list of per-block outcome strings (from ``deck``'s side) for each task."""


def play_pair_task(field: TuneField, task: PairTask) -> list[str]:
    """``field`` gives the cards, agent and ruleset; its opponents are the task's rival."""
    return play_tune_task(replace(field, opponents=(deck_list(task.rival),),
                                  agent=task.agent or field.agent),
                          TuneTask(task.deck, 0, task.seed, task.first, task.blocks))


class LocalPairEvaluator(PiecePool[TuneField, PairTask, str]):
    """Plays pair tasks in this process (``processes=1``) or a pool of processes."""

    def __init__(self, field: TuneField, processes: int = 1, piece: int = 2):
        super().__init__(field, play_pair_task, processes, piece)


class FieldEvaluator:
    """A deck tuning's evaluator over a pair evaluator: opponent ``o`` is ``opponents[o]``."""

    def __init__(self, pairs: PairEvaluator, opponents: Sequence[DeckKey]):
        self.pairs = pairs
        self.opponents = list(opponents)
        self.games = 0

    def evaluate(self, tasks: Sequence[TuneTask]) -> list[list[str]]:
        self.games += sum(t.blocks for t in tasks) * BLOCK
        return self.pairs.evaluate([PairTask(t.deck, self.opponents[t.opponent], t.seed,
                                             t.first, t.blocks) for t in tasks])


class Matchups:
    """The field's matchups: every block played between two lists on a matchup's seed;
    ``measure`` plays only what is new (a matchup whose two lists did not change since the last
    round is read, not played)."""

    def __init__(self, pairs: PairEvaluator, seed: int):
        self.pairs, self.seed = pairs, seed
        self.blocks: dict[tuple[DeckKey, DeckKey, int, str], list[str]] = {}
        self.games = 0

    def measure(self, lists: Sequence[DeckKey], games: int, *, fresh: int = 0,
                agent: str = "") -> dict[Pairing, str]:
        blocks = max(1, -(-games // BLOCK))
        wanted: dict[Pairing, tuple[DeckKey, DeckKey, int, str]] = {}
        tasks: list[PairTask] = []
        for i in range(len(lists)):
            for j in range(i + 1, len(lists)):
                key = (lists[i], lists[j], matchup_seed(self.seed, i, j, fresh=fresh), agent)
                wanted[(i, j)] = key
                have = len(self.blocks.get(key, ()))
                if have < blocks and key not in {(t.deck, t.rival, t.seed, t.agent)
                                                 for t in tasks}:
                    tasks.append(PairTask(key[0], key[1], key[2], have, blocks - have, agent))
        if tasks:
            for task, out in zip(tasks, self.pairs.evaluate(tasks), strict=True):
                self.blocks.setdefault((task.deck, task.rival, task.seed, task.agent),
                                       []).extend(out)
                self.games += task.games
        return {pair: "".join(self.blocks[key][:blocks]) for pair, key in wanted.items()}
