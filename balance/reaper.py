"""The jobs' reaper: sends again a search whose execution was lost.

Two cases, each re-sent by a conditional UPDATE so that when many reapers run at once exactly
one of them sends: a running job whose lease expired (its worker was killed or cut off), and a
queued job whose message has waited longer than the simulation service's queue lease (lost by
the broker). The execution that receives it resumes from the blocks stored (``runner``).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from balance.dispatch import send_job
from balance.models import BalanceJob, JobStatus
from simulations import conf as sim_conf
from simulations.reaper import reap_rate_limited

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
    reap_rate_limited(REAP_SOON_KEY, balance_reap, "balance")
