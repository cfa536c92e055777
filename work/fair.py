"""Fair sharing of the workers between users: work waits its turn in the database, and the broker
holds only a few messages (``SIMULATIONS_QUEUE_DEPTH``: ``work.conf``).

Each time a piece of work is claimed or finishes, and on each reaper pass, ``dispatch`` tops
the broker up: one message at a time, it sends the next piece of the user with the least
estimated CPU time in flight (sent or running), ties going to the oldest submission. So a user
with thousands of chunks queued holds at most the broker's few places, and another user's
2-game run goes out with the next free place — seconds, not the length of the first user's
queue.

Invariants:
- A piece is sent by one dispatcher only: marking it sent is a conditional UPDATE (still
  waiting, not yet sent). Dispatchers that run at once may each fill the room they saw, so the
  broker can briefly hold a few messages more than the depth (PostgreSQL serialises them with
  an advisory lock; SQLite with its write lock).
- The message goes out only once the row says so (``on_commit``); a message that could not be
  sent is taken back (its row waits again), so the broker never holds less than the database
  says but for messages it lost itself, which the reaper finds (``work.reaper``).
- Nothing here decides who plays a piece or how often: the claim does (``work.protocol``).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.db import connection, transaction
from django.db.models import F, Min, Q, Sum
from django.utils import timezone

from work import conf, protocol
from work.protocol import WorkKind

log = logging.getLogger(__name__)
DISPATCH_LOCK = 0x5EED_F41   # PostgreSQL advisory lock key: one dispatcher at a time

Owner = int | None


def choose_owner(waiting: Mapping[Owner, datetime], in_flight: Mapping[Owner, float]) -> Owner:
    """Whose work goes next: the owner with the least CPU seconds in flight; ties: the oldest
    submission waiting, then the smallest id (work without an owner last)."""
    return min(waiting, key=lambda owner: (in_flight.get(owner, 0.0), waiting[owner],
                                           owner is None, owner or 0))


def ready(kind: WorkKind, now: datetime) -> Q:
    """Rows waiting in the database for a message, their backoff (if any) over."""
    return (kind.waiting_rows() & Q(sent_at__isnull=True) & kind.live
            & (Q(lease_until__isnull=True) | Q(lease_until__lte=now)))


def in_broker(kind: WorkKind) -> Q:
    """Rows whose message is in the broker (sent, not yet claimed) and still wanted. The
    message of a row whose submission stopped (a cancelled search's pieces) may still be
    there, but it finds its row unclaimable and ends in a moment: its place is free at once,
    for the dispatcher, the fair share and the reaper alike."""
    return kind.waiting_rows() & Q(sent_at__isnull=False) & kind.live


def waiting_besides(kind: WorkKind, mine: Q) -> bool:
    """Whether any work but ``mine`` (rows of ``kind``) waits for a worker process, in the
    database or in the broker: a process following on with its own job's work (a balance job's
    next pieces) goes back to the broker when it does."""
    now = timezone.now()
    for other in protocol.kinds():
        rows = other.rows().filter(ready(other, now) | in_broker(other))
        if other is kind:
            rows = rows.exclude(mine)
        if rows.exists():
            return True
    return False


def _in_flight() -> dict[Owner, float]:
    totals: dict[Owner, float] = defaultdict(float)
    for kind in protocol.kinds():
        rows = (kind.rows().filter(kind.running_rows() | in_broker(kind)).values(kind.owner)
                .annotate(cpu=Sum("cpu_seconds")))
        for row in rows:
            totals[row[kind.owner]] += row["cpu"] or 0.0
    return totals


def _waiting_owners(now: datetime) -> dict[Owner, datetime]:
    first: dict[Owner, datetime] = {}
    for kind in protocol.kinds():
        rows = (kind.rows().filter(ready(kind, now)).values(kind.owner)
                .annotate(first=Min(kind.submitted)))
        for row in rows:
            owner = row[kind.owner]
            first[owner] = min(first.get(owner, row["first"]), row["first"])
    return first


def _head(owner: Owner, now: datetime) -> tuple[datetime, WorkKind, int, float] | None:
    """The owner's next piece: the first of their oldest submission, whatever its kind."""
    heads: list[tuple[datetime, WorkKind, int, float]] = []
    for kind in protocol.kinds():
        row = (kind.rows().filter(ready(kind, now), kind.of_owner(owner))
               .order_by(kind.submitted, *kind.order)
               .values("pk", "cpu_seconds", kind.submitted).first())
        if row:
            heads.append((row[kind.submitted], kind, row["pk"], row["cpu_seconds"]))
    return min(heads, key=lambda head: (head[0], head[1].name, head[2]), default=None)


def _mark_sent(kind: WorkKind, pk: int, now: datetime) -> bool:
    lease = now + timedelta(seconds=conf.queue_lease_seconds())
    return bool(kind.rows().filter(ready(kind, now), pk=pk)
                .update(sent_at=now, sends=F("sends") + 1, lease_until=lease))


def dispatch(*, now: datetime | None = None) -> list[tuple[str, int]]:
    """Top the broker up to the queue depth, fairly; returns the (kind, id) pieces sent."""
    now = now or timezone.now()
    picked: list[tuple[WorkKind, int]] = []
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [DISPATCH_LOCK])
        room = conf.queue_depth() - sum(k.rows().filter(in_broker(k)).count()
                                        for k in protocol.kinds())
        if room <= 0:
            return []
        waiting = _waiting_owners(now)
        in_flight = _in_flight()
        # An owner's rows may have stopped waiting since they were counted (a submission
        # cancelled meanwhile): such an owner has no head and nothing to send.
        heads = {owner: head for owner in waiting if (head := _head(owner, now)) is not None}
        while room > 0 and heads:
            owner = choose_owner({o: h[0] for o, h in heads.items()}, in_flight)
            _, kind, pk, cpu = heads[owner]
            if _mark_sent(kind, pk, now):
                picked.append((kind, pk))
                in_flight[owner] = in_flight.get(owner, 0.0) + cpu
                room -= 1
            head = _head(owner, now)
            if head is None:
                del heads[owner]
            else:
                heads[owner] = head
        if picked:
            transaction.on_commit(lambda: send_work(picked, sent_at=now), robust=True)
    return [(kind.name, pk) for kind, pk in picked]


def send_work(pieces: list[tuple[WorkKind, int]], *, sent_at: datetime) -> int:
    """Send one message per piece on one broker connection. Never raises: a piece whose
    message could not be sent waits in the database again, for the next dispatch."""
    sent = 0
    try:
        with current_app.producer_or_acquire() as producer:
            for kind, pk in pieces:
                current_app.send_task(kind.task, args=[pk], queue=conf.queue(),
                                      producer=producer)
                sent += 1
    except Exception:  # the broker is unreachable
        log.exception("could not send %d of %d pieces of work; they wait for the next dispatch",
                      len(pieces) - sent, len(pieces))
        for kind, pk in pieces[sent:]:
            try:
                kind.rows().filter(in_broker(kind), pk=pk, sent_at=sent_at).update(
                    sent_at=None, lease_until=None)
            except Exception:
                log.exception("could not take back %s %s; the reaper will", kind.name, pk)
    return sent


def dispatch_quietly(**kwargs: Any) -> None:
    """``dispatch``, for callers that must not fail because of it (a finished chunk, a status
    poll): a failed pass is logged, and the next claim, finish or reaper pass tries again."""
    try:
        dispatch(**kwargs)
    except Exception:
        log.exception("dispatching work failed")
