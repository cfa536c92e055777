"""The one work protocol: simulation chunks, balance jobs and their pieces are all rows with
the same lease columns (``work.models.LeasedWork``), claimed, renewed, released and given up
here, dispatched fairly by ``work.fair``, reaped by ``work.reaper`` and capped per user by
``work.quota``.

The protocol, for any kind: ``claim(kind, pk=, claim=, worker=)`` takes the row for one
execution (``claim`` is the Celery task id) or returns None; ``renew(kind, pk=, claim=)``
renews the lease while it plays (``Heartbeat`` does so from a thread), raising ``LeaseLost``
once the row was taken away; ``release(kind, pk=, claim=, backoff=)`` hands it back after an
error; a row started ``max_attempts`` times is given up by its next claim (``kind.give_up``).
Whatever the execution found is written by the kind's own code under a unique constraint or a
conditional update on the claim, so a twin execution counts once.

A kind names its model and how the protocol finds its way around the row: the field holding
the state and its waiting/running values, the owner and submission time (for the per-user cap
and the fair choice of what to send next), and the Celery task that plays one row by its id.

The apps above register their kinds when Django starts (``AppConfig.ready``): simulations its
chunks, balance its jobs and their pieces. This app imports neither.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import InterfaceError, OperationalError, connection, models, transaction
from django.db.models import Q
from django.utils import timezone

from work import conf

if TYPE_CHECKING:
    from work.models import LeasedWork

# How every kind's Celery task is delivered: acknowledged once it has run (a worker that dies
# mid-way leaves the message to another), its result kept in the database rather than Celery's,
# retried with backoff while the database is away (it keeps its claim meanwhile).
TASK_OPTIONS: dict[str, Any] = {
    "bind": True, "acks_late": True, "reject_on_worker_lost": True, "ignore_result": True,
    "autoretry_for": (OperationalError, InterfaceError), "retry_backoff": 2,
    "retry_backoff_max": 60, "retry_jitter": True, "max_retries": 8}
# A balance job's coordinator runs for minutes or hours: its message is acknowledged when it
# starts. Held unacknowledged, it would keep one of the worker's prefetch places for the whole
# job (the pieces it fans out would reach that worker one at a time, each after a broker round
# trip), and the broker would deliver it again while it still runs (RabbitMQ's consumer
# timeout, Redis's visibility timeout). A coordinator that dies is found by its lapsed lease
# and sent again by the reaper, like any message the broker lost.
LONG_TASK_OPTIONS: dict[str, Any] = {**TASK_OPTIONS, "acks_late": False,
                                     "reject_on_worker_lost": False}

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class WorkKind:
    name: str                          # "chunk", "job": how logs and reports name it
    model: type[LeasedWork]
    task: str                          # the Celery task that plays one row: args [pk]
    state: str                         # the state field ("state", "status")
    waiting: str                       # its value while the row waits (or its message does)
    running: str                       # its value while a worker holds the lease
    owner: str                         # lookup of the owner ("run__owner")
    submitted: str                     # lookup of the submission time ("run__created_at")
    order: tuple[str, ...] = ("pk",)   # order of a submission's rows
    live: Q = field(default_factory=Q)  # rows whose submission is still active
    max_attempts: Callable[[], int] = lambda: 3
    give_up: Callable[[int], None] = lambda pk: None          # mark the row failed, for good
    claimable: Callable[[Any], bool] = lambda row: True        # the row's submission still runs
    claimed: Callable[[Any], None] = lambda row: None          # after a claim (run → running)
    claim_fields: Callable[[Any, Any], list[str]] = lambda row, now: []   # set more on claim
    error_field: str | None = None     # where the reaper notes why it took a row back
    related: tuple[str, ...] = ()      # loaded with the row when it is claimed

    def rows(self) -> models.QuerySet[LeasedWork]:
        return self.model._default_manager.all()

    def unfinished(self) -> Q:
        """Waiting (in the database or the broker) or running."""
        return Q(**{f"{self.state}__in": (self.waiting, self.running)})

    def waiting_rows(self) -> Q:
        return Q(**{self.state: self.waiting})

    def running_rows(self) -> Q:
        return Q(**{self.state: self.running})

    def of_owner(self, owner_id: int | None) -> Q:
        return Q(**{self.owner: owner_id}) if owner_id is not None else Q(
            **{f"{self.owner}__isnull": True})


_KINDS: dict[str, WorkKind] = {}


def register(kind: WorkKind) -> None:
    _KINDS[kind.name] = kind


def kinds() -> list[WorkKind]:
    return list(_KINDS.values())


# ------------------------------------------------------------------------------ the protocol


class LeaseLost(Exception):
    """The row was taken away while this execution played it (cancelled, finished by a twin,
    or handed back after its lease expired)."""


def _lease(now: datetime) -> datetime:
    return now + timedelta(seconds=conf.lease_seconds())


def claim(kind: WorkKind, *, pk: int, claim: str, worker: str) -> Any | None:
    """Take the row for this execution (a lease until ``lease_until``), or None when it needs
    no playing: finished, its submission stopped, held by another live execution, or given up
    now because it was started ``max_attempts`` times already."""
    with transaction.atomic():
        row = (kind.rows().select_for_update(of=("self",)).select_related(*kind.related)
               .filter(pk=pk).first())
        if row is None or getattr(row, kind.state) not in (kind.waiting, kind.running):
            return None
        if not kind.claimable(row):
            return None
        now = timezone.now()
        held = (getattr(row, kind.state) == kind.running and row.lease_until
                and row.lease_until > now)
        if held and row.claim != claim:
            return None
        give_up = row.attempts >= kind.max_attempts()
        if not give_up:
            row.attempts += 1
            setattr(row, kind.state, kind.running)
            row.claim, row.worker, row.lease_until = claim, worker[:200], _lease(now)
            row.touched_at, row.started_at = now, row.started_at or now
            row.save(update_fields=["attempts", kind.state, "claim", "worker", "lease_until",
                                    "touched_at", "started_at", *kind.claim_fields(row, now)])
    if give_up:
        kind.give_up(pk)
        return None
    kind.claimed(row)
    return row


def renew(kind: WorkKind, *, pk: int, claim: str, **changes: Any) -> None:
    """Renew the lease (and save ``changes``) while this execution holds the row; LeaseLost
    otherwise."""
    now = timezone.now()
    updated = (kind.rows().filter(kind.running_rows(), pk=pk, claim=claim)
               .update(lease_until=_lease(now), touched_at=now, **changes))
    if not updated:
        raise LeaseLost(pk)


def release(kind: WorkKind, *, pk: int, claim: str, backoff: float, **changes: Any) -> bool:
    """Hand the row back after an error outside the games: it waits in the database until
    ``backoff`` seconds have passed, then the dispatcher sends it again (the claim counts the
    attempts and gives it up in the end)."""
    now = timezone.now()
    return bool(kind.rows().filter(kind.running_rows(), pk=pk, claim=claim)
                .update(**{kind.state: kind.waiting}, claim="", sent_at=None, touched_at=now,
                        lease_until=now + timedelta(seconds=backoff), **changes))


def backoff_seconds(attempts: int) -> float:
    return float(min(300, 2 ** attempts))


class Heartbeat:
    """Renews a lease every ``heartbeat_seconds`` from a thread of its own while a long piece
    plays (a balance job's games between two stored pieces can outlast a lease on a loaded
    machine). It only keeps the lease alive: the execution still learns that it lost the row
    from its own ``renew`` (or a conditional write), and the thread stops at the first renewal
    that finds the row gone."""

    def __init__(self, kind: WorkKind, *, pk: int, claim: str):
        self.kind, self.pk, self.claim = kind, pk, claim
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._beat, name=f"{kind.name}-{pk}-heartbeat",
                                       daemon=True)

    def __enter__(self) -> Heartbeat:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()

    def _beat(self) -> None:
        try:
            while not self.stopped.wait(conf.heartbeat_seconds()):
                try:
                    renew(self.kind, pk=self.pk, claim=self.claim)
                except LeaseLost:
                    return
                except Exception:   # the database is away for a moment: try the next beat
                    log.exception("heartbeat of %s %s failed", self.kind.name, self.pk)
        finally:
            connection.close()    # this thread's own connection
