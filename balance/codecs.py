"""How a job's blocks are keyed, played, stored and sent to another process: one codec per kind
of job (a balance search's ``Tally`` lists, a tuning's outcome strings, ``balance.tuning``).

A codec turns a task of the pure search into JSON (``encode``/``decode``: a piece row carries
it to any worker), keys it (``key``: the ``JobBlock`` rows of the same games share it), plays
some of its blocks (``play``) and turns a block's result into JSON and back (``dump``/``load``).

Invariant: ``job_codec`` reads only the job's frozen row, so every process that plays a piece of
a job plays the same games the job's own execution would.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

from balance.models import BalanceJob, JobKind
from balance.tuning import TuningCodec, tuning_problem
from rules.engine.cards import Ruleset
from rules.lab.balance_search import (
    BLOCK,
    EvalTask,
    Field,
    LocalEvaluator,
    Problem,
    SearchSpace,
    Tally,
)
from rules.lab.balance_search.space import Move
from simulations.sources import engine_objects


def block_key(task: EvalTask) -> str:
    moves = [[m.card, m.field, list(m.value) if isinstance(m.value, tuple) else m.value]
             for m in task.moves]
    text = json.dumps([moves, task.a, task.b, task.seed], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class BalanceCodec:
    """A balance search's blocks: keyed by the relevant moves, matchup and seed; ``Tally``."""

    block_games = BLOCK

    def __init__(self, field: Field):
        self.local = LocalEvaluator(field, processes=1)

    def key(self, task: EvalTask) -> str:
        return block_key(task)

    def play(self, task: EvalTask, first: int, blocks: int) -> list[Tally]:
        run = EvalTask(task.moves, task.a, task.b, task.seed, first, blocks)
        return self.local.evaluate([run])[0]

    def encode(self, task: EvalTask) -> Any:
        moves = [[m.card, m.field, list(m.value) if isinstance(m.value, tuple) else m.value,
                  m.size, m.step] for m in task.moves]
        return {"moves": moves, "a": task.a, "b": task.b, "seed": task.seed}

    def decode(self, data: Any) -> EvalTask:
        moves = tuple(Move(card, field, tuple(value) if isinstance(value, list) else value,
                           size, step) for card, field, value, size, step in data["moves"])
        return EvalTask(moves, data["a"], data["b"], data["seed"], 0, 0)

    def dump(self, result: Tally) -> Any:
        return result.to_list()

    def load(self, data: Any) -> Tally:
        return Tally.from_list(data)


def job_problem(job: BalanceJob) -> Problem:
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
                   epsilon=job.epsilon, min_share=job.min_share)


# Codecs by (job id, uid): a job never changes what it plays, so a worker process parses its
# frozen cards once however many of its pieces it plays.
_CODECS: OrderedDict[tuple[int, str], Any] = OrderedDict()


def job_codec(job: BalanceJob) -> Any:
    key = (job.pk, job.uid)
    if key not in _CODECS:
        if job.kind == JobKind.TUNING:
            _CODECS[key] = TuningCodec(tuning_problem(job).field)
        else:
            _CODECS[key] = BalanceCodec(job_problem(job).field)
        while len(_CODECS) > 8:
            _CODECS.popitem(last=False)
    return _CODECS[key]
