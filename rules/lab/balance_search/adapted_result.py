"""What an adapted search reports, and how it judges a patch on the adapted meta.

For every patch considered (the unpatched pool first) it keeps the patch's **printed-list**
figures — the forecast's patch day: the printed lists on the patched pool, ``round_games`` a
matchup on the forecast's shared seeds — and its **adapted** figures — the settled lists on
fresh seeds, ``final_games`` a matchup — side by side: field win rates with 95 % intervals on
seat-swapped pairs, the matchup extremes, both equilibria's shares and exploitability, each
naming its agent and games. The printed lists' exploitability is the best verified field win
rate the forecast's first round of tunings reached against them (``swaps_per_round`` swaps
within the cap); the adapted one is the forecast's own (one more tuning, uncapped).

``judge`` applies the targets to the adapted figures: a field win rate outside the field band
by Riot's rule across agents (over it under **any** agent: a nerf; under it under **every**
agent: a buff — ``ForecastResult.verdicts``), a matchup outside the matchup band, a smallest
ε-equilibrium share under the minimum, an exploitability over the limit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.lab.balance_search.adapted_play import AdaptedEvaluator, PairSide
from rules.lab.balance_search.objective import Goal
from rules.lab.balance_search.problem import Problem
from rules.lab.balance_search.result import SearchResult, patch_name
from rules.lab.balance_search.space import Candidate, candidate_patch
from rules.lab.balance_search.strong import searching_agent
from rules.lab.forecast import ForecastProblem, ForecastResult
from rules.lab.forecast.play import Matchups
from rules.lab.forecast.result import field_rates, list_diff, matchup_table, meta_field
from rules.lab.meta import meta_report

Pairing = tuple[int, int]
REAL_FRESH = 9   # fresh seeds of the further agents' own check of the chosen patch


def side_figures(names: Sequence[str], outcomes: Mapping[Pairing, str], *, agent: str,
                 epsilon: float, seed: int, exploit: dict[str, Any] | None = None,
                 ) -> dict[str, Any]:
    """One field's figures: field win rates with intervals, the lowest and highest matchup
    (row deck's win rate against the column's), both equilibria's shares, exploitability."""
    table = matchup_table(len(names), outcomes)
    cells = [{"deck": names[i], "rival": names[j], **cell}
             for i, row in enumerate(table) for j, cell in enumerate(row)
             if cell is not None and cell["rate"] is not None]
    meta = meta_report(meta_field(names, outcomes), epsilon=epsilon, seed=seed).to_dict()
    return {"agent": agent, "games_each": max((len(o) for o in outcomes.values()), default=0),
            "field": field_rates(names, outcomes), "matchups": table,
            "matchup_low": min(cells, key=lambda c: c["rate"], default=None),
            "matchup_high": max(cells, key=lambda c: c["rate"], default=None),
            "relaxed": meta["relaxed"]["shares"], "nash": meta["nash"]["shares"],
            "epsilon": epsilon, "exploitability": exploit}


def printed_exploit(result: ForecastResult) -> dict[str, Any] | None:
    """The best verified field win rate of the first round's tunings against the printed lists."""
    if len(result.rounds) < 2:
        return None
    rows = []
    for i, tuning in enumerate(result.rounds[1].tunings):
        s = tuning.suggestion if tuning is not None else None
        if s is None:
            continue
        figure = s.verified.interval() if s.improvement["change"] > 0 else s.baseline.interval()
        rows.append({"archetype": result.names[i], **figure,
                     "swaps": [w.to_dict() for w in s.swaps] if s.improvement["change"] > 0
                     else []})
    if not rows:
        return None
    return {**max(rows, key=lambda r: r["rate"]), "agent": result.agent, "capped": True}


@dataclass(frozen=True)
class Judgement:
    meets: bool
    failures: tuple[dict[str, Any], ...]
    excess: float
    printed: dict[str, Any]
    adapted: dict[str, Any]
    verdicts: tuple[dict[str, Any], ...]

    def rank(self, changes: int) -> tuple[Any, ...]:
        """Meeting first, then fewer changes; else fewer misses, then less excess."""
        if self.meets:
            return (0, changes, 0, 0.0)
        return (1, len(self.failures), self.excess, changes)


@dataclass(frozen=True)
class Answer:
    """One candidate patch after the lists' first answer: how its answered meta is judged —
    the worse of the answers of each forecast path's lists (``paths``: each path's seed and
    targets missed, where more than one path was answered)."""

    moves: Candidate
    judgement: Judgement
    games: int
    adopted: int                 # lists that took a swap in the answer, over every path
    paths: tuple[tuple[int, int], ...] = ()

    @property
    def rank(self) -> tuple[int, float]:
        return len(self.judgement.failures), self.judgement.excess

    def to_dict(self) -> dict[str, Any]:
        j = self.judgement
        return {"patch": candidate_patch(self.moves, "candidate").to_dict(),
                "changes": len(self.moves), "meets": j.meets, "failures": list(j.failures),
                "excess": j.excess, "field": j.adapted["field"], "games": self.games,
                "agent": j.adapted["agent"], "games_each": j.adapted["games_each"],
                "adopted": self.adopted,
                "paths": [{"seed": seed, "misses": misses} for seed, misses in self.paths]}


def judge(result: ForecastResult, goal: Goal, exploit_limit: float, *, seed: int) -> Judgement:
    names = result.names
    printed = side_figures(names, result.rounds[0].outcomes, agent=result.agent,
                           epsilon=goal.epsilon, seed=seed, exploit=printed_exploit(result))
    adapted = side_figures(names, result.final, agent=result.agent, epsilon=goal.epsilon,
                           seed=seed, exploit=result.exploitability())
    adapted["agents"] = {a: {"agent": a, "field": field_rates(names, o),
                             "games_each": max((len(x) for x in o.values()), default=0)}
                         for a, o in result.further.items()}
    failures: list[dict[str, Any]] = []
    excess = 0.0
    (low, high), (mlow, mhigh) = goal.field_band, goal.matchup_band
    verdicts = tuple(result.verdicts())
    for row in verdicts:
        rates = [r["rate"] for r in row["agents"].values() if r["rate"] is not None]
        if row["verdict"] == "nerf":
            excess += (max(rates) - high) ** 2
        elif row["verdict"] == "buff":
            excess += (low - max(rates)) ** 2
        if row["verdict"] != "fine":
            failures.append({"what": "field", "archetype": row["archetype"],
                             "verdict": row["verdict"]})
    for i, row_ in enumerate(adapted["matchups"]):
        for j, cell in enumerate(row_):
            if i < j and cell is not None and cell["rate"] is not None and not (
                    mlow <= cell["rate"] <= mhigh):
                excess += max(mlow - cell["rate"], cell["rate"] - mhigh) ** 2
                failures.append({"what": "matchup", "archetype": names[i], "rival": names[j],
                                 "rate": cell["rate"]})
    smallest = min(adapted["relaxed"], default=1.0)
    if smallest < goal.min_share:
        excess += (0.25 * (goal.min_share - smallest)) ** 2
        failures.append({"what": "share", "share": smallest})
    exploit = adapted["exploitability"]
    if exploit is not None and exploit["rate"] > exploit_limit:
        excess += (exploit["rate"] - exploit_limit) ** 2
        failures.append({"what": "exploit", "archetype": exploit["archetype"],
                         "rate": exploit["rate"]})
    return Judgement(not failures, tuple(failures), round(excess, 6), printed, adapted,
                     verdicts)


@dataclass(frozen=True)
class ForecastPath:
    """One forecast of a patch: its seed, the forecast and its verdict."""

    seed: int
    forecast: ForecastResult
    judgement: Judgement

    def to_dict(self, worst: bool) -> dict[str, Any]:
        j, f = self.judgement, self.forecast
        return {"seed": self.seed, "worst": worst, "meets": j.meets,
                "failures": list(j.failures), "excess": j.excess, "stopped": f.stopped,
                "rounds": len(f.rounds) - 1, "games": f.games.get("total", 0),
                "field": j.adapted["field"], "relaxed": j.adapted["relaxed"],
                "matchup_low": j.adapted["matchup_low"], "matchup_high": j.adapted["matchup_high"],
                "exploitability": j.adapted["exploitability"]}


@dataclass(frozen=True)
class Considered:
    """One patch of the iteration (0: the unpatched pool) with its forecast and verdict: the
    worst of its paths (``seed``'s), every path in ``paths`` (empty: one path, ``seed``)."""

    iteration: int
    moves: Candidate
    forecast: ForecastResult
    search: SearchResult | None      # the search that proposed it (on the lists before it)
    judgement: Judgement
    paths: tuple[ForecastPath, ...] = ()
    seed: int | None = None
    answers: tuple[Answer, ...] = ()    # the answer check that chose it

    def to_dict(self) -> dict[str, Any]:
        j, f = self.judgement, self.forecast
        search = None
        if self.search is not None:
            s = self.search
            search = {"games_searched": s.games_searched, "games_verified": s.games_verified,
                      "strong_games_searched": s.strong_games_searched,
                      "strong_games_verified": s.strong_games_verified,
                      "verified": s.best.summary() if s.best is not None else None}
        last = f.rounds[-1]
        return {"iteration": self.iteration, "changes": len(self.moves),
                "patch": candidate_patch(self.moves, patch_name(self.moves)).to_dict(),
                "meets": j.meets, "failures": list(j.failures), "excess": j.excess,
                "printed": j.printed, "adapted": j.adapted, "verdicts": list(j.verdicts),
                "stopped": f.stopped, "rounds": len(f.rounds) - 1, "games": dict(f.games),
                "lists": [{"name": n, "hero": k[0], "diff": list_diff(p, k)}
                          for n, k, p in zip(f.names, last.lists, f.printed, strict=True)],
                "cards": f.to_dict()["cards"], "search": search, "seed": self.seed,
                "paths": [p.to_dict(p.seed == self.seed) for p in self.paths],
                "answers": [a.to_dict() for a in self.answers]}


def choose(considered: Sequence[Considered]) -> Considered:
    """The patch whose *adapted* meta does best: meeting every target with the fewest changes,
    else the fewest misses, then the least excess (its printed-list figures never decide)."""
    return min(considered, key=lambda c: c.judgement.rank(len(c.moves)))


@dataclass(frozen=True)
class AdaptedResult:
    names: tuple[str, ...]
    considered: tuple[Considered, ...]
    chosen: Considered
    search_games: int
    forecast_games: int
    exploit_limit: float
    goal: Goal
    agents: tuple[str, ...]
    real_agents: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    fixed_point: bool = False
    seed: int = 1
    iterations: int = 0          # patches it might try (0: not said)
    max_edits: int | None = None  # each search's cap on edits of the patch it starts from
    answer_games: int = 0         # pricing the searches' patches against the lists' answer

    @property
    def best_patch(self) -> Any:
        """The chosen patch (None: the unpatched pool was chosen)."""
        if not self.chosen.moves:
            return None
        return candidate_patch(self.chosen.moves, patch_name(self.chosen.moves))

    def next_moves(self) -> list[dict[str, Any]]:
        """Where the chosen patch misses, why the search ended there and what would go further
        (empty when it meets): ``why`` is ``fixed_point`` (the search on the adapted lists
        proposed only patches already tried), ``patches`` (every patch it might try was
        tried), ``stopped`` (stopped before that); ``paths`` (it met on some forecast seeds,
        not on others); ``unsettled`` (its worst forecast stopped before the lists settled)."""
        chosen = self.chosen
        if chosen.judgement.meets:
            return []
        tried = len(self.considered) - 1
        out: list[dict[str, Any]] = []
        if self.fixed_point:
            out.append({"why": "fixed_point", "patches": tried,
                        **({"max_edits": self.max_edits} if self.max_edits else {})})
        elif self.iterations and tried >= self.iterations:
            out.append({"why": "patches", "patches": tried})
        else:
            out.append({"why": "stopped", "patches": tried})
        met = [p.seed for p in chosen.paths if p.judgement.meets]
        if met:
            out.append({"why": "paths", "iteration": chosen.iteration, "met": met,
                        "missed": [p.seed for p in chosen.paths if not p.judgement.meets]})
        if chosen.forecast.stopped != "settled":
            out.append({"why": "unsettled", "iteration": chosen.iteration,
                        "stopped": chosen.forecast.stopped,
                        "rounds": len(chosen.forecast.rounds) - 1})
        return out

    def to_dict(self) -> dict[str, Any]:
        considered = [c.to_dict() for c in self.considered]
        chosen = self.considered.index(self.chosen)
        return {"objective": {**self.goal.to_dict(), "objective": "adapted",
                              "exploit_limit": self.exploit_limit},
                "decks": list(self.names), "agents": list(self.agents),
                "considered": considered, "chosen": chosen, "best": considered[chosen],
                "patch": considered[chosen]["patch"] if self.chosen.moves else None,
                "real_agents": dict(self.real_agents), "fixed_point": self.fixed_point,
                "seed": self.seed, "max_edits": self.max_edits,
                "next_moves": self.next_moves(),
                "games": {"search": self.search_games, "answer": self.answer_games,
                          "forecast": self.forecast_games,
                          "total": self.search_games + self.answer_games
                          + self.forecast_games}}


def real_agents_figures(search: Problem, forecast: ForecastProblem, chosen: Considered,
                        evaluator: AdaptedEvaluator) -> dict[str, dict[str, Any]]:
    """Each further agent that a stand-in played for while searching plays the chosen patch's
    settled lists itself, ``strong_verify_games`` a matchup on fresh seeds of its own."""
    out: dict[str, dict[str, Any]] = {}
    lists = chosen.forecast.rounds[-1].lists
    for agent in search.strong_agents:
        if not search.stand_ins or searching_agent(agent) == agent:
            continue
        matchups = Matchups(PairSide(evaluator, chosen.moves), forecast.seed)
        outcomes = matchups.measure(lists, search.strong_verify_games, fresh=REAL_FRESH,
                                    agent=agent)
        figures = side_figures(chosen.forecast.names, outcomes, agent=agent,
                               epsilon=search.epsilon, seed=forecast.seed)
        out[agent] = {**figures, "stand_in": searching_agent(agent), "games": matchups.games}
    return out
