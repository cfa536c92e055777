"""The simulation service's settings, read when used (so tests can override them).

| setting | default | meaning |
|---|---|---|
| ``SIMULATIONS_MAX_GAMES`` | 100 000 | games in one run, all pairings together |
| ``SIMULATIONS_MAX_ACTIVE_PER_USER`` | 3 | runs a user may have queued or running at once |
| ``SIMULATIONS_MAX_CPU_HOURS`` | 12 | estimated CPU hours of one user's work queued or
  running, runs, searches and tunings together (``simulations.quota``) |
| ``SIMULATIONS_SUBMIT_RATE`` | ``30/hour`` | submissions per user (API and pages) |
| ``SIMULATIONS_LEASE_SECONDS`` | 60 | a running chunk that has not reported for this long is lost |
| ``SIMULATIONS_HEARTBEAT_SECONDS`` | 5 | how often a running chunk reports progress |
| ``SIMULATIONS_STALL_SECONDS`` | 120 | no chunk anywhere started or reported for this long while
  chunks wait: their messages are presumed lost (a broker restart) and sent again |
| ``SIMULATIONS_QUEUE_LEASE_SECONDS`` | 3600 | a chunk queued this long is sent again regardless |
| ``SIMULATIONS_REAP_SECONDS`` | 15 | period of the reaper thread in each worker |
| ``SIMULATIONS_MAX_ATTEMPTS`` | 3 | starts of one chunk before it is given up as failed |
| ``SIMULATIONS_CHUNK_PAUSE`` | 0 | seconds a worker waits before playing a chunk (fault tests) |
| ``SIMULATIONS_QUEUE_DEPTH`` | 2 × workers | messages kept in the broker; the rest of the work
  waits its turn in the database and is sent fairly between users (``simulations.fair``) |
| ``SIMULATIONS_WORKERS`` | 2 | worker processes playing chunks: the time estimates divide by it |
| ``SIMULATIONS_CALIBRATION_SECONDS`` | 2 | wall-clock seconds a worker plays at start-up to
  measure this deployment's pace (``simulations.calibration``); 0: no measurement |
"""

from __future__ import annotations

from django.conf import settings

# Games per chunk come from the agents' registry (``rules.ai.agents``: ``chunk_games``, set by the
# slower agent of a run): a chunk should take from a third of a second to a second of one core,
# so the per-chunk bookkeeping (two short transactions, one message, the filesystem broker's
# polling) stays a small share of the work.
MAX_CHUNKS_PER_MATCHUP = 400
MAX_DECKS = 10
REPLAYS_PER_MATCHUP = 2


def _get(name: str, default):
    return getattr(settings, f"SIMULATIONS_{name}", default)


def max_games() -> int:
    return int(_get("MAX_GAMES", 100_000))


def max_active_per_user() -> int:
    return int(_get("MAX_ACTIVE_PER_USER", 3))


def max_cpu_hours() -> float:
    return float(_get("MAX_CPU_HOURS", 12.0))


def submit_rate() -> str:
    return str(_get("SUBMIT_RATE", "30/hour"))


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


def max_attempts() -> int:
    return int(_get("MAX_ATTEMPTS", 3))


def chunk_pause() -> float:
    return float(_get("CHUNK_PAUSE", 0.0))


def workers() -> int:
    return max(1, int(_get("WORKERS", 2)))


def queue_depth() -> int:
    """Messages the broker holds at most (a few per worker process: enough that no worker
    waits for the next, few enough that a newcomer's work goes out at once)."""
    return max(1, int(_get("QUEUE_DEPTH", 0) or 2 * workers()))


def queue() -> str:
    return str(getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery"))


def calibration_seconds() -> float:
    return float(_get("CALIBRATION_SECONDS", 2.0))
