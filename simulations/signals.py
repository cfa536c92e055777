"""Worker life cycle: reap at start-up (work this node held before it died: chunks, searches,
tunings), then keep the one reaper thread running in the worker's main process until it shuts
down; measure the deployment's pace once at start-up (``simulations.calibration``)."""

from __future__ import annotations

import logging

from celery.signals import worker_ready, worker_shutdown

log = logging.getLogger(__name__)
_threads: list = []


@worker_ready.connect
def reap_at_worker_start(sender=None, **kwargs) -> None:
    from django.db import close_old_connections

    from simulations import conf
    from simulations.reaper import ReaperThread, work_reap

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
def stop_reaper(**kwargs) -> None:
    while _threads:
        _threads.pop().stop()


@worker_ready.connect
def calibrate_at_worker_start(sender=None, **kwargs) -> None:
    """Measure this deployment's pace for the time estimates, in a thread of its own: the
    worker takes work meanwhile (at start it has little, so the measurement sees the machine's
    own load, not the worker's)."""
    import threading

    host = getattr(sender, "hostname", None) or "worker"
    threading.Thread(target=_calibrate, args=(host,), name="pace-calibration",
                     daemon=True).start()


def _calibrate(host: str) -> None:
    from django.db import close_old_connections

    from simulations.calibration import deployment_calibrate

    try:
        deployment_calibrate(host=host)
    except Exception:
        log.exception("pace calibration at worker start failed")
    finally:
        close_old_connections()
