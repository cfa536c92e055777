"""A balance search with the adapted objective as a job: its frozen input back to the pure
problem (``rules.lab.balance_search.adapted``), its codec (a block is a search matchup's
``Tally`` or a forecast pair's outcome string, both under a candidate patch and on lists named
by their content) and the most games it may play.

The row keeps what a meta search keeps; ``tuning`` holds what the forecast needs: the format,
``set_of``, the pool of cards that may come in (frozen into ``cards``) and ``options``
(``list_changes``, ``iterations``, ``exploit_limit``, ``forecast_budget_games``,
``forecast_seeds`` and the forecast's sizes).

Invariant: ``adapted_problem`` reads only the job's row, so every execution of a job and every
process that plays a piece of it plays the same games.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from typing import Any

from balance.models import BalanceJob
from balance.tuning.problem import format_from_dict
from rules.engine.cards import Ruleset
from rules.lab.balance_search import BLOCK, Problem, Tally
from rules.lab.balance_search.adapted import (
    DEFAULT_EXPLOIT_LIMIT,
    DEFAULT_ITERATIONS,
    AdaptedProblem,
)
from rules.lab.balance_search.adapted_play import AdaptedBase, AdaptedTask, play_adapted_task
from rules.lab.balance_search.space import Move
from rules.lab.forecast import ForecastProblem
from simulations.sources import engine_objects

# The forecast's sizes an adapted search may set (the rest are the forecast's defaults).
FORECAST_SIZES = ("tune_games", "round_games", "final_games", "max_rounds", "swaps_per_round",
                  "exploit_swaps", "settle")
_FORECAST = ForecastProblem(cards={}, archetypes=())
DEFAULT_LIST_CHANGES = _FORECAST.max_changes
# A forecast of the starter field settles within 20 rounds and 3 million games on most paths
# (2026-11-27: the unpatched pool in 9 and 14 rounds, its first patch in 17 on seed 1 and not
# within 20 on seed 2, 2.4 million games); at 12 rounds and 1.5 million fewer did, and an
# unsettled forecast's figures are its path's, not the adapted meta's (docs/balance-search.md).
DEFAULT_FORECAST_BUDGET = 3_000_000
DEFAULT_FORECAST_ROUNDS = 20
# Each patch is forecast on two seeds and judged by the worse: forecasts of one patch on other
# seeds settled in other metas (Dawn Crusade 57.6, 23.3 and 67.8 % on seeds 1–3), so a patch
# judged on one forecast is judged on one path (docs/balance-search.md).
DEFAULT_FORECAST_SEEDS = 2
# Each search's best verified patches priced against one round of the lists' answer before one
# is forecast (rules.lab.balance_search.answer); 0 or 1: the search's own pick, unpriced.
DEFAULT_ANSWER_CHECK = 0
MAX_ANSWER_CHECK = 8


def adapted_options(options: dict[str, Any]) -> dict[str, Any]:
    """The adapted objective's options with their defaults."""
    return {"list_changes": DEFAULT_LIST_CHANGES, "iterations": DEFAULT_ITERATIONS,
            "exploit_limit": DEFAULT_EXPLOIT_LIMIT,
            "forecast_budget_games": DEFAULT_FORECAST_BUDGET,
            "max_rounds": DEFAULT_FORECAST_ROUNDS, "forecast_seeds": DEFAULT_FORECAST_SEEDS,
            "answer_check": DEFAULT_ANSWER_CHECK, **options}


def adapted_problem(job: BalanceJob, search: Problem) -> AdaptedProblem:
    """``search``: the job's meta search (``search_problem``) on its printed decks."""
    spec = job.tuning or {}
    options = adapted_options(spec.get("options") or {})
    cards, decks = engine_objects(job.cards, job.decks)
    forecast = ForecastProblem(
        cards=cards, archetypes=tuple(decks), agent=job.agent, ruleset=Ruleset(),
        fmt=format_from_dict(spec["format"]), set_of=spec.get("set_of") or None,
        pool=tuple(spec["pool"]), max_changes=options["list_changes"],
        budget_games=options["forecast_budget_games"], seed=job.seed,
        **{k: options[k] for k in FORECAST_SIZES if k in options})
    return AdaptedProblem(search=replace(search, objective="meta"), forecast=forecast,
                          only=tuple(job.allowed_cards) if job.allowed_cards else None,
                          fields=tuple(job.fields or ("cost", "attack", "hp")),
                          spread=job.spread, iterations=options["iterations"],
                          exploit_limit=options["exploit_limit"],
                          # a job frozen before paths were kept judged each patch on one
                          forecast_seeds=(spec.get("options") or {}).get("forecast_seeds", 1),
                          answer_check=options["answer_check"])


class AdaptedCodec:
    """An adapted search's blocks: keyed by everything they depend on (``AdaptedTask``)."""

    block_games = BLOCK

    def __init__(self, problem: AdaptedProblem):
        field = problem.search.field
        self.base = AdaptedBase(cards=field.cards, agent=field.agent, ruleset=field.ruleset)

    def key(self, task: AdaptedTask) -> str:
        text = json.dumps(["adapted", self.encode(task)], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    def play(self, task: AdaptedTask, first: int, blocks: int) -> list[Any]:
        return play_adapted_task(self.base, replace(task, first=first, blocks=blocks))

    def encode(self, task: AdaptedTask) -> Any:
        moves = [[m.card, m.field, list(m.value) if isinstance(m.value, tuple) else m.value,
                  m.size, m.step] for m in task.moves]
        return {"kind": task.kind, "moves": moves,
                "decks": [[hero, [list(c) for c in cards]] for hero, cards in task.decks],
                "a": task.a, "b": task.b, "seed": task.seed, "agent": task.agent}

    def decode(self, data: Any) -> AdaptedTask:
        moves = tuple(Move(card, field, tuple(value) if isinstance(value, list) else value,
                           size, step) for card, field, value, size, step in data["moves"])
        decks = tuple((hero, tuple((code, n) for code, n in cards))
                      for hero, cards in data["decks"])
        return AdaptedTask(data["kind"], moves, decks, data["a"], data["b"], data["seed"], 0, 0,
                           data.get("agent", ""))

    def task_agent(self, task: AdaptedTask) -> str:
        return task.agent or self.base.agent

    def dump(self, result: Any) -> Any:
        return result.to_list() if isinstance(result, Tally) else result

    def load(self, data: Any) -> Any:
        return Tally.from_list(data) if isinstance(data, list) else str(data)
