"""The meta after players adapt: rounds of re-tuning until no archetype gains.

1. **Patch day** (round 0): the printed lists play every matchup, ``round_games`` games each,
   on seeds that stay the same in every round (common random numbers: a matchup moves from one
   round to the next by its lists, not its dice); every archetype has the same share.
2. **Rounds**: every archetype re-tunes its current list (``rules.lab.deck_tuning``) against
   the other archetypes' current lists, the field weighted by the current meta's shares — all
   at once, against the lists of the round's start. Each round (and each check) it proposes
   other incoming cards (``_proposal_seed``) on the racing seeds it raced on before, so the
   rounds explore the pool rather than race one seed's few proposals again. It keeps its
   hero; no list differs from its printed list in more than ``max_changes`` cards. A list
   adopts its tuning's best suggestion
   when the suggestion's improvement, verified on fresh seeds and paired game by game with the
   current list, exceeds ``settle`` and its 95 % interval lies above zero. The new lists play
   the round's matchups and the meta moves (``dynamics.meta_step``).
3. When no archetype adopts, the next round is **the check**: the exploitability's tuning
   (step 5) of every list against the mix the rounds settled on. A round's search is narrow
   (``swaps_per_round`` swaps raced on its own seeds) and can miss what a wider one finds;
   so a list adopts the check's best verified suggestion under the same rule as a round's,
   if it stays within ``max_changes`` of print, and the rounds go on — the next one a check
   again: the lists the check left alone are those the narrow search just found nothing for,
   on the seeds it would race again. The rounds stop when a check adopts nothing (**settled**:
   its tunings are the exploitability), when the games spent reach ``budget_games``
   (**budget**), or after ``max_rounds`` (**rounds**).
4. **The settled field** plays every matchup again on fresh seeds, ``final_games`` each: its
   matchups and field win rates with intervals, the Nash and ε-equilibrium with resampling.
5. **Exploitability**: each archetype's settled list is tuned once more — ``exploit_swaps``
   swaps, no cap on its distance from the printed list — against every settled list (its own
   included) weighted by the settled meta; the best verified field win rate is how far one more
   tuning exploits the settled mix. A forecast that settled has played it already (its last
   check); one stopped by the budget or the rounds plays it after the settled field.

Games are played once (``reuse.ReusingPairs``): a tuning races each opponent on seeds that stay
the same from round to round, so an archetype re-reads the racing games of the lists that did
not change since the last round; the fresh games that verify a change are new every round, so a
round's adoption is never judged on the games that chose the list it starts from. Each round's
matchups are played on the same seeds too, so an unchanged matchup is read, not played.

Invariant: the same problem and seed give the same forecast (every seed is derived from the
problem's; no clock decides anything unless a ``should_stop`` says so).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.lab.deck_tuning import BLOCK, TuneField, TuningProblem, TuningResult, tune_deck
from rules.lab.deck_tuning.problem import DeckKey, base_key, changes, deck_list
from rules.lab.forecast.dynamics import meta_step, patch_day
from rules.lab.forecast.estimate import expected_games
from rules.lab.forecast.play import FieldEvaluator, Matchups, PairEvaluator
from rules.lab.forecast.problem import ForecastProblem
from rules.lab.forecast.result import (
    EXAMPLES,
    ArchetypeTuning,
    Exploit,
    ForecastResult,
    Pairing,
    Round,
    meta_field,
)
from rules.lab.forecast.reuse import ReusingPairs, engine_error
from rules.lab.meta import meta_report

Progress = Callable[[dict[str, Any]], None]


def _tune_seed(seed: int, *parts: object) -> int:
    return random.Random("/".join(map(str, ("forecast-tune", seed, *parts)))).getrandbits(31)


def _search_seed(seed: int, archetype: int) -> int:
    """An archetype's racing seeds: the same in every round (its unchanged games re-read)."""
    return _tune_seed(seed, "search", archetype)


def _verify_seed(seed: int, round_: int, archetype: int) -> int:
    """An archetype's fresh games in round ``round_``: new every round."""
    return _tune_seed(seed, round_, archetype)


def _proposal_seed(seed: int, round_: int, archetype: int) -> int:
    """The cards an archetype's tuning proposes in round ``round_``: others every round. A
    tuning races 32 swaps of the thousands legal, about one incoming card for each card of the
    list; proposed alike every round (the racing seed's tie-break), a path's lists could only
    ever reach the few cards its seed drew, and two seeds' lists shared 12 of the 52–54 copies
    each brought in (docs/balance-search.md)."""
    return _tune_seed(seed, "proposals", round_, archetype)


def _check_verify_seed(seed: int, round_: int, archetype: int) -> int:
    """The check's fresh games in round ``round_``: new every check, apart from the rounds'."""
    return _tune_seed(seed, "exploit-verify", round_, archetype)


@dataclass
class _Run:
    problem: ForecastProblem
    pairs: ReusingPairs
    matchups: Matchups
    progress: Progress | None
    should_stop: Callable[[], bool] | None
    rounds: list[Round] = field(default_factory=list)
    round_costs: list[int] = field(default_factory=list)     # games each round played
    round_end: int = 0                                       # games when the last round ended
    spent_rounds: int = 0                                    # games before the settled field
    exploit_costs: list[int] = field(default_factory=list)
    after_started: bool = False
    check_due: bool = False                                  # the next round is a check
    exploits: tuple[Exploit, ...] | None = None              # the check that settled it

    @property
    def games(self) -> int:
        return self.pairs.played

    @property
    def tuning_games(self) -> int:
        return self.pairs.played - self.matchups.games

    def out_of_budget(self) -> bool:
        if self.games >= self.problem.budget_games:
            return True
        return self.should_stop is not None and self.should_stop()

    def expected(self) -> int:
        last = self.rounds[-1] if len(self.rounds) > 1 else None
        changed = [bool(t and t.adopted) for t in last.tunings] if last else []
        each = (sum(self.exploit_costs) // len(self.exploit_costs)
                if self.exploit_costs else None)
        return expected_games(
            self.problem, games=self.games, rounds_played=len(self.round_costs),
            last_round=self.round_costs[-1] if self.round_costs else 0, changed=changed,
            spent_rounds=self.spent_rounds if self.after_started else self.round_end,
            exploit_each=each, after_started=self.after_started, check_due=self.check_due,
            exploit_done=self.exploits is not None)

    def report(self, phase: str, **extra: Any) -> None:
        self.pairs.phase = phase
        if self.progress is not None:
            self.progress({"phase": phase, "games": self.games,
                           "budget": self.problem.budget_games, "expected": self.expected(),
                           "rounds": len(self.rounds) - 1, **extra})

    def tune(self, problem: TuningProblem, opponents: Sequence[DeckKey]
             ) -> tuple[TuningResult, int, int]:
        """The tuning, the games it played and the games it re-read."""
        played, reused = self.pairs.played, self.pairs.reused
        result = tune_deck(problem, FieldEvaluator(self.pairs, opponents),
                           should_stop=self.should_stop)
        return result, self.pairs.played - played, self.pairs.reused - reused


def forecast(problem: ForecastProblem, pairs: PairEvaluator, *,
             progress: Progress | None = None,
             should_stop: Callable[[], bool] | None = None) -> ForecastResult:
    """Rounds of adaptation, the settled field and its exploitability (the module docstring)."""
    problem.check()
    names = tuple(d.name for d in problem.archetypes)
    printed = tuple(base_key(d) for d in problem.archetypes)
    reusing = ReusingPairs(pairs)
    run = _Run(problem, reusing, Matchups(reusing, problem.seed), progress, should_stop)
    stopped = _rounds(run, names, printed)
    run.spent_rounds, run.after_started = run.games, True
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
    final_games = run.games - run.spent_rounds
    exploits = run.exploits if run.exploits is not None else \
        _exploit(run, settled, names) if problem.exploitability else ()
    run.report("done")
    return ForecastResult(
        names=names, printed=printed, rounds=tuple(run.rounds), final=final, meta=meta,
        exploits=exploits, stopped=stopped, further=further, band=problem.band,
        games={"rounds": run.matchups.games - final_games, "tuning": run.tuning_games,
               "final": final_games, "total": run.games},
        agent=problem.agent, final_games=max(1, -(-problem.final_games // BLOCK)) * BLOCK,
        reused_games=reusing.reused, left_out=tuple(reusing.left_out),
        errors={n: engine_error(problem.cards, problem.ruleset, problem.agent, game) or ""
                for n, game in enumerate(reusing.left_out[:EXAMPLES])})


def _rounds(run: _Run, names: Sequence[str], printed: tuple[DeckKey, ...]) -> str:
    """Patch day, then rounds until nobody adopts; why they stopped."""
    problem = run.problem
    run.pairs.phase = "patch_day"
    outcomes = run.matchups.measure(printed, problem.round_games)
    shares = patch_day(len(printed))
    run.rounds.append(Round(0, printed, shares, shares, outcomes, (None,) * len(printed)))
    run.round_end = run.games
    run.report("patch_day")
    for number in range(1, problem.max_rounds + 1):
        if run.out_of_budget():
            return "budget"
        before, check = run.games, run.check_due
        if check:
            lists, tunings, exploits = _check(run, number, names, printed)
        else:
            lists, tunings = _adapt(run, number, names, printed)
        last = run.rounds[-1]
        if not any(t is not None and t.adopted for t in tunings):
            run.rounds.append(Round(number, lists, last.shares, last.answer, last.outcomes,
                                    tunings, check=check))
            run.round_costs.append(run.games - before)
            run.round_end = run.games
            if None in tunings:             # the budget ran out before every list was tuned
                return "budget"
            if check:
                run.exploits, run.check_due = exploits, False
                return "settled"
            run.check_due = True
            continue
        # A check that adopted is followed by another check, not by an ordinary round: the
        # ordinary round races on the seeds it raced on before, and on the starter field
        # (greedy; the adapted target run's patch 1, seed 1) each of the four after an
        # adopting check re-found its earlier "nothing" — 18 % of that forecast's games.
        run.check_due = check
        run.pairs.phase = "round"
        outcomes = run.matchups.measure(lists, problem.round_games)
        shares, answer = meta_step(last.shares, meta_field(names, outcomes).score_matrix(),
                                   number, epsilon=problem.epsilon)
        run.rounds.append(Round(number, lists, shares, tuple(float(a) for a in answer),
                                outcomes, tunings, check=check))
        run.round_costs.append(run.games - before)
        run.round_end = run.games
        run.report("round", round=number, shares=[round(s, 4) for s in shares])
    return "rounds"


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
            seed=_search_seed(problem.seed, i), verify_seed=_verify_seed(problem.seed, number, i),
            proposal_seed=_proposal_seed(problem.seed, number, i),
            budget_games=problem.tune_games, verify_games=problem.verify_games, suggestions=1,
            meta_resamples=0, origin=printed[i], max_changes=problem.max_changes,
            field_pairings=False)
        run.report("tuning", round=number, archetype=name)
        result, games, reused = run.tune(tuning, opponents)
        best = result.suggestions[0] if result.suggestions else None
        adopted = (best is not None and best.improvement["change"] > problem.settle
                   and best.verdict == "confirmed")
        if adopted and best is not None:
            lists[i] = best.deck
        tunings.append(ArchetypeTuning(best, adopted, games, reused))
    return tuple(lists), tuple(tunings)


def _exploit_problem(problem: ForecastProblem, settled: Round, i: int, name: str, *,
                     verify_seed: int | None = None, proposal_seed: int | None = None
                     ) -> TuningProblem:
    """One more tuning of archetype ``i``'s list against the mix ``settled`` (its own list
    included): ``exploit_swaps`` swaps, no cap on its distance from print."""
    return TuningProblem(
        field=_field(problem, settled.lists, settled.shares),
        deck=deck_list(settled.lists[i], name), fmt=problem.fmt, set_of=problem.set_of,
        pool=problem.pool, max_swaps=problem.exploit_swaps,
        seed=_tune_seed(problem.seed, "exploit", i), verify_seed=verify_seed,
        proposal_seed=proposal_seed,
        budget_games=problem.tune_games, verify_games=problem.verify_games, suggestions=2,
        meta_resamples=0, field_pairings=False)


def _exploit(run: _Run, settled: Round, names: Sequence[str]) -> tuple[Exploit, ...]:
    """One more tuning of each settled list against the settled mix (its own list included)."""
    out = []
    for i, name in enumerate(names):
        run.report("exploit", archetype=name)
        result, games, _ = run.tune(_exploit_problem(run.problem, settled, i, name),
                                    settled.lists)
        run.exploit_costs.append(games)
        out.append(Exploit(i, result))
    return tuple(out)


def _check(run: _Run, number: int, names: Sequence[str], printed: Sequence[DeckKey]
           ) -> tuple[tuple[DeckKey, ...], tuple[ArchetypeTuning | None, ...],
                      tuple[Exploit, ...]]:
    """The check after a round in which nobody adopted: the exploitability's tuning of every
    list; a list adopts the best suggestion that a round would adopt and that stays within
    ``max_changes`` of print. The tunings are the exploitability if nobody adopts."""
    problem, settled = run.problem, run.rounds[-1]
    lists = list(settled.lists)
    tunings: list[ArchetypeTuning | None] = []
    exploits = []
    for i, name in enumerate(names):
        if run.out_of_budget():
            tunings.append(None)
            continue
        run.report("check", round=number, archetype=name)
        tuning = _exploit_problem(problem, settled, i, name,
                                  verify_seed=_check_verify_seed(problem.seed, number, i),
                                  proposal_seed=_proposal_seed(problem.seed, number, i))
        result, games, reused = run.tune(tuning, settled.lists)
        run.exploit_costs.append(games)
        exploits.append(Exploit(i, result))
        chosen = next((s for s in result.suggestions
                       if s.improvement["change"] > problem.settle
                       and s.verdict == "confirmed"
                       and changes(printed[i], s.deck) <= problem.max_changes), None)
        if chosen is not None:
            lists[i] = chosen.deck
        best = chosen or (result.suggestions[0] if result.suggestions else None)
        tunings.append(ArchetypeTuning(best, chosen is not None, games, reused))
    return tuple(lists), tuple(tunings), tuple(exploits)
