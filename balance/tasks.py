"""Celery tasks: another door into the services. Ids in, idempotent, nothing else."""

from __future__ import annotations

from celery import Task, shared_task

from balance import pieces, runner
from work import protocol
from work.fair import dispatch_quietly
from work.reaper import reap_soon


@shared_task(name=runner.JOB_WORK.task, **protocol.LONG_TASK_OPTIONS)
def balance_job_run(self: Task[[int], str], job_id: int) -> str:
    """Run or resume one balance search or tuning (safe to deliver any number of times)."""
    outcome = runner.job_execute(job_id=job_id, claim=self.request.id or "",
                                 worker=self.request.hostname or "")
    dispatch_quietly()
    reap_soon()
    return outcome


@shared_task(name=pieces.PIECE_WORK.task, **protocol.TASK_OPTIONS)
def balance_piece_run(self: Task[[int], str], piece_id: int) -> str:
    """Play one piece of a job's games (safe to deliver any number of times)."""
    outcome = pieces.piece_execute(piece_id=piece_id, claim=self.request.id or "",
                                   worker=self.request.hostname or "")
    dispatch_quietly()
    reap_soon()
    return outcome
