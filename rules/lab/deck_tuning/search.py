"""Deck tuning: the legal swaps that raise a deck's win rate against a field.

1. **Baseline** — the unchanged deck against every opponent, on the search's seeds.
2. **Rounds** of local search: from the best deck so far (the anchor) the neighbours one swap
   away (``problem.neighbours``: legal, kept cards kept, a prior that keeps the deck's
   attributes and curve) are **raced** (successive halving) on the search's seeds — the same
   seeds for every candidate (common random numbers) — at 50, 100, 200 … games per opponent,
   keeping the better half at each rung, so clearly bad swaps stop early. The winner of the
   last rung becomes the next anchor when its paired improvement over the anchor is more than
   one standard error above zero; the rounds stop at ``max_swaps`` swaps, when no swap helps,
   or when the budget is spent.
3. **Re-verification** — the best few decks raced (highest field win rate at the last rung,
   better than the unchanged deck) and the unchanged deck are played again on **fresh seeds**,
   ``verify_games`` games per opponent; each suggestion's improvement is paired game by game
   with the unchanged deck (95 % interval on seat-swapped pairs, exact McNemar p). With two
   opponents or more, the opponents' own pairings are played too (``verify_games`` each, fresh
   seeds), so each suggestion says how it moves the deck's share of the field's Nash
   equilibrium and maximum-entropy ε-equilibrium (``result.field_meta``).

Invariant: the same problem, seed and game budget give the same search, swap for swap (every
evaluation uses the same seeds for every candidate; no clock decides anything unless a
``should_stop`` says so).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules.lab.deck_tuning.evaluate import (
    BLOCK,
    TuneEvaluator,
    TuneTask,
    opponent_seed,
    pairing_seed,
)
from rules.lab.deck_tuning.problem import (
    Candidate,
    DeckKey,
    TuningProblem,
    apply,
    base_key,
    check_problem,
    neighbours,
)
from rules.lab.deck_tuning.result import (
    Measured,
    Pairing,
    Suggestion,
    TuningResult,
    field_meta,
    measured_of,
    paired,
    share_change,
)
from rules.lab.intervals import paired_difference

RUNGS = (1, 2, 4, 8, 16)     # blocks per opponent at each rung (50 … 800 games)
ACCEPT_Z = 1.0               # a new anchor's paired improvement: this many SE above zero

Progress = Callable[[dict[str, Any]], None]


class Games:
    """Every block played, per (deck, opponent); ``ensure`` plays only what is missing."""

    def __init__(self, evaluator: TuneEvaluator, opponents: int, seed_of: Callable[[int], int],
                 on_games: Callable[[int], None] | None = None):
        self.evaluator = evaluator
        self.opponents = list(range(opponents))
        self.seeds = [seed_of(o) for o in self.opponents]
        self.blocks: dict[tuple[DeckKey, int], list[str]] = {}
        self.games = 0
        self.on_games = on_games

    def ensure(self, decks: Iterable[DeckKey], blocks: int) -> int:
        tasks: dict[tuple[DeckKey, int], TuneTask] = {}
        for deck in decks:
            for o in self.opponents:
                have = len(self.blocks.get((deck, o), ()))
                if have < blocks and (deck, o) not in tasks:
                    tasks[(deck, o)] = TuneTask(deck, o, self.seeds[o], have, blocks - have)
        if not tasks:
            return 0
        results = self.evaluator.evaluate(list(tasks.values()))
        played = 0
        for (deck, o), outcomes in zip(tasks, results, strict=True):
            self.blocks.setdefault((deck, o), []).extend(outcomes)
            played += len(outcomes) * BLOCK
        self.games += played
        if self.on_games is not None:
            self.on_games(played)
        return played

    def outcomes(self, deck: DeckKey, blocks: int) -> list[str]:
        """Per opponent, the deck's first ``blocks`` blocks as one outcome string."""
        return ["".join(self.blocks[(deck, o)][:blocks]) for o in self.opponents]


@dataclass
class _State:
    problem: TuningProblem
    games: Games
    base: DeckKey
    progress: Progress | None
    should_stop: Callable[[], bool] | None
    raced: dict[DeckKey, Measured]
    candidates: dict[DeckKey, Candidate]
    evaluations: int = 0
    rounds: int = 0

    def out_of_budget(self) -> bool:
        if self.games.games >= self.problem.budget_games:
            return True
        return self.should_stop is not None and self.should_stop()

    def measure(self, deck: DeckKey, blocks: int) -> Measured:
        return measured_of(self.candidates[deck], self.games.outcomes(deck, blocks),
                           self.problem.field.shares())

    def best(self) -> Measured | None:
        return max(self.raced.values(), key=_order, default=None)

    def report(self, phase: str, **extra: Any) -> None:
        if self.progress is None:
            return
        best = self.best()
        baseline = self.raced.get(self.base)
        summary = None
        if best is not None and baseline is not None:
            summary = {**best.summary(), "baseline_rate": round(baseline.rate, 4),
                       "change": round(best.rate - baseline.rate, 4)}
        self.progress({"phase": phase, "games": self.games.games,
                       "evaluations": self.evaluations, "rounds": self.rounds,
                       "best": summary, **extra})


def _order(m: Measured) -> tuple[float, int, int, tuple[tuple[str, str, int], ...]]:
    """Higher field rate first, then fewer swaps and fewer copies moved; then a fixed order."""
    return (m.rate, -len(m.swaps), -sum(s.copies for s in m.swaps),
            tuple((s.out, s.into, s.copies) for s in m.swaps))


def round_cost(opponents: int, proposals: int, top: int) -> int:
    """Games one racing round plays at most: every proposal at the first rung, half of them at
    each further rung, and the anchor."""
    rungs = [r for r in RUNGS if r <= top]
    blocks = proposals * rungs[0]
    alive = proposals
    for low, high in zip(rungs, rungs[1:], strict=False):
        alive = max(2, alive // 2)
        blocks += alive * (high - low)
    return opponents * BLOCK * (blocks + top)


def affordable_top(opponents: int, proposals: int, swaps: int, budget: int) -> int:
    """The deepest racing rung that lets ``swaps`` rounds fit in ``budget`` games."""
    top = RUNGS[0]
    for candidate in RUNGS:
        if round_cost(opponents, proposals, candidate) * max(1, swaps) <= budget:
            top = candidate
    return top


def scaled(problem: TuningProblem) -> TuningProblem:
    """The racing rungs the budget affords: as deep as lets ``max_swaps`` rounds fit."""
    if problem.rungs:
        return problem
    top = affordable_top(len(problem.field.opponents), problem.proposals, problem.max_swaps,
                         problem.budget_games)
    return replace(problem, rungs=tuple(r for r in RUNGS if r <= top))


def tune_deck(problem: TuningProblem, evaluator: TuneEvaluator, *,
              progress: Progress | None = None,
              should_stop: Callable[[], bool] | None = None) -> TuningResult:
    """Search, then re-verify the best suggestions on fresh seeds (see the module docstring)."""
    check_problem(problem)
    problem = scaled(problem)
    rungs = problem.rungs or RUNGS[:1]
    top = rungs[-1]
    seed = problem.seed
    games = Games(evaluator, len(problem.field.opponents), lambda o: opponent_seed(seed, o))
    base = base_key(problem.deck)
    state = _State(problem, games, base, progress, should_stop, {}, {base: ()})
    games.ensure([base], top)
    state.raced[base] = state.measure(base, top)
    state.report("baseline")
    anchor = state.raced[base]
    for number in range(1, problem.max_swaps + 1):
        if number > 1 and state.out_of_budget():
            break
        winner = _round(state, anchor, number, rungs)
        state.rounds = number
        if winner is None or not _better(winner, anchor):
            break
        anchor = winner
    search_games = games.games
    suggestions, verify_games, baseline, field = _verify(state, evaluator)
    state.report("done", suggestions=len(suggestions))
    searched = sorted(state.raced.values(), key=_order, reverse=True)
    return TuningResult(deck=problem.deck, baseline=baseline, suggestions=suggestions,
                        searched=searched, search_baseline=state.raced[base],
                        games_searched=search_games, games_verified=verify_games,
                        evaluations=state.evaluations, rounds=state.rounds,
                        games_each=top * BLOCK, field=field)


def _round(state: _State, anchor: Measured, number: int, rungs: Sequence[int]
           ) -> Measured | None:
    """Race the anchor's neighbours; the last rung's winner, or None (nothing to race, or the
    budget ran out before the last rung)."""
    problem, base = state.problem, state.base
    proposals = neighbours(problem, base, anchor.swaps, exclude=frozenset(state.candidates))
    if not proposals:
        return None
    anchor_key = apply(base, anchor.swaps)
    for candidate in proposals:
        state.candidates[apply(base, candidate)] = candidate
    alive = [anchor_key] + [apply(base, c) for c in proposals]
    state.evaluations += len(proposals)
    for rung in rungs:
        state.games.ensure(alive, rung)
        scored = sorted((state.measure(deck, rung) for deck in alive), key=_order, reverse=True)
        state.report("racing", round=number, rung_games=rung * BLOCK, candidates=len(alive))
        if rung == rungs[-1]:
            for m in scored:
                state.raced[apply(base, m.swaps)] = m
            return scored[0]
        if number > 1 and state.out_of_budget():
            return None
        keep = [apply(base, m.swaps) for m in scored[:max(2, len(scored) // 2)]]
        alive = keep + ([anchor_key] if anchor_key not in keep else [])   # the yardstick
    raise AssertionError("unreachable")


def _better(winner: Measured, anchor: Measured) -> bool:
    if winner.swaps == anchor.swaps:
        return False
    figure = paired_difference(paired(anchor.outcomes, winner.outcomes, anchor.shares)[0],
                               z=ACCEPT_Z)
    return figure["change"] is not None and figure["low"] > 0


def _pairings(problem: TuningProblem, evaluator: TuneEvaluator, blocks: int
              ) -> tuple[dict[Pairing, str], int]:
    """The opponents' own pairings on fresh seeds (none with a single opponent, nor when the
    problem asks for none: the forecast reads the field's meta itself)."""
    opponents = problem.field.opponents if problem.field_pairings else ()
    pairs = [(i, j) for i in range(len(opponents)) for j in range(i + 1, len(opponents))]
    tasks = [TuneTask(base_key(opponents[i]), j, pairing_seed(problem.seed, i, j), 0, blocks)
             for i, j in pairs]
    if not tasks:
        return {}, 0
    results = evaluator.evaluate(tasks)
    return ({pair: "".join(out) for pair, out in zip(pairs, results, strict=True)},
            len(tasks) * blocks * BLOCK)


def _verify(state: _State, evaluator: TuneEvaluator
            ) -> tuple[list[Suggestion], int, Measured, Any]:
    """The best decks raced (better than the unchanged deck on the search's seeds) and the
    unchanged deck, again on fresh seeds; each paired with the unchanged deck, and each with
    its move of the deck's equilibrium shares (the opponents' pairings played once)."""
    problem, base = state.problem, state.base
    baseline_rate = state.raced[base].rate
    chosen = [m for m in sorted(state.raced.values(), key=_order, reverse=True)
              if m.swaps and m.rate > baseline_rate][:problem.suggestions]
    blocks = max(1, -(-problem.verify_games // BLOCK))
    seed = problem.seed if problem.verify_seed is None else problem.verify_seed
    fresh = Games(evaluator, len(problem.field.opponents),
                  lambda o: opponent_seed(seed, o, fresh=1))
    keys = [base] + [apply(base, m.swaps) for m in chosen]
    state.report("verifying", candidates=len(keys), games_each=blocks * BLOCK)
    fresh.ensure(keys, blocks)
    pairings, pairing_games = _pairings(problem, evaluator, blocks)
    shares = problem.field.shares()
    before = measured_of((), fresh.outcomes(base, blocks), shares)
    field = field_meta(before.outcomes, pairings, epsilon=problem.epsilon,
                       resamples=problem.meta_resamples)
    suggestions = []
    for m, key in zip(chosen, keys[1:], strict=True):
        after = measured_of(m.swaps, fresh.outcomes(key, blocks), shares)
        moved = share_change(field, field_meta(after.outcomes, pairings,
                                               epsilon=problem.epsilon))
        suggestions.append(Suggestion(swaps=m.swaps, deck=key, search=m, verified=after,
                                      baseline=before, shares=moved))
    suggestions.sort(key=lambda s: (-s.improvement["change"], len(s.swaps)))
    return suggestions, fresh.games + pairing_games, before, field
