"""Sending chunk tasks to the broker.

Invariant: sending never fails a caller. A chunk whose message could not be sent (the broker is
down) stays pending in the database, and the reaper sends it again later.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from simulations import conf

log = logging.getLogger(__name__)


def send_chunks(chunk_ids: Iterable[int]) -> int:
    """Queue one task per chunk id on one broker connection; returns how many were sent."""
    from simulations.tasks import simulation_chunk_run

    ids = list(chunk_ids)
    sent = 0
    if not ids:
        return 0
    try:
        with simulation_chunk_run.app.producer_or_acquire() as producer:
            for chunk_id in ids:
                simulation_chunk_run.apply_async(args=[chunk_id], queue=conf.queue(),
                                                 producer=producer)
                sent += 1
    except Exception:  # the broker is unreachable: the reaper re-sends what is pending
        log.exception("could not send %d of %d simulation chunks; the reaper will retry",
                      len(ids) - sent, len(ids))
    return sent
