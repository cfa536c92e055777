"""What makes a balance search, a deck tuning and a meta forecast different jobs — and nothing
else does.

Every kind of job takes one path: it is frozen and queued (``balance.services``), claimed,
leased, resumed and reaped (``balance.runner``, ``work.protocol``), its games fanned out as
pieces (``balance.pieces``) and cancelled the same way. A ``Kind`` holds the few parts that
differ: how the frozen row becomes the pure problem (``rules.lab.balance_search``,
``rules.lab.deck_tuning``), the codec of its blocks, the pure search that solves it, how its
result is stored, and the most games it may play (the CPU cap counts them).

A codec turns a task of the pure search into JSON (``encode``/``decode``: a piece row carries it
to any worker), keys it (``key``: the ``JobBlock`` rows of the same games share it), plays some
of its blocks (``play``) and turns a block's result into JSON and back (``dump``/``load``).

Invariant: ``job_codec`` reads only the job's frozen row, so every process that plays a piece of
a job plays the same games the job's own execution would.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from balance.forecast.problem import (
    ForecastCodec,
    forecast_games,
    forecast_problem,
    forecast_result_dict,
    forecast_verify_estimate,
)
from balance.models import BalanceJob, JobKind
from balance.search.problem import (
    job_search_problem,
    search_codec,
    search_games,
    search_result,
    search_run,
    search_verify_estimate,
)
from balance.tuning.problem import (
    TuningCodec,
    tuning_games,
    tuning_problem,
    tuning_result_dict,
    tuning_verify_estimate,
)
from rules.lab.deck_tuning import tune_deck
from rules.lab.forecast import forecast


@dataclass(frozen=True)
class Kind:
    problem: Callable[[BalanceJob], Any]                   # the frozen row → the pure problem
    codec: Callable[[Any], Any]                            # the problem → its blocks' codec
    search: Callable[..., Any]                             # (problem, evaluator, progress=)
    result: Callable[[BalanceJob, Any], dict[str, Any]]    # the search's result, as stored
    games: Callable[..., int]                              # the most games a job plays
    # (decks, verify_games) → about how many games its re-verification plays, for its progress
    verify_estimate: Callable[[int, int], int]


KINDS: dict[str, Kind] = {
    JobKind.BALANCE: Kind(problem=job_search_problem, codec=search_codec,
                          search=search_run, result=search_result, games=search_games,
                          verify_estimate=search_verify_estimate),
    JobKind.TUNING: Kind(problem=tuning_problem,
                         codec=lambda problem: TuningCodec(problem.field),
                         search=tune_deck, result=tuning_result_dict, games=tuning_games,
                         verify_estimate=tuning_verify_estimate),
    JobKind.FORECAST: Kind(problem=forecast_problem, codec=ForecastCodec, search=forecast,
                           result=forecast_result_dict, games=forecast_games,
                           verify_estimate=forecast_verify_estimate),
}


def job_games(*, kind: str, decks: int, budget_games: int, verify_games: int,
              objective: str = "band", options: dict[str, Any] | None = None) -> int:
    """The games a job of ``kind`` plays at most: its budget, then its re-verification
    (``options``: the adapted objective's, ``balance.search.adapted``)."""
    extra = {"options": options} if objective == "adapted" else {}
    return KINDS[kind].games(decks=decks, budget_games=budget_games,
                             verify_games=verify_games, objective=objective, **extra)


# Codecs by (job id, uid): a job never changes what it plays, so a worker process parses its
# frozen cards once however many of its pieces it plays.
_CODECS: OrderedDict[tuple[int, str], Any] = OrderedDict()


def job_codec(job: BalanceJob) -> Any:
    key = (job.pk, job.uid)
    if key not in _CODECS:
        kind = KINDS[job.kind]
        _CODECS[key] = kind.codec(kind.problem(job))
        while len(_CODECS) > 8:
            _CODECS.popitem(last=False)
    return _CODECS[key]
