"""A deck tuning job's frozen input back to the pure problem (``rules.lab.deck_tuning``), the
most games it may play, and how its blocks are keyed, played, sent and stored (its codec, of
outcome strings: ``balance.kinds`` says what a codec does).

Invariant: ``tuning_problem`` reads only the job's row (frozen decks, card data, format), never
the catalogue, so every execution of a job — first or resumed — searches the same problem.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from balance.models import BalanceJob
from rules.decks.legality import Format
from rules.engine.cards import DeckList, Ruleset
from rules.lab.deck_tuning import (
    BLOCK,
    TuneField,
    TuneTask,
    TuningProblem,
    TuningResult,
    play_tune_task,
)
from simulations.sources import engine_objects


def format_to_dict(fmt: Format) -> dict[str, Any]:
    return {"code": fmt.code, "name": fmt.name, "hero_count": fmt.hero_count,
            "deck_min": fmt.deck_min, "deck_max": fmt.deck_max,
            "deck_kinds": list(fmt.deck_kinds), "copy_limits": dict(fmt.copy_limits),
            "default_copy_limit": fmt.default_copy_limit,
            "card_limits": dict(fmt.card_limits),
            "legal_sets": list(fmt.legal_sets) if fmt.legal_sets is not None else None}


def format_from_dict(data: dict[str, Any]) -> Format:
    sets = data.get("legal_sets")
    return Format(code=data["code"], name=data["name"], hero_count=data["hero_count"],
                  deck_min=data["deck_min"], deck_max=data["deck_max"],
                  deck_kinds=tuple(data["deck_kinds"]), copy_limits=dict(data["copy_limits"]),
                  default_copy_limit=data["default_copy_limit"],
                  card_limits=dict(data["card_limits"]),
                  legal_sets=tuple(sets) if sets is not None else None)


def tuning_problem(job: BalanceJob) -> TuningProblem:
    spec = job.tuning or {}
    cards, decks = engine_objects(job.cards, job.decks)
    shares = spec.get("shares")
    field = TuneField(cards=cards, opponents=tuple(decks[1:]), agent=job.agent,
                      ruleset=Ruleset(), weights=tuple(shares) if shares else None)
    deck = DeckList.from_counts(decks[0].hero, decks[0].counts(), decks[0].name)
    return TuningProblem(field=field, deck=deck, fmt=format_from_dict(spec["format"]),
                         set_of=spec.get("set_of") or None, pool=tuple(spec["pool"]),
                         keep=frozenset(spec.get("keep") or ()),
                         heroes=tuple(spec.get("heroes") or ()),
                         max_swaps=job.max_changes, seed=job.seed,
                         budget_games=job.budget_games, verify_games=job.verify_games)


def tune_block_key(task: TuneTask) -> str:
    text = json.dumps(["tune", task.deck[0], [list(c) for c in task.deck[1]], task.opponent,
                       task.seed])
    return hashlib.sha256(text.encode()).hexdigest()


class TuningCodec:
    """A tuning's blocks: keyed by deck, opponent and seed; each block an outcome string."""

    block_games = BLOCK

    def __init__(self, field: TuneField):
        self.field = field

    def key(self, task: TuneTask) -> str:
        return tune_block_key(task)

    def play(self, task: TuneTask, first: int, blocks: int) -> list[str]:
        return play_tune_task(self.field, TuneTask(task.deck, task.opponent, task.seed, first,
                                                   blocks))

    def encode(self, task: TuneTask) -> Any:
        return {"deck": [task.deck[0], [list(c) for c in task.deck[1]]],
                "opponent": task.opponent, "seed": task.seed}

    def decode(self, data: Any) -> TuneTask:
        hero, cards = data["deck"]
        return TuneTask((hero, tuple((code, n) for code, n in cards)), data["opponent"],
                        data["seed"], 0, 0)

    def dump(self, result: str) -> Any:
        return result

    def load(self, data: Any) -> str:
        return str(data)


def tuning_games(*, decks: int, budget_games: int, verify_games: int,
                 objective: str = "band") -> int:
    """The games a tuning plays at most: its budget, then the re-verification on fresh seeds
    (the deck and its suggestions against each opponent, and the opponents' own pairings).
    ``objective`` is the search's alone."""
    verify = -(-verify_games // BLOCK) * BLOCK
    opponents = decks - 1
    suggestions = TuningProblem.suggestions     # the dataclass field's default
    return (budget_games + verify * opponents * (suggestions + 1)
            + verify * opponents * (opponents - 1) // 2)


def tuning_result_dict(job: BalanceJob, result: TuningResult) -> dict[str, Any]:
    return result.to_dict(job.deck_names[1:])


def tuning_verify_estimate(decks: int, verify_games: int) -> int:
    """About the games a tuning's re-verification plays: the unchanged deck and three
    suggestions against each opponent, and the opponents' own pairings."""
    opponents = decks - 1
    return (4 * opponents + opponents * (opponents - 1) // 2) * verify_games
