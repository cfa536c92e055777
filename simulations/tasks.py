"""Celery tasks: another door into the services. Ids in, idempotent, nothing else."""

from __future__ import annotations

from celery import Task, shared_task

from simulations.execution import CHUNK_WORK, chunk_execute
from work import protocol
from work.fair import dispatch_quietly
from work.reaper import reap_soon


@shared_task(name=CHUNK_WORK.task, **protocol.TASK_OPTIONS)
def simulation_chunk_run(self: Task[[int], str], chunk_id: int) -> str:
    """Play one chunk of a simulation run (safe to deliver any number of times)."""
    outcome = chunk_execute(chunk_id=chunk_id, claim=self.request.id or "",
                            worker=self.request.hostname or "")
    dispatch_quietly()
    reap_soon()
    return outcome
