"""Worker life cycle: measure the deployment's pace once at start-up
(``simulations.agents.calibration``). The worker's reaper is the work app's (``work.signals``)."""

from __future__ import annotations

import logging

from celery.signals import worker_ready

log = logging.getLogger(__name__)


@worker_ready.connect
def calibrate_at_worker_start(sender: object = None, **kwargs: object) -> None:
    """Measure this deployment's pace for the time estimates, in a thread of its own: the
    worker takes work meanwhile (at start it has little, so the measurement sees the machine's
    own load, not the worker's)."""
    import threading

    host = getattr(sender, "hostname", None) or "worker"
    threading.Thread(target=_calibrate, args=(host,), name="pace-calibration",
                     daemon=True).start()


def _calibrate(host: str) -> None:
    from django.db import close_old_connections

    from simulations.agents.calibration import deployment_calibrate

    try:
        deployment_calibrate(host=host)
    except Exception:
        log.exception("pace calibration at worker start failed")
    finally:
        close_old_connections()
