"""Sending chunk tasks to the broker.

Invariant: sending never fails a caller. A chunk whose message could not be sent (the broker is
down) stays pending in the database, and the reaper sends it again later.

Tasks are sent by name (``CHUNK_TASK``, which ``simulations.tasks`` registers under), so this
module does not import the tasks: the task calls the reaper, which sends through here, and the
arrows stay one way.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from celery import current_app

from simulations import conf

CHUNK_TASK = "simulations.tasks.simulation_chunk_run"

log = logging.getLogger(__name__)


def send_chunks(chunk_ids: Iterable[int]) -> int:
    """Queue one task per chunk id on one broker connection; returns how many were sent."""
    ids = list(chunk_ids)
    sent = 0
    if not ids:
        return 0
    try:
        with current_app.producer_or_acquire() as producer:
            for chunk_id in ids:
                current_app.send_task(CHUNK_TASK, args=[chunk_id], queue=conf.queue(),
                                      producer=producer)
                sent += 1
    except Exception:  # the broker is unreachable: the reaper re-sends what is pending
        log.exception("could not send %d of %d simulation chunks; the reaper will retry",
                      len(ids) - sent, len(ids))
    return sent
