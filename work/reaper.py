"""The one reaper: finds work whose worker or message was lost — simulation chunks, balance
jobs and their pieces alike (every kind registered with ``work.protocol``) — and hands it back
to the dispatcher (``work.fair``), which sends it again in its turn.

The database says what is done; the broker may lose messages (kombu's filesystem transport
drops a message taken by a worker that is SIGKILLed; a Redis without persistence drops its
queues when it restarts). Four cases, each handed back by a conditional UPDATE so that when
many reapers run at once (one per worker, plus status polls) exactly one of them does it:

1. a worker starts: rows still marked as held by its node name belong to its previous life;
2. a running row's lease expired: its worker stopped reporting (killed, or cut off);
3. a sent row's message has waited ``queue_lease_seconds``;
4. a stall: messages wait, but nothing anywhere has started or reported for ``stall_seconds``
   — the queue is presumed lost. Each row is handed back at most once per stall period,
   doubling the period with each send, so a long outage does not flood the queue.

A row handed back too often is given up by the claim (``max_attempts`` counts starts, not
sends). Each pass ends with a dispatch, so the broker is topped up even when nothing finished.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db import close_old_connections, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from work import conf, protocol
from work.fair import dispatch, in_broker
from work.protocol import WorkKind

if TYPE_CHECKING:
    from work.models import LeasedWork

log = logging.getLogger(__name__)
BATCH = 500
REAP_SOON_KEY = "simulations:reap-soon"
FIELDS = ("pk", "sends", "claim", "worker", "sent_at")


def _hand_back(kind: WorkKind, rows: Iterable[LeasedWork], *, reason: str, expect: Q) -> int:
    """Make each row wait for the dispatcher again unless someone changed it since it was
    read; a row taken from a worker keeps the reason in its error (chunks keep errors)."""
    count = 0
    for row in rows:
        changes: dict[str, object] = {kind.state: kind.waiting, "claim": "", "sent_at": None,
                                      "lease_until": None}
        if reason and kind.error_field:
            old = getattr(row, kind.error_field, "")
            changes[kind.error_field] = f"{reason} (worker {row.worker}); {old}"[:4000]
        count += (kind.rows().filter(expect, pk=row.pk, sends=row.sends, claim=row.claim)
                  .update(**changes))
    return count


def _stalled(now: datetime) -> bool:
    stall = timedelta(seconds=conf.stall_seconds())
    waiting = any(k.rows().filter(in_broker(k), sent_at__lt=now - stall).exists()
                  for k in protocol.kinds())
    return waiting and not any(k.rows().filter(touched_at__gte=now - stall).exists()
                               for k in protocol.kinds())


def _groups(kind: WorkKind, node: str | None, now: datetime, stalled: bool
            ) -> Iterator[tuple[str, Q, QuerySet[LeasedWork] | list[LeasedWork]]]:
    """(reason, the state a row must still be in, rows) of each case for one kind."""
    running, sent = kind.running_rows(), in_broker(kind)
    fields = FIELDS + ((kind.error_field,) if kind.error_field else ())
    if node:
        yield "restarted", running, kind.rows().filter(running, worker=node).only(*fields)
    yield "lease expired", running, kind.rows().filter(running, lease_until__lt=now).only(*fields)
    yield "queued too long", sent, kind.rows().filter(sent, lease_until__lt=now).only(*fields)
    if stalled:
        stall = timedelta(seconds=conf.stall_seconds())
        rows = kind.rows().filter(sent, sent_at__lt=now - stall).only(*fields)[:BATCH]
        yield "queue stalled", sent, [
            r for r in rows if r.sent_at < now - stall * 2 ** min(max(r.sends - 1, 0), 6)]


def work_reap(*, node: str | None = None, now: datetime | None = None) -> Counter[str]:
    """One pass of the reaper over every kind of work, then a dispatch; returns how many rows
    it handed back by reason (all kinds together), and how many pieces the dispatch sent
    (``"dispatched"``)."""
    now = now or timezone.now()
    report: Counter[str] = Counter()
    with transaction.atomic():
        stalled = _stalled(now)
        for kind in protocol.kinds():
            for reason, expect, rows in _groups(kind, node, now, stalled):
                if not isinstance(rows, list):
                    rows = list(rows[:BATCH])
                running = reason in ("restarted", "lease expired")
                count = _hand_back(kind, rows, reason=reason if running else "", expect=expect)
                report[reason] += count
    if sum(report.values()):
        log.warning("reaper handed back %s", {k: v for k, v in report.items() if v})
    report["dispatched"] = len(dispatch(now=now))
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
    """A cheap, rate-limited reaper pass (status polls and finishing work call it)."""
    reap_rate_limited(REAP_SOON_KEY, work_reap, "work")


class ReaperThread(threading.Thread):
    """A worker's periodic reaper (no Celery beat needed): ``reap()`` every ``interval``
    seconds, each pass on fresh database connections."""

    def __init__(self, interval: float, reap: Callable[[], object] = work_reap,
                 what: str = "work"):
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
