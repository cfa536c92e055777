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
| ``SIMULATIONS_QUEUE_DEPTH`` | workers | messages kept in the broker; the rest of the work
  waits its turn in the database and is sent fairly between users (``simulations.fair``) |
| ``SIMULATIONS_CHUNK_SECONDS`` | 1 | seconds of one worker process a chunk is cut to, whatever
  the agents (a requested chunk size is an upper bound) |
| ``SIMULATIONS_WORKERS`` | 2 | worker processes playing chunks: the time estimates divide by it |
| ``SIMULATIONS_CALIBRATION_SECONDS`` | 3 | wall-clock seconds a worker plays at start-up to
  measure this deployment's pace (``simulations.calibration``); 0: no measurement |
"""

from __future__ import annotations

from django.conf import settings

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
    """Messages the broker holds at most (one per worker process: each process finds its next
    piece waiting, and a newcomer's work waits behind one piece a process at most)."""
    return max(1, int(_get("QUEUE_DEPTH", 0) or workers()))


def queue() -> str:
    return str(getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery"))


def chunk_seconds() -> float:
    """Seconds of one worker process a chunk is cut to (``simulations.strength.games_in``):
    long enough that a chunk's bookkeeping (two short transactions, one message, the filesystem
    broker's polling) is a small share of it, short enough that a newcomer's run waits only
    for a few of them."""
    return float(_get("CHUNK_SECONDS", 1.0))


def calibration_seconds() -> float:
    return float(_get("CALIBRATION_SECONDS", 3.0))
