"""Balance search settings, read when used (tests override them).

| setting | default | meaning |
|---|---|---|
| ``BALANCE_MAX_ACTIVE_PER_USER`` | 1 | searches a user may have queued or running at once |
| ``BALANCE_TUNING_MAX_ACTIVE_PER_USER`` | 1 | tunings a user may have in flight |
| ``BALANCE_MAX_BUDGET_GAMES`` | 3 000 000 | games one search may play (re-verification apart) |
| ``BALANCE_MAX_ATTEMPTS`` | 5 | executions of one job before it is given up |
| ``BALANCE_PIECE_BLOCKS`` | 0 | the blocks one piece of a job's games holds; 0: at most about a
  second of a core (the agent's pace), smaller towards a step's end (``balance.pieces``) |

Leases, heartbeats and the reaper's period are the work protocol's (``work.conf``): a job and
its pieces are held and re-sent like a simulation's chunks.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


# A setting may be a number or a numeric string (from the environment): callers convert it.
def _get(name: str, default: float) -> Any:
    return getattr(settings, f"BALANCE_{name}", default)


def max_active_per_user() -> int:
    return int(_get("MAX_ACTIVE_PER_USER", 1))


def max_budget_games() -> int:
    return int(_get("MAX_BUDGET_GAMES", 3_000_000))


def max_attempts() -> int:
    return int(_get("MAX_ATTEMPTS", 5))


def piece_blocks() -> int:
    return int(_get("PIECE_BLOCKS", 0))


def tuning_max_active_per_user() -> int:
    return int(_get("TUNING_MAX_ACTIVE_PER_USER", 1))
