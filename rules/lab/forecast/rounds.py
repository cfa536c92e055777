"""The meta after players adapt: rounds of re-tuning until no archetype gains.

1. **Patch day** (round 0): the printed lists play every matchup, ``round_games`` games each,
   on seeds that stay the same in every round (common random numbers: a matchup moves from one
   round to the next by its lists, not its dice); every archetype has the same share.
2. **Rounds**: every archetype re-tunes its current list (``rules.lab.deck_tuning``) against
   the other archetypes' current lists, the field weighted by the current meta's shares — all
   at once, against the lists of the round's start. It keeps its hero; no list differs from its
   printed list in more than ``max_changes`` cards. A list adopts its tuning's best suggestion
   when the suggestion's improvement, verified on fresh seeds and paired game by game with the
   current list, exceeds ``settle`` and its 95 % interval lies above zero. The new lists play
   the round's matchups and the meta moves (``dynamics.meta_step``).
3. The rounds stop when no archetype adopts (**settled**), when the games spent reach
   ``budget_games`` (**budget**), or after ``max_rounds`` (**rounds**).
4. **The settled field** plays every matchup again on fresh seeds, ``final_games`` each: its
   matchups and field win rates with intervals, the Nash and ε-equilibrium with resampling.
5. **Exploitability**: each archetype's settled list is tuned once more — ``exploit_swaps``
   swaps, no cap on its distance from the printed list — against every settled list (its own
   included) weighted by the settled meta; the best verified field win rate is how far one more
   tuning exploits the settled mix.

Invariant: the same problem and seed give the same forecast (every seed is derived from the
problem's; no clock decides anything unless a ``should_stop`` says so).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.lab.deck_tuning import BLOCK, TuneField, TuningProblem, TuningResult, tune_deck
from rules.lab.deck_tuning.problem import DeckKey, base_key, deck_list
from rules.lab.forecast.dynamics import meta_step, patch_day
from rules.lab.forecast.play import FieldEvaluator, PairEvaluator, PairTask, matchup_seed
from rules.lab.forecast.problem import ForecastProblem
from rules.lab.forecast.result import (
    ArchetypeTuning,
    Exploit,
    ForecastResult,
    Pairing,
    Round,
    meta_field,
)
from rules.lab.meta import meta_report

Progress = Callable[[dict[str, Any]], None]


def _tune_seed(seed: int, *parts: object) -> int:
    return random.Random("/".join(map(str, ("forecast-tune", seed, *parts)))).getrandbits(31)


class Matchups:
    """Every block played between two lists on a seed; ``measure`` plays only what is new."""

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


@dataclass
class _Run:
    problem: ForecastProblem
    pairs: PairEvaluator
    matchups: Matchups
    progress: Progress | None
    should_stop: Callable[[], bool] | None
    tuning_games: int = 0
    rounds: list[Round] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.matchups.games + self.tuning_games

    def out_of_budget(self) -> bool:
        if self.games >= self.problem.budget_games:
            return True
        return self.should_stop is not None and self.should_stop()

    def report(self, phase: str, **extra: Any) -> None:
        if self.progress is not None:
            self.progress({"phase": phase, "games": self.games,
                           "budget": self.problem.budget_games,
                           "rounds": len(self.rounds) - 1, **extra})

    def tune(self, problem: TuningProblem, opponents: Sequence[DeckKey]
             ) -> tuple[TuningResult, int]:
        evaluator = FieldEvaluator(self.pairs, opponents)
        result = tune_deck(problem, evaluator, should_stop=self.should_stop)
        self.tuning_games += evaluator.games
        return result, evaluator.games


def forecast(problem: ForecastProblem, pairs: PairEvaluator, *,
             progress: Progress | None = None,
             should_stop: Callable[[], bool] | None = None) -> ForecastResult:
    """Rounds of adaptation, the settled field and its exploitability (the module docstring)."""
    problem.check()
    names = tuple(d.name for d in problem.archetypes)
    printed = tuple(base_key(d) for d in problem.archetypes)
    run = _Run(problem, pairs, Matchups(pairs, problem.seed), progress, should_stop)
    outcomes = run.matchups.measure(printed, problem.round_games)
    shares = patch_day(len(printed))
    run.rounds.append(Round(0, printed, shares, shares, outcomes, (None,) * len(printed)))
    run.report("patch_day")
    stopped = "rounds"
    for number in range(1, problem.max_rounds + 1):
        if run.out_of_budget():
            stopped = "budget"
            break
        lists, tunings = _adapt(run, number, names, printed)
        if not any(t is not None and t.adopted for t in tunings):
            run.rounds.append(Round(number, lists, run.rounds[-1].shares,
                                    run.rounds[-1].answer, run.rounds[-1].outcomes, tunings))
            stopped = "settled"
            break
        outcomes = run.matchups.measure(lists, problem.round_games)
        field_ = meta_field(names, outcomes)
        shares, answer = meta_step(run.rounds[-1].shares, field_.score_matrix(), number,
                                   epsilon=problem.epsilon)
        run.rounds.append(Round(number, lists, shares, tuple(float(a) for a in answer),
                                outcomes, tunings))
        run.report("round", round=number, shares=[round(s, 4) for s in shares])
    round_and_tune = run.games
    settled = run.rounds[-1]
    run.report("final")
    final = run.matchups.measure(settled.lists, problem.final_games, fresh=1)
    meta = meta_report(meta_field(names, final), epsilon=problem.epsilon,
                       seed=problem.seed)
    further: dict[str, dict[Pairing, str]] = {}
    for number, agent in enumerate(problem.further_agents, 2):   # fresh seeds of their own
        run.report("final", agent=agent)
        further[agent] = run.matchups.measure(settled.lists, problem.final_games,
                                              fresh=number, agent=agent)
    final_games = run.games - round_and_tune
    exploits = _exploit(run, settled, names)
    run.report("done")
    return ForecastResult(
        names=names, printed=printed, rounds=tuple(run.rounds), final=final, meta=meta,
        exploits=exploits, stopped=stopped, further=further, band=problem.band,
        games={"rounds": run.matchups.games - final_games, "tuning": run.tuning_games,
               "final": final_games, "total": run.games},
        agent=problem.agent, final_games=max(1, -(-problem.final_games // BLOCK)) * BLOCK)


def _field(problem: ForecastProblem, opponents: Sequence[DeckKey],
           weights: Sequence[float]) -> TuneField:
    total = sum(weights)
    return TuneField(cards=problem.cards, opponents=tuple(deck_list(k) for k in opponents),
                     agent=problem.agent, ruleset=problem.ruleset,
                     weights=tuple(weights) if total > 1e-9 else None)


def _adapt(run: _Run, number: int, names: Sequence[str], printed: Sequence[DeckKey]
           ) -> tuple[tuple[DeckKey, ...], tuple[ArchetypeTuning | None, ...]]:
    """Every archetype's tuning against the round's start; the lists after it."""
    problem, start = run.problem, run.rounds[-1]
    lists = list(start.lists)
    tunings: list[ArchetypeTuning | None] = []
    for i, name in enumerate(names):
        if run.out_of_budget():
            tunings.append(None)
            continue
        others = [j for j in range(len(names)) if j != i]
        opponents = [start.lists[j] for j in others]
        tuning = TuningProblem(
            field=_field(problem, opponents, [start.shares[j] for j in others]),
            deck=deck_list(start.lists[i], name), fmt=problem.fmt, set_of=problem.set_of,
            pool=problem.pool, max_swaps=problem.swaps_per_round,
            seed=_tune_seed(problem.seed, number, i), budget_games=problem.tune_games,
            verify_games=problem.verify_games, suggestions=2, meta_resamples=0,
            origin=printed[i], max_changes=problem.max_changes, field_pairings=False)
        run.report("tuning", round=number, archetype=name)
        result, games = run.tune(tuning, opponents)
        best = result.suggestions[0] if result.suggestions else None
        adopted = (best is not None and best.improvement["change"] > problem.settle
                   and best.verdict == "confirmed")
        if adopted and best is not None:
            lists[i] = best.deck
        tunings.append(ArchetypeTuning(best, adopted, games))
    return tuple(lists), tuple(tunings)


def _exploit(run: _Run, settled: Round, names: Sequence[str]) -> tuple[Exploit, ...]:
    """One more tuning of each settled list against the settled mix (its own list included)."""
    problem = run.problem
    out = []
    for i, name in enumerate(names):
        run.report("exploit", archetype=name)
        tuning = TuningProblem(
            field=_field(problem, settled.lists, settled.shares),
            deck=deck_list(settled.lists[i], name), fmt=problem.fmt, set_of=problem.set_of,
            pool=problem.pool, max_swaps=problem.exploit_swaps,
            seed=_tune_seed(problem.seed, "exploit", i), budget_games=problem.tune_games,
            verify_games=problem.verify_games, suggestions=2, meta_resamples=0,
            field_pairings=False)
        result, _ = run.tune(tuning, settled.lists)
        out.append(Exploit(i, result))
    return tuple(out)
