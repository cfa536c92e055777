"""The work protocol's settings, read when used (so tests can override them).

They keep the names they had when the protocol served simulation chunks alone
(``SIMULATIONS_*``, set from ``CARDLAB_SIMULATIONS_*`` in the environment: config/settings.py):
every kind of work — chunks, balance jobs and their pieces — is leased, reaped, dispatched and
capped by them.

| setting | default | meaning |
|---|---|---|
| ``SIMULATIONS_LEASE_SECONDS`` | 60 | a running row that has not reported for this long is lost |
| ``SIMULATIONS_HEARTBEAT_SECONDS`` | 5 | how often a running row reports progress |
| ``SIMULATIONS_STALL_SECONDS`` | 120 | nothing anywhere started or reported for this long while
  messages wait: they are presumed lost (a broker restart) and sent again |
| ``SIMULATIONS_QUEUE_LEASE_SECONDS`` | 3600 | a message waiting this long is sent again anyway |
| ``SIMULATIONS_REAP_SECONDS`` | 15 | period of the reaper thread in each worker |
| ``SIMULATIONS_WORKERS`` | 2 | worker processes playing the work (the queue's depth and the time
  estimates count them) |
| ``SIMULATIONS_QUEUE_DEPTH`` | workers | messages kept in the broker; the rest of the work
  waits its turn in the database and is sent fairly between users (``work.fair``) |
| ``SIMULATIONS_MAX_CPU_HOURS`` | 12 | estimated CPU hours of one user's work queued or
  running, every kind together (``work.quota``) |
| ``CELERY_TASK_DEFAULT_QUEUE`` | ``celery`` | the broker queue the work is sent to |
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


# A setting may be a number or a numeric string (from the environment): callers convert it.
def _get(name: str, default: float) -> Any:
    return getattr(settings, f"SIMULATIONS_{name}", default)


def lease_seconds() -> float:
    return float(_get("LEASE_SECONDS", 60.0))


def heartbeat_seconds() -> float:
    return float(_get("HEARTBEAT_SECONDS", 5.0))


def stall_seconds() -> float:
    return float(_get("STALL_SECONDS", 120.0))


def queue_lease_seconds() -> float:
    return float(_get("QUEUE_LEASE_SECONDS", 3600.0))


def reap_seconds() -> float:
    return float(_get("REAP_SECONDS", 15.0))


def workers() -> int:
    return max(1, int(_get("WORKERS", 2)))


def queue_depth() -> int:
    """Messages the broker holds at most (one per worker process: each process finds its next
    piece waiting, and a newcomer's work waits behind one piece a process at most)."""
    return max(1, int(_get("QUEUE_DEPTH", 0) or workers()))


def queue() -> str:
    return str(getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery"))


def max_cpu_hours() -> float:
    return float(_get("MAX_CPU_HOURS", 12.0))
