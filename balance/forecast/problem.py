"""A meta forecast job's frozen input back to the pure problem (``rules.lab.forecast``), the most
games it may play, and how its blocks are keyed, played, sent and stored (its codec: a block is
an outcome string of one list against another, ``balance.kinds`` says what a codec does).

The row keeps the archetypes (``decks``), the card data as patched (``cards``), the agent, the
rounds' budget (``budget_games``), a tuning's fresh games an opponent (``verify_games``), the
cap on changes (``max_changes``) and the rest of the options with the patch under ``tuning``
(the kind's own frozen input), with the agents that also play the settled lists
(``further_agents``) and the verdicts' ``band`` (a job frozen before them has neither: no
further agent, the default band).

Invariant: ``forecast_problem`` reads only the job's row, so every execution of a job — first or
resumed — forecasts the same problem.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from balance.models import BalanceJob
from balance.tuning.problem import format_from_dict
from rules.engine.cards import Ruleset
from rules.lab.deck_tuning import BLOCK, TuneField
from rules.lab.forecast import ForecastProblem, ForecastResult, PairTask, play_pair_task
from rules.lab.forecast.problem import DEFAULT_BAND
from simulations.sources import engine_objects

OPTIONS = ("settle", "tune_games", "round_games", "final_games", "max_rounds",
           "swaps_per_round", "exploit_swaps")


def forecast_problem(job: BalanceJob) -> ForecastProblem:
    spec = job.tuning or {}
    cards, decks = engine_objects(job.cards, job.decks)
    return ForecastProblem(
        cards=cards, archetypes=tuple(decks), agent=job.agent, ruleset=Ruleset(),
        fmt=format_from_dict(spec["format"]), set_of=spec.get("set_of") or None,
        pool=tuple(spec["pool"]), max_changes=job.max_changes, budget_games=job.budget_games,
        verify_games=job.verify_games, seed=job.seed,
        further_agents=forecast_further_agents(job), band=forecast_band(job),
        **{k: spec["options"][k] for k in OPTIONS})


def forecast_further_agents(job: BalanceJob) -> tuple[str, ...]:
    """The agents that also play the settled lists (none for a job frozen before them)."""
    return tuple((job.tuning or {}).get("further_agents") or ())


def forecast_band(job: BalanceJob) -> tuple[float, float]:
    """The verdicts' band as fractions (the default for a job frozen before it)."""
    band = (job.tuning or {}).get("band")
    return (band[0], band[1]) if band else DEFAULT_BAND


class ForecastCodec:
    """A forecast's blocks: keyed by both lists and the seed; each an outcome string."""

    block_games = BLOCK

    def __init__(self, problem: ForecastProblem):
        self.field = TuneField(cards=problem.cards, opponents=(), agent=problem.agent,
                               ruleset=problem.ruleset)

    def key(self, task: PairTask) -> str:
        return hashlib.sha256(json.dumps(["pair", self.encode(task)]).encode()).hexdigest()

    def task_agent(self, task: PairTask) -> str:
        """The agent that plays ``task`` (a further agent's pieces are sized at its pace)."""
        return task.agent or self.field.agent

    def play(self, task: PairTask, first: int, blocks: int) -> list[str]:
        return play_pair_task(self.field, PairTask(task.deck, task.rival, task.seed, first,
                                                   blocks, task.agent))

    def encode(self, task: PairTask) -> Any:
        return {"deck": [task.deck[0], [list(c) for c in task.deck[1]]],
                "rival": [task.rival[0], [list(c) for c in task.rival[1]]], "seed": task.seed,
                "agent": task.agent}

    def decode(self, data: Any) -> PairTask:
        def key(pair: Any) -> Any:
            return pair[0], tuple((code, n) for code, n in pair[1])
        return PairTask(key(data["deck"]), key(data["rival"]), data["seed"], 0, 0,
                        data.get("agent", ""))

    def dump(self, result: str) -> Any:
        return result

    def load(self, data: Any) -> str:
        return str(data)


def forecast_games(*, decks: int, budget_games: int, verify_games: int,
                   objective: str = "band") -> int:
    """About the most games a forecast plays: its rounds' budget, then the settled field and
    one more tuning of each archetype (at the defaults' sizes). ``objective`` is the search's."""
    return budget_games + forecast_verify_estimate(decks, verify_games)


def forecast_verify_estimate(decks: int, verify_games: int) -> int:
    """About the games after the rounds: the settled field's matchups and the exploitability's
    tunings (search and fresh games)."""
    default = ForecastProblem(cards={}, archetypes=())
    final = decks * (decks - 1) // 2 * default.final_games
    return final + decks * (default.tune_games + verify_games * decks * 3)


def forecast_result_dict(job: BalanceJob, result: ForecastResult) -> dict[str, Any]:
    return result.to_dict()
