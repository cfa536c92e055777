"""The adapted objective: a patch judged on the meta after players re-tune, not on printed lists.

A fixed-point iteration between the balance search and the meta forecast:

0. **Forecast** the unpatched pool (``rules.lab.forecast``), or the live patch ``P₀`` where
   ``search.start`` holds one: the lists players adapt to, ``L₀``.
1. **Search** a patch ``Pₖ`` with the meta objective on the adapted lists ``Lₖ₋₁`` (the search
   as ``search`` does it, its field the adapted lists, its moves on their cards), starting from
   ``Pₖ₋₁``, the patch those lists adapted to: the search's first anchor is the adapted meta
   as it was judged, and its rounds add moves to that patch, change them or take them back —
   a designer's next patch on top of the live one, not a new one from the printed cards.
   Each list screens what it rides on (``ridden_cards``: the patch's cards it plays, then the
   cards it brought in), taking turns with its most-drawn cards, and ahead of both at each
   turn what every path's list of its archetype brought in (``shared_cards``).
   With ``answer_check`` k > 1 the search's k best patches are first priced against one
   round of the lists' answer (``answer``), and the one that holds best is ``Pₖ``.
2. **Re-forecast** with ``Pₖ`` from the *printed* lists: players re-tune against the patch,
   giving ``Lₖ`` and ``Pₖ``'s adapted meta (settled field on fresh seeds, equilibria,
   exploitability), and its printed-list meta (the forecast's patch day).
3. ``Pₖ`` **meets** when its adapted meta does (``adapted_result.judge``: Riot's rule on the
   field win rates across agents, the matchup band, the ε-share, the exploitability);
   otherwise the next search starts from ``Lₖ``, until ``iterations`` patches are tried.

**Paths.** A forecast follows one path: which lists the archetypes adopt first decides where
the field settles, and forecasts of one patch on other seeds settle in other metas
(docs/balance-search.md). With ``forecast_seeds`` n > 1 every patch is forecast on n seeds
(the forecast's seed and the n − 1 after it) and judged by its **worst** path: it meets only
where every path meets. So the next search works on **every path's lists** — the worst path's
and, beside them, each other path's lists that differ (``search_field``): a patch balanced on
one basin's lists says nothing of another's, and the forecasts of one patch on two seeds were
measured to put one archetype 34 points apart.

The chosen patch is the one with the fewest changes that meets, else the one whose adapted meta
misses least. A patch ``P`` with ``search(L(P)) = P`` is balanced on the lists it provokes;
the iteration looks for one from the unpatched lists, as a designer re-patching after each
meta shift would. What it cannot see: lists more than ``max_changes`` cards from print, cards
outside the forecast's pool, and adaptation by a skill level other than the first agent's
(further agents play the settled lists only).

Invariant: the same problem and seed give the same search (every step's seed is derived from
the problem's; no clock decides anything unless a ``should_stop`` says so).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from rules.engine.cards import CardDef, DeckList
from rules.lab.balance_search.adapted_play import AdaptedEvaluator, PairSide, SearchSide
from rules.lab.balance_search.adapted_result import (
    AdaptedResult,
    Answer,
    Considered,
    ForecastPath,
    Judgement,
    choose,
    judge,
    real_agents_figures,
)
from rules.lab.balance_search.answer import (
    answer_candidates,
    answer_problem,
    answered,
    best_answer,
)
from rules.lab.balance_search.evaluate import Field
from rules.lab.balance_search.problem import Problem, Progress
from rules.lab.balance_search.search import balance_search
from rules.lab.balance_search.space import (
    Candidate,
    SearchSpace,
    candidate_cards,
    candidate_patch,
)
from rules.lab.balance_search.strong import searching_agent
from rules.lab.deck_tuning.problem import DeckKey, deck_list
from rules.lab.forecast import ForecastProblem, ForecastResult, forecast
from rules.lab.forecast.paths import path_seeds
from rules.lab.patches import patch_diff

DEFAULT_ITERATIONS = 3
DEFAULT_EXPLOIT_LIMIT = 0.56
MAX_FORECAST_SEEDS = 4


@dataclass(frozen=True)
class AdaptedProblem:
    """``search``: the meta search on the printed field (its goal, budget, agents, space
    options); ``forecast``: how players adapt (its archetypes the same printed lists, its cards
    unpatched). ``iterations``: patches searched at most; ``exploit_limit``: the most one more
    tuning may reach against the adapted mix; ``forecast_seeds``: the paths each patch is
    forecast on (seeds ``forecast.seed``, ``forecast.seed + 1``, …), judged by the worst."""

    search: Problem
    forecast: ForecastProblem
    only: tuple[str, ...] | None = None      # the search space's cards (None: the lists')
    fields: tuple[str, ...] = ("cost", "attack", "hp")
    spread: int = 2
    iterations: int = DEFAULT_ITERATIONS
    exploit_limit: float = DEFAULT_EXPLOIT_LIMIT
    forecast_seeds: int = 1
    answer_check: int = 0        # the search's best patches priced after one answer (answer.py)

    @property
    def path_seeds(self) -> tuple[int, ...]:
        return path_seeds(self.forecast.seed, self.forecast_seeds)


def _seed(seed: int, *parts: object) -> int:
    return random.Random("/".join(map(str, ("adapted", seed, *parts)))).getrandbits(31)


class _Run:
    def __init__(self, problem: AdaptedProblem, evaluator: AdaptedEvaluator,
                 progress: Progress | None, should_stop: Callable[[], bool] | None):
        self.problem, self.evaluator = problem, evaluator
        self.progress, self.should_stop = progress, should_stop
        self.games = 0          # games of finished steps
        self.step_games = 0     # ... and of the step under way
        self.search_games = self.forecast_games = self.answer_games = 0
        self.forecasts: list[int] = []      # each finished patch's forecasts' games
        self.paths: list[int] = []          # each finished forecast path's games
        self.paths_left = 0                 # paths of the patch under way still to forecast
        self.searches: list[int] = []       # each finished search's games
        self.answer_checks: list[int] = []  # each finished answer check's games
        self.judged: list[dict[str, Any]] = []   # each patch judged so far, in short
        per = problem.forecast.budget_games * problem.forecast_seeds
        self.budget = (problem.iterations + 1) * per + problem.iterations \
            * problem.search.budget_games

    def report(self, step: str, iteration: int, event: dict[str, Any]) -> None:
        self.step_games = int(event.get("games") or 0)
        if self.progress is not None:
            self.progress({**event, "phase": event.get("phase", step), "step": step,
                           "iteration": iteration, "games": self.games + self.step_games,
                           "budget": self.budget,
                           "expected": self.expected(step, iteration, event),
                           "judged": list(self.judged)})

    def judged_patch(self, considered: Considered) -> Considered:
        """Say a patch's verdict as soon as its forecasts are done (an hour-long search shows
        each patch's verdicts when they are known, not only at the end)."""
        self.judged.append(judged_summary(considered, self.problem.forecast.cards))
        self.report("judged", considered.iteration, {"phase": "judged", "games": 0})
        return considered

    def expected(self, step: str, iteration: int, event: dict[str, Any]) -> int:
        """About how many games the whole search plays if it tries every patch it may: the
        step under way by its own estimate (a forecast's ``expected``; a search's budget), each
        step still to come as the finished ones of its kind cost on average (before one has
        finished: the forecast under way's estimate, the search's budget). A search that meets
        its targets early plays fewer; the estimate is never below the games played."""
        search_budget = self.problem.search.budget_games
        paths = self.problem.forecast_seeds
        path = max(self.step_games, int(event.get("expected") or 0))
        path_each = (sum(self.paths) // len(self.paths) if self.paths
                     else path if step == "forecast" else self.problem.forecast.budget_games)
        if step == "forecast":     # this path, then the patch's paths still to come
            current = path + self.paths_left * path_each
        elif step == "answer":     # this answer, then the candidates' and paths' still to come
            paths_each = int(event.get("paths", 1))
            units_left = (int(event.get("candidates", 1)) - int(event.get("candidate", 1))) \
                * paths_each + paths_each - int(event.get("path", 1))
            current = path * (1 + units_left)
        elif step == "judged":     # between steps: nothing under way
            current = 0
        else:
            current = max(self.step_games, search_budget)
        forecast_each = (sum(self.forecasts) // len(self.forecasts) if self.forecasts
                         else paths * path_each)
        search_each = (sum(self.searches) // len(self.searches) if self.searches
                       else search_budget)
        answer_each = (sum(self.answer_checks) // len(self.answer_checks)
                       if self.answer_checks else 0)
        patches_left = self.problem.iterations - iteration
        to_come = patches_left * (search_each + answer_each + forecast_each)
        if step == "search":
            to_come += answer_each + forecast_each    # this patch's answer check and forecast
        elif step == "answer":
            to_come += forecast_each                  # this patch's forecast
        return self.games + current + to_come

    def stopped(self) -> bool:
        return self.should_stop is not None and self.should_stop()

    def path_progress(self, iteration: int, path: int, paths: int, seed: int) -> Progress:
        def progress(event: dict[str, Any]) -> None:
            self.report("forecast", iteration, {**event, "path": path, "paths": paths,
                                                "seed": seed})
        return progress

    def forecast(self, moves: Candidate, iteration: int) -> tuple[ForecastPath, ...]:
        """The patch's forecast on each path's seed (a stop requested ends after the path
        under way)."""
        base = self.problem.forecast
        cards = candidate_cards(base.cards, moves)
        seeds = self.problem.path_seeds
        paths: list[ForecastPath] = []
        spent = 0
        for k, seed in enumerate(seeds):
            if k and self.stopped():
                break
            self.paths_left = len(seeds) - k - 1
            result = forecast(replace(base, cards=cards, seed=seed),
                              PairSide(self.evaluator, moves),
                              progress=self.path_progress(iteration, k + 1, len(seeds), seed),
                              should_stop=self.should_stop)
            total = result.games["total"]
            spent += total
            self.forecast_games += total
            self.games += total
            self.paths.append(total)
            paths.append(ForecastPath(seed, result, _judge(self.problem, result, seed)))
        self.paths_left = 0
        self.forecasts.append(spent)
        return tuple(paths)

    def answer(self, last: Considered, names: Sequence[str], searched: Any, iteration: int,
               tried: Sequence[Candidate]) -> tuple[Answer, ...]:
        """The search's best patches, each after the lists' first answer to it on every path
        of the last patch (``answer``; none where ``answer_check`` is under 2 or fewer than two
        of its patches are new)."""
        p = self.problem
        if p.answer_check < 2:
            return ()
        candidates = answer_candidates(searched, tried, p.answer_check)
        if len(candidates) < 2:
            return ()
        paths = last.paths or (ForecastPath(last.seed or 0, last.forecast, last.judgement),)
        seed = _seed(p.search.seed, "answer", iteration)  # one seed: candidates differ by cards
        out = []
        for k, moves in enumerate(candidates):
            if k and self.stopped():
                break
            each = [(path.seed, *self.answer_once(moves, path, names, seed, {
                "candidate": k + 1, "candidates": len(candidates), "path": i + 1,
                "paths": len(paths), "seed": path.seed}, iteration))
                for i, path in enumerate(paths)]
            out.append(answered(moves, each))
        self.answer_checks.append(sum(a.games for a in out))
        return tuple(out)

    def answer_once(self, moves: Candidate, path: ForecastPath, names: Sequence[str], seed: int,
                    where: dict[str, Any], iteration: int) -> tuple[ForecastResult, Judgement]:
        """One round of the answer to ``moves`` from ``path``'s settled lists, its games
        counted and its progress said with ``where`` (which candidate, which path)."""
        problem = answer_problem(self.problem.forecast, path.forecast.rounds[-1].lists,
                                 names, moves, seed)
        result = forecast(problem, PairSide(self.evaluator, moves),
                          progress=lambda e: self.report("answer", iteration, {**e, **where}),
                          should_stop=self.should_stop)
        total = result.games["total"]
        self.answer_games += total
        self.games += total
        self.step_games = 0
        return result, _judge(self.problem, result, seed)

    def search(self, field: SearchField, iteration: int, start: Candidate) -> Any:
        p = self.problem
        lists, names, archetype_of, shared = field
        decks = tuple(deck_list(k, n) for k, n in zip(lists, names, strict=True))
        # in a field of n lists each can hold at most 1/n of the equilibrium: ask no more
        min_share = min(p.search.min_share, 1 / len(decks))
        played = Field(cards=p.search.field.cards, decks=decks, agent=p.search.field.agent,
                       ruleset=p.search.field.ruleset)
        space = SearchSpace.for_decks(decks, played.cards, only=p.only, fields=p.fields,
                                      spread=p.spread)
        problem = replace(p.search, field=played, space=space, objective="meta", start=start,
                          min_share=min_share, seed=_seed(p.search.seed, "search", iteration),
                          first_cards=ridden_cards(lists, archetype_of, p.forecast.archetypes,
                                                   start),
                          lead_cards=tuple(shared[k] for k in archetype_of))
        result = balance_search(problem, SearchSide(self.evaluator, lists),
                                progress=lambda e: self.report("search", iteration, e),
                                should_stop=self.should_stop)
        spent = result.games_searched + result.games_verified + \
            result.strong_games_searched + result.strong_games_verified
        self.search_games += spent
        self.games += spent
        self.searches.append(spent)
        return result


def adapted_forecast_problem(problem: AdaptedProblem) -> ForecastProblem:
    """The forecast each patch is judged by: its bands the search's field band, its further
    agents the search's (each played by its stand-in while searching)."""
    search = problem.search
    players = (searching_agent(a) if search.stand_ins else a for a in search.strong_agents)
    # a stand-in that is the first agent (or another's stand-in) adds no reading of its own
    further = tuple(dict.fromkeys(p for p in players if p != search.field.agent))
    return replace(problem.forecast, agent=search.field.agent, further_agents=further,
                   band=search.field_band, epsilon=search.epsilon)


def adapted_search(problem: AdaptedProblem, evaluator: AdaptedEvaluator, *,
                   progress: Progress | None = None,
                   should_stop: Callable[[], bool] | None = None) -> AdaptedResult:
    """Forecast, search on the adapted lists, re-forecast with the patch; repeat (module doc)."""
    problem = replace(problem, forecast=adapted_forecast_problem(problem))
    problem.search.goal.check(len(problem.forecast.archetypes))
    problem.forecast.check()
    run = _Run(problem, evaluator, progress, should_stop)
    names = tuple(d.name for d in problem.forecast.archetypes)
    live = problem.search.start        # a live patch: judged first, the first search's anchor
    considered = [run.judged_patch(considered_of(0, live, run.forecast(live, 0), None))]
    fixed_point = False
    for iteration in range(1, problem.iterations + 1):
        if considered[-1].judgement.meets or run.stopped():
            break
        last = considered[-1]
        searched = run.search(search_field(last, names, problem.forecast.archetypes),
                              iteration, last.moves)
        best = searched.best
        moves: Candidate = best.moves if best is not None else ()
        if not moves or any(c.moves == moves for c in considered):
            fixed_point = True   # the search on these lists finds no new patch
            break
        answers = run.answer(last, names, searched, iteration, [c.moves for c in considered])
        if answers:
            moves = best_answer(answers).moves
        considered.append(run.judged_patch(considered_of(
            iteration, moves, run.forecast(moves, iteration), searched, answers)))
    chosen = choose(considered)
    real = real_agents_figures(problem.search, problem.forecast, chosen, evaluator)
    return AdaptedResult(names=names, considered=tuple(considered), chosen=chosen,
                         real_agents=real, search_games=run.search_games,
                         answer_games=run.answer_games,
                         forecast_games=run.forecast_games + sum(
                             r.get("games", 0) for r in real.values()),
                         exploit_limit=problem.exploit_limit, goal=problem.search.goal,
                         agents=(problem.search.field.agent, *problem.search.strong_agents),
                         fixed_point=fixed_point, seed=problem.search.seed,
                         iterations=problem.iterations, max_edits=problem.search.max_edits)


class SearchField(NamedTuple):
    """The lists a search balances, their names, each one's archetype (an index into the
    forecast's printed lists) and, per archetype, what every path's list of it brought in
    (``shared_cards``)."""

    lists: tuple[DeckKey, ...]
    names: tuple[str, ...]
    archetype_of: tuple[int, ...]
    shared: tuple[tuple[str, ...], ...]


def search_field(considered: Considered, names: Sequence[str],
                 printed: Sequence[DeckList]) -> SearchField:
    """The lists the next search balances: the worst path's lists, then each other path's
    lists that differ from every list of their archetype already in, named with their path's
    seed ("Dawn Crusade (seed 2)"). One path: its lists as they are."""
    lists = list(considered.forecast.rounds[-1].lists)
    named = list(names)
    archetype_of = list(range(len(names)))
    for path in considered.paths:
        for k, key in enumerate(path.forecast.rounds[-1].lists):
            if any(lists[j] == key for j, a in enumerate(archetype_of) if a == k):
                continue
            lists.append(key)
            named.append(f"{names[k]} (seed {path.seed})")
            archetype_of.append(k)
    paths = [path.forecast.rounds[-1].lists for path in considered.paths]
    return SearchField(tuple(lists), tuple(named), tuple(archetype_of),
                       shared_cards(paths, printed))


def shared_cards(paths: Sequence[Sequence[DeckKey]], printed: Sequence[DeckList]
                 ) -> tuple[tuple[str, ...], ...]:
    """Per archetype, the cards its list brought in beyond print on **every** path (none
    where fewer than two paths were forecast): the changes players make to a patch whichever
    way the field went, which a search on the lists of one moment should try first. Ordered
    by how many lists of all the paths brought the card in (a card many archetypes take up
    first: the kind of card every tuning took), then by copies. Under the class nerf every
    path's settled Dawn Crusade held one healing core and stayed over the band on every path
    while the search screened each list's brought-in cards one path at a time, by copies
    (docs/balance-search.md)."""
    if len(paths) < 2:
        return tuple(() for _ in printed)
    brought = [[_brought_in(key, printed[k]) for k, key in enumerate(lists)]
               for lists in paths]
    lists_with = Counter(c for path in brought for b in path for c in b)
    out = []
    for k in range(len(printed)):
        every = set.intersection(*(set(path[k]) for path in brought))
        copies = {c: sum(path[k][c] for path in brought) for c in every}
        out.append(tuple(sorted(every, key=lambda c: (-lists_with[c], -copies[c], c))))
    return tuple(out)


def _brought_in(key: DeckKey, printed: DeckList) -> dict[str, int]:
    """The copies of each card a list holds beyond its printed list."""
    was = printed.counts()
    return {c: n - was.get(c, 0) for c, n in key[1] if n > was.get(c, 0)}


def ridden_cards(lists: Sequence[DeckKey], archetype_of: Sequence[int],
                 printed: Sequence[DeckList], start: Candidate) -> tuple[tuple[str, ...], ...]:
    """Per list, the cards its adapted meta rides on, which the search screens beside the
    list's most-drawn ones: the start patch's changed cards it plays (the live patch's buffs
    players answered with), then the cards it brought in beyond its printed list, most copies
    brought first. A search on two paths' lists affords about three or four cards a list,
    and copies alone can leave out live changes the lists play: the screening plan after
    patch 2, rebuilt on one path's lists, left out Blazing Charger and Choir Singer, whose
    buffs the search could then neither soften nor take back (docs/balance-search.md)."""
    patched = sorted({m.card for m in start})
    out = []
    for key, k in zip(lists, archetype_of, strict=True):
        have, brought = dict(key[1]), _brought_in(key, printed[k])
        out.append((*(c for c in patched if c in have),
                    *sorted((c for c in brought if c not in patched),
                            key=lambda c: (-brought[c], c))))
    return tuple(out)


def _judge(problem: AdaptedProblem, result: ForecastResult, seed: int) -> Judgement:
    return judge(result, problem.search.goal, problem.exploit_limit, seed=seed)


def judged_summary(considered: Considered, cards: Mapping[str, CardDef]) -> dict[str, Any]:
    """A patch's verdict in short, for progress: its changes (card, field, value and an English
    line naming the card), whether it meets, and each forecast's verdict."""
    patch = candidate_patch(considered.moves, "candidate")
    changed = {c.card: cards[c.card].to_dict() for c in patch.changes if c.card in cards}
    return {"iteration": considered.iteration, "meets": considered.judgement.meets,
            "changes": [{"card": c.card, "field": c.field, "value": c.value}
                        for c in patch.changes],
            "lines": [row["text"] for row in patch_diff(changed, patch)],
            "paths": [{"seed": p.seed, "meets": p.judgement.meets,
                       "misses": len(p.judgement.failures), "stopped": p.forecast.stopped,
                       "rounds": len(p.forecast.rounds) - 1} for p in considered.paths]}


def considered_of(iteration: int, moves: Candidate, paths: Sequence[ForecastPath],
                  searched: Any, answers: Sequence[Answer] = ()) -> Considered:
    """A patch judged by its worst path: the path that misses most (of equal ones, the first
    seed's), whose figures and lists stand for the patch; every path is kept beside it, and
    the answer check that chose it (``answer``), if one did."""
    worst = max(paths, key=lambda p: p.judgement.rank(len(moves)))
    return Considered(iteration, moves, worst.forecast, searched, worst.judgement,
                      paths=tuple(paths), seed=worst.seed, answers=tuple(answers))
