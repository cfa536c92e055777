"""Worker life cycle: send again the searches this node held before it died, then keep a
reaper thread running in the worker's main process until it shuts down."""

from __future__ import annotations

import logging

from celery.signals import worker_ready, worker_shutdown

log = logging.getLogger(__name__)
_threads: list = []


@worker_ready.connect
def reap_jobs_at_worker_start(sender=None, **kwargs) -> None:
    from django.db import close_old_connections

    from balance.reaper import balance_reap
    from simulations import conf as sim_conf
    from simulations.reaper import ReaperThread

    try:
        balance_reap(node=getattr(sender, "hostname", None))
    except Exception:
        log.exception("balance reaper at worker start failed")
    finally:
        close_old_connections()
    thread = ReaperThread(sim_conf.reap_seconds(), reap=balance_reap, what="balance")
    thread.start()
    _threads.append(thread)


@worker_shutdown.connect
def stop_job_reaper(**kwargs) -> None:
    while _threads:
        _threads.pop().stop()
