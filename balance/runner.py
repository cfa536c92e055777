"""Running a job on a worker (a balance search or a deck tuning): claim it, replay the search,
fan its games out, keep what they find.

An execution — the job's coordinator — claims the job through the one work protocol
(``work.protocol``: a lease in the database, renewed by a heartbeat thread), rebuilds the
frozen field and runs the pure search (``rules.lab.balance_search``,
``rules.lab.deck_tuning``) with an evaluator that looks every block up in ``JobBlock`` first
and sends only what is missing as pieces any worker process plays (``balance.pieces``),
waiting on the database for them. A killed coordinator therefore loses no games: the reaper
hands the job back, the dispatcher sends it again, and the new execution replays the search —
the same seeds and budget give the same candidates — over the blocks already stored, then
carries on; a killed piece's worker loses that piece alone, which the reaper sends again.

Invariants: a block is written under the unique (job, key, index) constraint, so a twin
execution's blocks count once (they are the same games); an execution that finds its claim gone
(cancelled, or reclaimed after its lease expired) stops without writing the result.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from django.db import InterfaceError, OperationalError
from django.utils import timezone
from django.utils.translation import gettext_lazy

from balance import conf, pieces
from balance.kinds import KINDS, job_codec
from balance.models import BalanceJob, JobBlock
from work import protocol
from work.fair import dispatch_quietly
from work.models import ACTIVE_WORK_STATUSES, WorkStatus

log = logging.getLogger(__name__)
GAVE_UP = gettext_lazy("The search was started {attempts} times without finishing; it is given up.")


def _give_up(job_id: int) -> None:
    """A job started ``BALANCE_MAX_ATTEMPTS`` times without finishing fails for good."""
    job = BalanceJob.objects.filter(pk=job_id).only("attempts").first()
    if job is not None:
        (BalanceJob.objects.filter(pk=job_id, status__in=ACTIVE_WORK_STATUSES)
         .update(status=WorkStatus.FAILED, finished_at=timezone.now(), claim="",
                 lease_until=None, error=str(GAVE_UP.format(attempts=job.attempts))))


JOB_WORK = protocol.WorkKind(
    name="job", model=BalanceJob, task="balance.tasks.balance_job_run", state="status",
    waiting=WorkStatus.QUEUED, running=WorkStatus.RUNNING, owner="owner",
    submitted="created_at", max_attempts=conf.max_attempts, give_up=_give_up)

# The job was cancelled or taken over while this execution played it.
ClaimLost = protocol.LeaseLost


def job_claim(*, job_id: int, claim: str, worker: str) -> BalanceJob | None:
    """Take the job for this execution (``protocol.claim``), or None (finished, held by a live
    execution, or given up now that its attempts are spent)."""
    return protocol.claim(JOB_WORK, pk=job_id, claim=claim, worker=worker)


def _renew(job: BalanceJob, claim: str, **changes: Any) -> None:
    """Renew the lease (and save ``changes``) while the claim holds; ClaimLost otherwise."""
    protocol.renew(JOB_WORK, pk=job.pk, claim=claim, **changes)


class StoredEvaluator:
    """Blocks from ``JobBlock`` when stored; the missing ones fanned out as pieces
    (``balance.pieces``) that any worker process plays — this one too — and waited for.

    Generic over what a block is: a ``codec`` (``balance.kinds``) keys, sends and plays a task
    and stores its blocks' results."""

    def __init__(self, job: BalanceJob, claim: str, worker: str, codec: Any):
        self.job, self.claim, self.codec = job, claim, codec
        self.waiter = pieces.PieceWaiter(job, claim, worker, codec)
        self.played = 0

    def evaluate(self, tasks: Sequence[Any]) -> list[list[Any]]:
        keys = [self.codec.key(task) for task in tasks]
        stored = self._stored(keys)
        batch = [(key, task, range(task.first, task.first + task.blocks))
                 for key, task in zip(keys, tasks, strict=True)]
        missing = sum((key, i) not in stored for key, _, indices in batch for i in indices)
        if missing:
            self.waiter.wait(pieces.pieces_post(self.job, batch, stored.keys(), self.codec))
            stored = self._stored(keys)
            self.played += missing * self.codec.block_games
        return [[stored[key, i] for i in indices] for key, _, indices in batch]

    def _stored(self, keys: list[str]) -> dict[tuple[str, int], Any]:
        rows = JobBlock.objects.filter(job=self.job, key__in=set(keys)).values_list(
            "key", "index", "tally")
        return {(key, index): self.codec.load(tally) for key, index, tally in rows}


def job_execute(*, job_id: int, claim: str, worker: str) -> str:
    """Play (or resume) a job to its end; returns what happened, for the worker's log."""
    job = job_claim(job_id=job_id, claim=claim, worker=worker)
    dispatch_quietly()   # its message left the broker: send the next piece in its place
    if job is None:
        return "skipped"
    kind = KINDS[job.kind]
    problem = kind.problem(job)
    evaluator = StoredEvaluator(job, claim, worker, job_codec(job))
    return _execute(job, claim, evaluator,
                    lambda progress: kind.search(problem, evaluator, progress=progress),
                    lambda result: kind.result(job, result))


def _execute(job: BalanceJob, claim: str, evaluator: StoredEvaluator,
             search: Callable[[Callable[[dict[str, Any]], None]], Any],
             to_dict: Callable[[Any], dict[str, Any]]) -> str:
    start = time.monotonic()

    def progress(event: dict[str, Any]) -> None:
        elapsed = time.monotonic() - start
        rate = evaluator.played / elapsed if evaluator.played and elapsed > 1 else None
        _renew(job, claim, progress={**event, "rate": rate,
                                     "updated": timezone.now().isoformat()})

    try:
        with protocol.Heartbeat(JOB_WORK, pk=job.pk, claim=claim):   # the lease, between pieces
            result = search(progress)
    except ClaimLost:
        return "lost"
    except (OperationalError, InterfaceError):
        raise   # the database is away: the task retries with backoff, keeping its claim
    except pieces.PieceFailed:   # a piece's workers kept dying: the job tries again later
        log.warning("balance job %s: a piece was given up", job.pk)
        protocol.release(JOB_WORK, pk=job.pk, claim=claim,
                         backoff=protocol.backoff_seconds(job.attempts))
        return "error"
    except Exception:  # a bug: handed back with a backoff, given up after its attempts
        log.exception("balance job %s failed", job.pk)
        protocol.release(JOB_WORK, pk=job.pk, claim=claim,
                         backoff=protocol.backoff_seconds(job.attempts))
        return "error"
    updated = (BalanceJob.objects.filter(pk=job.pk, claim=claim, status=WorkStatus.RUNNING)
               .update(status=WorkStatus.DONE, result=to_dict(result),
                       finished_at=timezone.now(), lease_until=None))
    return "done" if updated else "lost"
