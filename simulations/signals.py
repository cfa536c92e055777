"""Worker life cycle: reap at start-up (chunks this node held before it died), then keep a
reaper thread running in the worker's main process until it shuts down."""

from __future__ import annotations

import logging

from celery.signals import worker_ready, worker_shutdown

log = logging.getLogger(__name__)
_threads: list = []


@worker_ready.connect
def reap_at_worker_start(sender=None, **kwargs) -> None:
    from django.db import close_old_connections

    from simulations import conf
    from simulations.reaper import ReaperThread, simulation_reap

    node = getattr(sender, "hostname", None)
    try:
        report = simulation_reap(node=node)
        log.info("simulation reaper at start of %s: %s", node, dict(report) or "nothing to do")
    except Exception:
        log.exception("simulation reaper at worker start failed")
    finally:
        close_old_connections()
    thread = ReaperThread(conf.reap_seconds())
    thread.start()
    _threads.append(thread)


@worker_shutdown.connect
def stop_reaper(**kwargs) -> None:
    while _threads:
        _threads.pop().stop()
