"""The games of an adapted search: a balance search's blocks on lists that change from one
step to the next, and a forecast's pair blocks under a candidate patch — one kind of task, so
one pool of processes (or the site's workers) plays both.

An ``AdaptedTask`` names everything its games depend on: the patch's moves, the lists by their
content, the seed, the agent. ``search`` tasks are a balance search's ``EvalTask`` on the field
``decks`` (a matchup ``a``–``b`` by index); ``pair`` tasks are a forecast's ``PairTask``
(``decks`` holds the deck and its rival) played on the cards as ``moves`` patch them.
``SearchSide`` and ``PairSide`` turn an adapted evaluator into the evaluators the balance
search and the forecast take.

Invariant: a task's results depend only on the task, never on who plays it or when.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules.engine.cards import STANDARD, CardDef, Ruleset
from rules.lab.balance_search.evaluate import EvalTask, Field, Tally, play_task, task_cards
from rules.lab.balance_search.space import Candidate
from rules.lab.deck_tuning import BLOCK, TuneField
from rules.lab.deck_tuning.problem import DeckKey, deck_list
from rules.lab.forecast import PairTask, play_pair_task
from rules.lab.piece_pool import PiecePool

SEARCH, PAIR = "search", "pair"


@dataclass(frozen=True)
class AdaptedTask:
    """Blocks ``first … first+blocks−1`` of a search matchup (``kind`` "search": ``decks`` the
    field, ``a``–``b`` the matchup) or of a pair (``kind`` "pair": ``decks`` the deck and its
    rival) under the patch ``moves``, played by ``agent`` (empty: the base's agent)."""

    kind: str
    moves: Candidate
    decks: tuple[DeckKey, ...]
    a: int
    b: int
    seed: int
    first: int
    blocks: int
    agent: str = ""

    @property
    def games(self) -> int:
        return self.blocks * BLOCK


@dataclass(frozen=True)
class AdaptedBase:
    """What every task of an adapted search shares: the unpatched cards, the agent, the rules."""

    cards: Mapping[str, CardDef]
    agent: str
    ruleset: Ruleset = STANDARD


class AdaptedEvaluator(Protocol):
    def evaluate(self, tasks: Sequence[AdaptedTask]) -> list[list[Any]]:
        """Per task, one result a block: a ``Tally`` (search) or an outcome string (pair)."""


def play_adapted_task(base: AdaptedBase, task: AdaptedTask) -> list[Any]:
    if task.kind == SEARCH:
        field = Field(cards=base.cards, decks=tuple(deck_list(k) for k in task.decks),
                      agent=base.agent, ruleset=base.ruleset)
        return list(play_task(field, EvalTask(task.moves, task.a, task.b, task.seed,
                                              task.first, task.blocks, task.agent)))
    patched = task_cards(Field(cards=base.cards, decks=()), task.moves)
    tune = TuneField(cards=patched, opponents=(), agent=base.agent, ruleset=base.ruleset)
    return list(play_pair_task(tune, PairTask(task.decks[0], task.decks[1], task.seed,
                                              task.first, task.blocks, task.agent)))


class LocalAdaptedEvaluator(PiecePool[AdaptedBase, AdaptedTask, Any]):
    """Plays adapted tasks in this process (``processes=1``) or a pool of processes."""

    def __init__(self, base: AdaptedBase, processes: int = 2, piece: int = 2):
        super().__init__(base, play_adapted_task, processes, piece)


class SearchSide:
    """A balance search's evaluator on the lists ``decks``: its tasks as adapted tasks."""

    def __init__(self, inner: AdaptedEvaluator, decks: Sequence[DeckKey]):
        self.inner, self.decks = inner, tuple(decks)

    def evaluate(self, tasks: Sequence[EvalTask]) -> list[list[Tally]]:
        return self.inner.evaluate([AdaptedTask(SEARCH, t.moves, self.decks, t.a, t.b, t.seed,
                                                t.first, t.blocks, t.agent) for t in tasks])


class PairSide:
    """A forecast's pair evaluator on the cards as ``moves`` patch them."""

    def __init__(self, inner: AdaptedEvaluator, moves: Candidate):
        self.inner, self.moves = inner, moves

    def evaluate(self, tasks: Sequence[PairTask]) -> list[list[str]]:
        return self.inner.evaluate([AdaptedTask(PAIR, self.moves, (t.deck, t.rival), 0, 1,
                                                t.seed, t.first, t.blocks, t.agent)
                                    for t in tasks])
