"""Running a job on a worker (a balance search or a deck tuning): claim it, replay the search,
keep what it plays.

An execution claims the job through the one work protocol (``simulations.work``: a lease in
the database, renewed by a heartbeat thread while the games play), rebuilds the frozen field
and runs the pure search (``rules.balance_search``) with an evaluator that looks every block up
in ``JobBlock`` first and plays only what is missing, writing each piece as soon as it is played
(checking the claim as it writes). A killed worker therefore loses at most one piece: the
reaper hands the job back, the dispatcher sends it again, and the new execution replays the
search — the same seeds and budget give the same candidates — over the blocks already stored,
then carries on.

Invariants: a piece is written under the unique (job, key, index) constraint, so a twin
execution's blocks count once (they are the same games); an execution that finds its claim gone
(cancelled, or reclaimed after its lease expired) stops without writing the result.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy

from balance import conf
from balance.models import ACTIVE_JOB_STATUSES, BalanceJob, JobBlock, JobKind, JobStatus
from balance.tuning import TuningCodec, tuning_problem
from rules.balance_search import (
    BLOCK,
    EvalTask,
    Field,
    LocalEvaluator,
    Problem,
    SearchSpace,
    Tally,
    balance_search,
)
from rules.deck_tuning import tune_deck
from rules.engine.cards import Ruleset
from simulations import conf as sim_conf
from simulations import work
from simulations.fair import dispatch_quietly
from simulations.sources import engine_objects

log = logging.getLogger(__name__)
GAVE_UP = gettext_lazy("The search was started {attempts} times without finishing; it is given up.")


def _give_up(job_id: int) -> None:
    """A job started ``BALANCE_MAX_ATTEMPTS`` times without finishing fails for good."""
    job = BalanceJob.objects.filter(pk=job_id).only("attempts").first()
    if job is not None:
        (BalanceJob.objects.filter(pk=job_id, status__in=ACTIVE_JOB_STATUSES)
         .update(status=JobStatus.FAILED, finished_at=timezone.now(), claim="",
                 lease_until=None, error=str(GAVE_UP.format(attempts=job.attempts))))


JOB_WORK = work.WorkKind(
    name="job", model=BalanceJob, task="balance.tasks.balance_job_run", state="status",
    waiting=JobStatus.QUEUED, running=JobStatus.RUNNING, owner="owner",
    submitted="created_at", max_attempts=conf.max_attempts, give_up=_give_up)

# The job was cancelled or taken over while this execution played it.
ClaimLost = work.LeaseLost


def block_key(task: EvalTask) -> str:
    moves = [[m.card, m.field, list(m.value) if isinstance(m.value, tuple) else m.value]
             for m in task.moves]
    text = json.dumps([moves, task.a, task.b, task.seed], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def job_claim(*, job_id: int, claim: str, worker: str) -> BalanceJob | None:
    """Take the job for this execution (``work.claim``), or None (finished, held by a live
    execution, or given up now that its attempts are spent)."""
    return work.claim(JOB_WORK, pk=job_id, claim=claim, worker=worker)


def _renew(job: BalanceJob, claim: str, **changes: Any) -> None:
    """Renew the lease (and save ``changes``) while the claim holds; ClaimLost otherwise."""
    work.renew(JOB_WORK, pk=job.pk, claim=claim, **changes)


class BalanceCodec:
    """How a balance search's blocks are keyed, played and stored (``Tally`` lists)."""

    block_games = BLOCK

    def __init__(self, field: Field):
        self.local = LocalEvaluator(field, processes=1)

    def key(self, task: EvalTask) -> str:
        return block_key(task)

    def play(self, task: EvalTask, first: int, blocks: int) -> list[Tally]:
        run = EvalTask(task.moves, task.a, task.b, task.seed, first, blocks)
        return self.local.evaluate([run])[0]

    def dump(self, result: Tally) -> Any:
        return result.to_list()

    def load(self, data: Any) -> Tally:
        return Tally.from_list(data)


class StoredEvaluator:
    """Blocks from ``JobBlock`` when stored; the rest played here and stored piece by piece.

    Generic over what a block is: a ``codec`` keys a task, plays some of its blocks and turns a
    block's result into JSON and back (``BalanceCodec``; ``tuning.TuningCodec``)."""

    def __init__(self, job: BalanceJob, field: Field | None, claim: str, codec: Any = None):
        self.job, self.claim = job, claim
        self.codec = codec if codec is not None else BalanceCodec(field)
        self.played = 0

    def evaluate(self, tasks: Sequence[Any]) -> list[list[Any]]:
        return [self._task(task) for task in tasks]

    def _task(self, task: Any) -> list[Any]:
        key = self.codec.key(task)
        wanted = range(task.first, task.first + task.blocks)
        stored = {row.index: self.codec.load(row.tally) for row in
                  JobBlock.objects.filter(job=self.job, key=key, index__in=list(wanted))}
        missing = [i for i in wanted if i not in stored]
        for indices in _pieces(missing, conf.piece_blocks()):
            if sim_conf.chunk_pause():       # fault tests: a moment to kill the worker in
                time.sleep(sim_conf.chunk_pause())
            tallies = self.codec.play(task, indices[0], len(indices))
            self._store(key, indices, tallies)
            stored.update(zip(indices, tallies, strict=True))
        return [stored[i] for i in wanted]

    def _store(self, key: str, indices: list[int], tallies: list[Any]) -> None:
        games = len(indices) * self.codec.block_games
        with transaction.atomic():
            _renew(self.job, self.claim, games_played=F("games_played") + games)
            JobBlock.objects.bulk_create(
                [JobBlock(job=self.job, key=key, index=i, tally=self.codec.dump(t))
                 for i, t in zip(indices, tallies, strict=True)], ignore_conflicts=True)
        self.played += games


def _pieces(indices: list[int], size: int) -> list[list[int]]:
    """Consecutive runs of at most ``size`` block indices."""
    out: list[list[int]] = []
    for i in indices:
        if out and out[-1][-1] == i - 1 and len(out[-1]) < size:
            out[-1].append(i)
        else:
            out.append([i])
    return out


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


def job_execute(*, job_id: int, claim: str, worker: str) -> str:
    """Play (or resume) a job to its end; returns what happened, for the worker's log."""
    job = job_claim(job_id=job_id, claim=claim, worker=worker)
    dispatch_quietly()   # its message left the broker: send the next piece in its place
    if job is None:
        return "skipped"
    if job.kind == JobKind.TUNING:
        tuning = tuning_problem(job)
        return _execute(job, claim, TuningCodec(tuning.field),
                        lambda evaluator, progress: tune_deck(tuning, evaluator,
                                                              progress=progress),
                        lambda result: result.to_dict(job.deck_names[1:]))
    problem = job_problem(job)
    return _execute(job, claim, BalanceCodec(problem.field),
                    lambda evaluator, progress: balance_search(problem, evaluator,
                                                               progress=progress),
                    lambda result: result.to_dict(job.deck_names))


def _execute(job: BalanceJob, claim: str, codec: Any,
             search: Callable[[StoredEvaluator, Callable[[dict[str, Any]], None]], Any],
             to_dict: Callable[[Any], dict[str, Any]]) -> str:
    evaluator = StoredEvaluator(job, None, claim, codec)
    start = time.monotonic()

    def progress(event: dict[str, Any]) -> None:
        elapsed = time.monotonic() - start
        rate = evaluator.played / elapsed if evaluator.played and elapsed > 1 else None
        _renew(job, claim, progress={**event, "rate": rate,
                                     "updated": timezone.now().isoformat()})

    try:
        with work.Heartbeat(JOB_WORK, pk=job.pk, claim=claim):   # the lease, between pieces
            result = search(evaluator, progress)
    except ClaimLost:
        return "lost"
    except (OperationalError, InterfaceError):
        raise   # the database is away: the task retries with backoff, keeping its claim
    except Exception:  # a bug: handed back with a backoff, given up after its attempts
        log.exception("balance job %s failed", job.pk)
        work.release(JOB_WORK, pk=job.pk, claim=claim,
                     backoff=work.backoff_seconds(job.attempts))
        return "error"
    updated = (BalanceJob.objects.filter(pk=job.pk, claim=claim, status=JobStatus.RUNNING)
               .update(status=JobStatus.DONE, result=to_dict(result),
                       finished_at=timezone.now(), lease_until=None))
    return "done" if updated else "lost"
