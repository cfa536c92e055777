"""What a balance search is asked (``Problem``) and what it carries while it runs (``_State``):
kept apart from the search's steps so that verification (``verify``) reads them without
importing the search that calls it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

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
DEFAULT_STRONG_BUDGET = 24_000
DEFAULT_STRONG_VERIFY = 600
DEFAULT_STRONG_SCREEN = 36_000   # games the further agents may screen moves with (all of them)

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
    # Per deck, cards it screens taking turns with its most-drawn (``space.key_cards``): what
    # an adapted list rides on, which a count of copies ranks too low to be searched at all.
    first_cards: tuple[tuple[str, ...], ...] = ()
    # ... and, ahead of both at each turn, what every forecast path's list of its archetype
    # brought in (``adapted.shared_cards``): the changes a patch's players make on any path.
    lead_cards: tuple[tuple[str, ...], ...] = ()
    objective: str = "band"                 # "band" or "meta" (``objective``)
    field_band: tuple[float, float] = DEFAULT_FIELD_BAND
    matchup_band: tuple[float, float] = DEFAULT_MATCHUP_BAND
    epsilon: float = DEFAULT_EPSILON
    min_share: float = DEFAULT_MIN_SHARE
    meta_resamples: int = 200               # resamples of a verified patch's pairs
    # Meta: further agents every target must also hold under (``strong``), the games they may
    # play while searching (all of them together) and re-verify with, a matchup, on fresh seeds.
    strong_agents: tuple[str, ...] = ()
    strong_budget_games: int = DEFAULT_STRONG_BUDGET
    strong_verify_games: int = DEFAULT_STRONG_VERIFY
    # ... the games they may screen single moves with (``strong.StrongCheck.screen``), and
    # whether a cheaper agent the ladder cannot tell apart may search for one (``stand_ins``).
    strong_screen_games: int = DEFAULT_STRONG_SCREEN
    stand_ins: bool = True
    # The patch the rounds start from (the first anchor) instead of the unpatched field: a
    # patch already live, which the search may extend, change or take moves back from.
    start: Candidate = ()
    # At most this many edits of ``start`` (``space.edits_between``; None: no cap): a shorter
    # step from the live patch, where the lists players re-tune answer each step of a patch.
    max_edits: int | None = None

    @property
    def goal(self) -> Goal:
        return Goal(self.objective, self.band, self.field_band, self.matchup_band,
                    self.epsilon, self.min_share)


class FurtherAgents(Protocol):
    """What the search asks of the further agents' check (``strong.StrongCheck``)."""

    @property
    def games(self) -> int: ...

    def out_of_budget(self) -> bool: ...

    def screen(self, played: Sequence[Move], touched: Mapping[Move, Sequence[tuple[int, int]]],
               cheap: Mapping[Move, Mapping[tuple[int, int], float]],
               cheap_blocks: int | None = None
               ) -> list[dict[Move, dict[tuple[int, int], float]]]: ...

    def offsets(self) -> list[list[float]]: ...

    def race(self, finalists: Sequence[Scored], anchor: Candidate, cheap_blocks: int,
             model: Any, round_number: int) -> Scored: ...


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
    strong: FurtherAgents | None = None   # when further agents check the patches
    # Candidates played under every agent: their combined scores (``result.combined``).
    combined: dict[Candidate, Scored] = field(default_factory=dict)

    def out_of_budget(self) -> bool:
        if self.memo.games >= self.problem.budget_games:
            return True
        if self.strong is not None and self.strong.out_of_budget():
            return True
        return self.out_of_time()

    def out_of_time(self) -> bool:
        return self.should_stop is not None and self.should_stop()

    def report(self, phase: str, **extra: Any) -> None:
        if self.progress is None:
            return
        best = self.best()
        strong = {"strong_games": self.strong.games} if self.strong is not None else {}
        self.progress({"phase": phase, "games": self.memo.games, "evaluations": self.evaluations,
                       "best": best.summary() if best else None, **strong, **extra})

    def best(self) -> Scored | None:
        scores = self.combined if self.combined else self.raced
        top = max((s.games for s in scores.values()), default=0)
        pool = [s for s in scores.values() if s.games == top]
        return min(pool, key=lambda s: s.rank) if pool else None

    def score(self, moves: Candidate, blocks: int) -> Scored:
        scored = scored_of(moves, self.memo.tallies(moves, blocks), self.problem.band,
                           self.problem.goal)
        known = self.raced.get(moves)
        if known is None or known.games <= scored.games:   # keep the most-played record
            self.raced[moves] = scored
        return scored
