"""Agents' moves worked out off the request: a small pool of threads in the web process.

A request that leaves an agent to move calls ``agent_schedule(uid)`` and returns at once; a
thread of the pool plays the agent's moves (``play.ai.turn.play_agent_advance``), writing each, and
the page polls and shows them one by one. A game is scheduled at most once at a time. Nothing is
lost when the process stops: the game's record says whose decision it is, and the next request
that finds an agent to move (the page's poll, a reload, another tab) schedules it again.

Why threads and not the Celery workers: a move takes milliseconds (the planner's a few), and the
workers are often busy with simulation chunks that run for seconds; a person waiting on the
AI's reply should not queue behind them. The pool is bounded (``PLAY_AI_THREADS``), so a burst of
games cannot take more of the process than that.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor

from django.db import close_old_connections

from play import conf
from play.ai.turn import agent_to_move, play_agent_advance
from play.models import PlayGame

log = logging.getLogger(__name__)

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_running: dict[str, Future[None]] = {}
_failed: dict[str, tuple[int, str]] = {}      # uid → (the game's version, what went wrong)


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=conf.ai_threads(),
                                       thread_name_prefix="play-agent")
        return _pool


def _advance(uid: str) -> None:
    try:
        play_agent_advance(uid=uid)
    except Exception as exc:         # a thread's failure must reach the log and the page
        log.exception("the agent of game %s could not move", uid)
        version = PlayGame.objects.filter(uid=uid).values_list(
            "version", flat=True).first()
        with _lock:
            _failed[uid] = (int(version or 0), f"{type(exc).__name__}: {exc}")
    finally:
        with _lock:
            _running.pop(uid, None)
        close_old_connections()


def agent_schedule(uid: str) -> bool:
    """Have the agent to move in game ``uid`` play (False if it is already at it)."""
    if conf.ai_inline():
        play_agent_advance(uid=uid)
        return True
    with _lock:
        if uid in _running:
            return False
        # Reserved before the thread starts, so a second poll cannot schedule it twice.
        _running[uid] = Future()
    future = _executor().submit(_advance, uid)
    with _lock:
        if uid in _running:
            _running[uid] = future
    return True


def agent_failure(uid: str, version: int) -> str | None:
    """Why the agent could not move in game ``uid`` at ``version`` (None if it did not fail
    there): the page says so instead of waiting forever, and polls stop scheduling it."""
    with _lock:
        failed = _failed.get(uid)
    return failed[1] if failed and failed[0] == version else None


def agent_retry(uid: str) -> None:
    """Forget a failure: the next request schedules the agent again (a reload of the page)."""
    with _lock:
        _failed.pop(uid, None)


def agent_busy(uid: str) -> bool:
    with _lock:
        return uid in _running


def agent_wake(record: PlayGame) -> tuple[PlayGame, str | None]:
    """Set the agent to move in ``record`` to play, unless it failed at this version: the
    record as it now stands (run inline, ``PLAY_AI_INLINE``: after the agent's moves) and why
    the agent could not move, if it failed. The API calls it before it reads the state; the
    read itself schedules nothing."""
    if agent_to_move(record) is None:
        return record, None
    failure = agent_failure(record.uid, record.version)
    if failure is None and agent_schedule(record.uid) and conf.ai_inline():
        record.refresh_from_db()            # the agent has moved already: show its moves
    return record, failure
