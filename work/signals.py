"""A worker's reaper: one pass at start-up (work this node held before it died, of every
kind), then the reaper thread in the worker's main process until it shuts down."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from celery.signals import worker_ready, worker_shutdown

if TYPE_CHECKING:
    from work.reaper import ReaperThread

log = logging.getLogger(__name__)
_threads: list[ReaperThread] = []


@worker_ready.connect
def reap_at_worker_start(sender: object = None, **kwargs: Any) -> None:
    from django.db import close_old_connections

    from work import conf
    from work.reaper import ReaperThread, work_reap

    node = getattr(sender, "hostname", None)
    try:
        report = work_reap(node=node)
        log.info("reaper at start of %s: %s", node, dict(report) or "nothing to do")
    except Exception:
        log.exception("reaper at worker start failed")
    finally:
        close_old_connections()
    thread = ReaperThread(conf.reap_seconds())
    thread.start()
    _threads.append(thread)


@worker_shutdown.connect
def stop_reaper(**kwargs: Any) -> None:
    while _threads:
        _threads.pop().stop()
