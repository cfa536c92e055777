"""The reaper: finds chunks whose worker or message was lost, and sends them again.

The database says what is done; the broker may lose messages (kombu's filesystem transport
drops a message taken by a worker that is SIGKILLed; a Redis without persistence drops its
queues when it restarts). Four cases, each re-sent by a conditional UPDATE so that when many
reapers run at once (one per worker, plus status polls) exactly one of them sends:

1. a worker starts: chunks still marked as held by its node name belong to its previous life;
2. a running chunk's lease expired: its worker stopped reporting (killed, or cut off);
3. a pending chunk's lease expired: it waited out a backoff after an error, or sat queued for
   ``queue_lease_seconds``;
4. a stall: chunks wait, but no chunk anywhere has started or reported for ``stall_seconds`` —
   the queue is presumed lost. Each chunk is re-sent at most once per stall period, doubling
   the period with each send, so a long outage does not flood the queue.

A chunk re-sent too often is given up by the claim (``max_attempts`` counts starts, not sends).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from datetime import timedelta

from django.core.cache import cache
from django.db import close_old_connections, transaction
from django.db.models import F
from django.utils import timezone

from simulations import conf
from simulations.dispatch import send_chunks
from simulations.models import Chunk, ChunkState

log = logging.getLogger(__name__)
BATCH = 500
REAP_SOON_KEY = "simulations:reap-soon"


def _resend(chunks, *, now, reason: str, expect_state: str) -> list[int]:
    """Hand each chunk back to the queue unless someone changed it since it was read."""
    lease = now + timedelta(seconds=conf.queue_lease_seconds())
    sent = []
    for chunk in chunks:
        updated = (Chunk.objects.filter(pk=chunk.pk, state=expect_state, sends=chunk.sends,
                                        claim=chunk.claim)
                   .update(state=ChunkState.PENDING, claim="", sent_at=now, lease_until=lease,
                           sends=F("sends") + 1,
                           error=(f"{reason} (worker {chunk.worker}); {chunk.error}"[:4000]
                                  if reason else chunk.error)))
        if updated:
            sent.append(chunk.pk)
    return sent


def simulation_reap(*, node: str | None = None, now=None) -> Counter:
    """One pass of the reaper; returns how many chunks it re-sent, by reason."""
    now = now or timezone.now()
    report: Counter = Counter()
    fields = ("pk", "sends", "claim", "error", "worker", "sent_at")
    with transaction.atomic():
        groups = []
        if node:
            groups.append(("restarted", ChunkState.RUNNING,
                           Chunk.objects.filter(state=ChunkState.RUNNING, worker=node)))
        groups.append(("lease expired", ChunkState.RUNNING,
                       Chunk.objects.filter(state=ChunkState.RUNNING, lease_until__lt=now)))
        groups.append(("queued too long", ChunkState.PENDING,
                       Chunk.objects.filter(state=ChunkState.PENDING, lease_until__lt=now)))
        stall = timedelta(seconds=conf.stall_seconds())
        waiting = Chunk.objects.filter(state=ChunkState.PENDING, sent_at__lt=now - stall)
        if waiting.exists() and not Chunk.objects.filter(touched_at__gte=now - stall).exists():
            due = [c for c in waiting.only(*fields)[:BATCH]
                   if c.sent_at < now - stall * 2 ** min(max(c.sends - 1, 0), 6)]
            groups.append(("queue stalled", ChunkState.PENDING, due))
        sent: list[int] = []
        for reason, state, chunks in groups:
            if not isinstance(chunks, list):
                chunks = list(chunks.only(*fields)[:BATCH])
            ids = _resend(chunks, now=now, reason=reason if state == ChunkState.RUNNING
                          else "", expect_state=state)
            report[reason] += len(ids)
            sent += ids
        if sent:
            transaction.on_commit(lambda: send_chunks(sent), robust=True)
    if sent:
        log.warning("simulation reaper re-sent %d chunk(s): %s", len(sent), dict(report))
    return report


def reap_rate_limited(key: str, reap: Callable[[], object], what: str) -> None:
    """Run ``reap`` unless a pass under ``key`` ran in the last ``reap_seconds`` (the cache is
    shared, so across processes too). Never raises: a failed pass is logged and the next one
    tries again."""
    try:
        if cache.add(key, 1, timeout=conf.reap_seconds()):
            reap()
    except Exception:
        log.exception("%s reaper pass failed", what)


def reap_soon() -> None:
    """A cheap, rate-limited reaper pass (status polls and finishing chunks call it)."""
    reap_rate_limited(REAP_SOON_KEY, simulation_reap, "simulation")


class ReaperThread(threading.Thread):
    """A worker's periodic reaper (no Celery beat needed): ``reap()`` every ``interval``
    seconds, each pass on fresh database connections. The balance jobs use it too."""

    def __init__(self, interval: float, reap: Callable[[], object] = simulation_reap,
                 what: str = "simulation"):
        super().__init__(name=f"{what}-reaper", daemon=True)
        self.interval = interval
        self.reap = reap
        self.what = what
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            try:
                close_old_connections()
                self.reap()
            except Exception:
                log.exception("%s reaper pass failed", self.what)
            finally:
                close_old_connections()

    def stop(self) -> None:
        self.stopped.set()
