"""A balance search job's frozen input back to the pure problem (``rules.lab.balance_search``),
the most games it may play, and how its blocks are keyed, played, sent and stored (its codec:
``balance.kinds`` says what a codec does).

Invariant: ``search_problem`` reads only the job's row (frozen decks, card data, goal), never
the catalogue, so every execution of a job — first or resumed — and every process that plays a
piece of it plays the same games.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from balance.forecast.problem import forecast_verify_estimate
from balance.models import BalanceJob
from balance.search.adapted import AdaptedCodec, adapted_options, adapted_problem
from rules.engine.cards import Ruleset
from rules.lab.balance_search import (
    BLOCK,
    EvalTask,
    Field,
    LocalEvaluator,
    Problem,
    SearchResult,
    SearchSpace,
    Tally,
)
from rules.lab.balance_search.adapted import AdaptedProblem, adapted_search
from rules.lab.balance_search.adapted_result import AdaptedResult
from rules.lab.balance_search.search import VERIFY_FRONT, balance_search
from rules.lab.balance_search.space import Move, patch_candidate
from rules.lab.balance_search.strong import STRONG_VERIFY_PICKS
from rules.lab.balance_search.verify import CONFIRM_FACTOR
from rules.lab.patches import Patch
from simulations.sources import engine_objects


def block_key(task: EvalTask) -> str:
    moves = [[m.card, m.field, list(m.value) if isinstance(m.value, tuple) else m.value]
             for m in task.moves]
    # A task played by the field's own agent keeps the key it always had.
    key = [moves, task.a, task.b, task.seed] + ([task.agent] if task.agent else [])
    text = json.dumps(key, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class BalanceCodec:
    """A balance search's blocks: keyed by the relevant moves, matchup and seed; ``Tally``."""

    block_games = BLOCK

    def __init__(self, field: Field):
        self.local = LocalEvaluator(field, processes=1)

    def key(self, task: EvalTask) -> str:
        return block_key(task)

    def play(self, task: EvalTask, first: int, blocks: int) -> list[Tally]:
        run = EvalTask(task.moves, task.a, task.b, task.seed, first, blocks, task.agent)
        return self.local.evaluate([run])[0]

    def encode(self, task: EvalTask) -> Any:
        moves = [[m.card, m.field, list(m.value) if isinstance(m.value, tuple) else m.value,
                  m.size, m.step] for m in task.moves]
        out = {"moves": moves, "a": task.a, "b": task.b, "seed": task.seed}
        return {**out, "agent": task.agent} if task.agent else out

    def decode(self, data: Any) -> EvalTask:
        moves = tuple(Move(card, field, tuple(value) if isinstance(value, list) else value,
                           size, step) for card, field, value, size, step in data["moves"])
        return EvalTask(moves, data["a"], data["b"], data["seed"], 0, 0, data.get("agent", ""))

    def task_agent(self, task: EvalTask) -> str:
        """The agent that plays the task (pieces are sized by its pace)."""
        return task.agent or self.local.field.agent

    def dump(self, result: Tally) -> Any:
        return result.to_list()

    def load(self, data: Any) -> Tally:
        return Tally.from_list(data)


def job_search_problem(job: BalanceJob) -> Problem | AdaptedProblem:
    """The job's search: a ``Problem``, or with the adapted objective an ``AdaptedProblem``
    around the meta search of its printed decks (``balance.search.adapted``)."""
    problem = search_problem(job)
    return adapted_problem(job, problem) if job.objective == "adapted" else problem


def search_codec(problem: Problem | AdaptedProblem) -> BalanceCodec | AdaptedCodec:
    if isinstance(problem, AdaptedProblem):
        return AdaptedCodec(problem)
    return BalanceCodec(problem.field)


def search_run(problem: Problem | AdaptedProblem, evaluator: Any, **kwargs: Any) -> Any:
    """The pure search the problem asks for."""
    if isinstance(problem, AdaptedProblem):
        return adapted_search(problem, evaluator, **kwargs)
    return balance_search(problem, evaluator, **kwargs)


def search_problem(job: BalanceJob) -> Problem:
    """The job's meta or band search (with the adapted objective: the meta search of its
    printed decks)."""
    cards, decks = engine_objects(job.cards, job.decks)
    field = Field(cards=cards, decks=tuple(decks), agent=job.agent, ruleset=Ruleset())
    space = SearchSpace.for_decks(field.decks, cards, only=job.allowed_cards or None,
                                  fields=job.fields or ("cost", "attack", "hp"),
                                  spread=job.spread)
    return Problem(field=field, space=space, band=(job.band_low, job.band_high),
                   max_changes=job.max_changes, seed=job.seed, budget_games=job.budget_games,
                   verify_games=job.verify_games, objective=job.objective,
                   field_band=(job.field_band_low, job.field_band_high),
                   matchup_band=(job.matchup_band_low, job.matchup_band_high),
                   epsilon=job.epsilon, min_share=job.min_share,
                   strong_agents=tuple(job.further_agents or ()),
                   strong_budget_games=job.strong_budget_games,
                   strong_verify_games=job.strong_verify_games,
                   start=patch_candidate(Patch.from_dict(job.live_patch), cards)
                   if job.live_patch else (), max_edits=job.max_edits)


def search_games(*, decks: int, budget_games: int, verify_games: int,
                 objective: str = "band", options: dict[str, Any] | None = None) -> int:
    """The games a search plays at most: its budget, then the re-verification on fresh seeds
    (the unpatched field and ``VERIFY_FRONT`` candidates, each matchup — the meta objective
    confirms a pick that meets on twice the games, so each of its picks may cost two
    verifications)."""
    if objective == "adapted":
        return adapted_games(decks=decks, budget_games=budget_games,
                             verify_games=verify_games, options=options or {})
    verify = -(-verify_games // BLOCK) * BLOCK
    verifications = 1 + VERIFY_FRONT * (CONFIRM_FACTOR if objective == "meta" else 1)
    return budget_games + verify * decks * (decks - 1) // 2 * verifications


def adapted_games(*, decks: int, budget_games: int, verify_games: int,
                  options: dict[str, Any]) -> int:
    """About the most games: each search's budget and re-verification, each forecast's budget
    and its settled field and exploitability (``balance.forecast.problem``)."""
    o = adapted_options(options)
    search = search_games(decks=decks, budget_games=budget_games, verify_games=verify_games,
                          objective="meta")
    forecast = o["forecast_budget_games"] + forecast_verify_estimate(decks, 400)
    return int(o["iterations"] * search + (o["iterations"] + 1) * forecast)


def search_strong_games(*, decks: int, strong_budget_games: int, strong_verify_games: int
                        ) -> int:
    """The games the further agents play at most: their budget, then their re-verification
    (the unpatched field, and ``STRONG_VERIFY_PICKS`` picks each confirmed on twice the
    games, every matchup)."""
    verify = -(-strong_verify_games // BLOCK) * BLOCK
    verifications = 1 + STRONG_VERIFY_PICKS * (1 + CONFIRM_FACTOR)
    return strong_budget_games + verify * decks * (decks - 1) // 2 * verifications


def search_result(job: BalanceJob, result: SearchResult | AdaptedResult) -> dict[str, Any]:
    if isinstance(result, AdaptedResult):
        return result.to_dict()
    return result.to_dict(job.deck_names)


def search_verify_estimate(decks: int, verify_games: int) -> int:
    """About the games a search's re-verification plays: the unpatched field and four
    candidates, each matchup."""
    return 5 * (decks * (decks - 1) // 2) * verify_games
