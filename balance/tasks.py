"""Celery tasks: another door into the services. Ids in, idempotent, nothing else."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from balance import runner


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             autoretry_for=(OperationalError, InterfaceError), retry_backoff=2,
             retry_backoff_max=60, retry_jitter=True, max_retries=8)
def balance_job_run(self, job_id: int) -> str:
    """Run or resume one balance search (safe to deliver any number of times)."""
    return runner.job_execute(job_id=job_id, claim=self.request.id or "",
                              worker=self.request.hostname or "")
