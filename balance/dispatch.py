"""Sending job tasks to the broker; never fails a caller (the reaper re-sends what is lost)."""

from __future__ import annotations

import logging

from simulations import conf as sim_conf

log = logging.getLogger(__name__)


def send_job(job_id: int) -> bool:
    from balance.tasks import balance_job_run

    try:
        balance_job_run.apply_async(args=[job_id], queue=sim_conf.queue())
        return True
    except Exception:  # the broker is unreachable: the reaper sends it again
        log.exception("could not send balance search %d; the reaper will retry", job_id)
        return False
