"""The jobs' reaper: sends again a search whose execution was lost.

Two cases, each re-sent by a conditional UPDATE so that when many reapers run at once exactly
one of them sends: a running job whose lease expired (its worker was killed or cut off), and a
queued job whose message has waited longer than the simulation service's queue lease (lost by
the broker). The execution that receives it resumes from the blocks stored (``runner``).
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from django.core.cache import cache
from django.db import close_old_connections, transaction
from django.db.models import F, Q
from django.utils import timezone

from balance.dispatch import send_job
from balance.models import BalanceJob, JobStatus
from simulations import conf as sim_conf

log = logging.getLogger(__name__)
REAP_SOON_KEY = "balance:reap-soon"


def balance_reap(*, node: str | None = None, now=None) -> list[int]:
    """One pass; returns the ids of the jobs sent again."""
    now = now or timezone.now()
    lost = Q(status=JobStatus.RUNNING, lease_until__lt=now)
    if node:
        lost |= Q(status=JobStatus.RUNNING, worker=node)
    stale = now - timedelta(seconds=sim_conf.queue_lease_seconds())
    lost |= Q(status=JobStatus.QUEUED, sent_at__lt=stale)
    sent = []
    with transaction.atomic():
        for job in BalanceJob.objects.filter(lost).only("pk", "sends", "claim")[:100]:
            if BalanceJob.objects.filter(pk=job.pk, sends=job.sends, claim=job.claim).filter(
                    lost).update(status=JobStatus.QUEUED, claim="", sent_at=now,
                                 sends=F("sends") + 1):
                sent.append(job.pk)
        if sent:
            transaction.on_commit(lambda: [send_job(pk) for pk in sent], robust=True)
    if sent:
        log.warning("balance reaper re-sent %d search(es)", len(sent))
    return sent


def reap_soon() -> None:
    """A rate-limited pass (job pages call it while they poll). Never raises."""
    try:
        if cache.add(REAP_SOON_KEY, 1, timeout=sim_conf.reap_seconds()):
            balance_reap()
    except Exception:
        log.exception("balance reaper pass failed")


class ReaperThread(threading.Thread):
    def __init__(self, interval: float):
        super().__init__(name="balance-reaper", daemon=True)
        self.interval = interval
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            try:
                close_old_connections()
                balance_reap()
            except Exception:
                log.exception("balance reaper pass failed")
            finally:
                close_old_connections()

    def stop(self) -> None:
        self.stopped.set()
