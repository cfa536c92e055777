"""What a balance search is asked (``Problem``) and what it carries while it runs (``_State``):
kept apart from the search's steps so that verification (``verify``) reads them without
importing the search that calls it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.lab.balance_search.evaluate import Field
from rules.lab.balance_search.memo import Evaluations
from rules.lab.balance_search.objective import (
    DEFAULT_EPSILON,
    DEFAULT_FIELD_BAND,
    DEFAULT_MATCHUP_BAND,
    DEFAULT_MIN_SHARE,
    Goal,
)
from rules.lab.balance_search.result import Scored, scored_of
from rules.lab.balance_search.space import Candidate, Move, SearchSpace

PROPOSALS = 12

Progress = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class Problem:
    field: Field
    space: SearchSpace
    band: tuple[float, float] = (0.45, 0.55)
    max_changes: int = 6
    seed: int = 1
    budget_games: int = 600_000
    verify_games: int = 2_000
    rounds: int = 12
    rungs: tuple[int, ...] | None = None    # racing rungs in blocks (None: by the budget)
    base_blocks: int | None = None          # blocks a matchup for the baseline (likewise)
    proposals: int = PROPOSALS
    screen_cards: int = 8                   # per deck, besides its hero (0: every card)
    objective: str = "band"                 # "band" or "meta" (``objective``)
    field_band: tuple[float, float] = DEFAULT_FIELD_BAND
    matchup_band: tuple[float, float] = DEFAULT_MATCHUP_BAND
    epsilon: float = DEFAULT_EPSILON
    min_share: float = DEFAULT_MIN_SHARE
    meta_resamples: int = 200               # resamples of a verified patch's pairs

    @property
    def goal(self) -> Goal:
        return Goal(self.objective, self.band, self.field_band, self.matchup_band,
                    self.epsilon, self.min_share)


@dataclass
class _State:
    problem: Problem
    memo: Evaluations
    moves: list[Move]
    progress: Progress | None
    should_stop: Callable[[], bool] | None
    raced: dict[Candidate, Scored] = field(default_factory=dict)
    evaluations: int = 0
    screened: int = 0

    def out_of_budget(self) -> bool:
        if self.memo.games >= self.problem.budget_games:
            return True
        return self.out_of_time()

    def out_of_time(self) -> bool:
        return self.should_stop is not None and self.should_stop()

    def report(self, phase: str, **extra: Any) -> None:
        if self.progress is None:
            return
        best = self.best()
        self.progress({"phase": phase, "games": self.memo.games, "evaluations": self.evaluations,
                       "best": best.summary() if best else None, **extra})

    def best(self) -> Scored | None:
        top = max((s.games for s in self.raced.values()), default=0)
        pool = [s for s in self.raced.values() if s.games == top]
        return min(pool, key=lambda s: s.rank) if pool else None

    def score(self, moves: Candidate, blocks: int) -> Scored:
        scored = scored_of(moves, self.memo.tallies(moves, blocks), self.problem.band,
                           self.problem.goal)
        known = self.raced.get(moves)
        if known is None or known.games <= scored.games:   # keep the most-played record
            self.raced[moves] = scored
        return scored
