"""The simulation service's settings, read when used (so tests can override them).

| setting | default | meaning |
|---|---|---|
| ``SIMULATIONS_MAX_GAMES`` | 100 000 | games in one run, all pairings together |
| ``SIMULATIONS_MAX_ACTIVE_PER_USER`` | 3 | runs a user may have queued or running at once |
| ``SIMULATIONS_MAX_ATTEMPTS`` | 3 | starts of one chunk (or a balance job's piece) before it is
  given up as failed |
| ``SIMULATIONS_CHUNK_PAUSE`` | 0 | seconds a worker waits before playing a chunk (fault tests) |
| ``SIMULATIONS_CHUNK_SECONDS`` | 1 | seconds of one worker process a chunk is cut to, whatever
  the agents (a requested chunk size is an upper bound) |
| ``SIMULATIONS_WORKERS`` | 2 | worker processes playing chunks: the time estimates divide by it |
| ``SIMULATIONS_CALIBRATION_SECONDS`` | 3 | wall-clock seconds a worker plays at start-up to
  measure this deployment's pace (``simulations.agents.calibration``); 0: no measurement |

The work protocol's settings — leases, heartbeats, stalls, the reaper's period, the broker's
depth and the per-user CPU cap — keep their ``SIMULATIONS_`` names and are read by
``work.conf``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from work import conf as work_conf

MAX_DECKS = 10
REPLAYS_PER_MATCHUP = 2


def _get(name: str, default: object) -> Any:   # as the deployment wrote it: callers convert
    return getattr(settings, f"SIMULATIONS_{name}", default)


def max_games() -> int:
    return int(_get("MAX_GAMES", 100_000))


def max_active_per_user() -> int:
    return int(_get("MAX_ACTIVE_PER_USER", 3))


def max_attempts() -> int:
    return int(_get("MAX_ATTEMPTS", 3))


def chunk_pause() -> float:
    return float(_get("CHUNK_PAUSE", 0.0))


def workers() -> int:
    """The worker processes the time estimates divide by: the same count as the broker's
    depth (one setting, read by ``work.conf``)."""
    return work_conf.workers()


def chunk_seconds() -> float:
    """Seconds of one worker process a chunk is cut to (``simulations.agents.strength.games_in``):
    long enough that a chunk's bookkeeping (two short transactions, one message, the filesystem
    broker's polling) is a small share of it, short enough that a newcomer's run waits only
    for a few of them."""
    return float(_get("CHUNK_SECONDS", 1.0))


def calibration_seconds() -> float:
    return float(_get("CALIBRATION_SECONDS", 3.0))
