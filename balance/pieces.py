"""A job's games fanned out: the blocks a search step needs are pieces any worker process plays.

When the search asks for a batch of tasks (the screening, one racing rung, the
re-verification), the job's execution — the coordinator — writes one ``JobPiece`` row for each
run of at most ``BALANCE_PIECE_BLOCKS`` missing blocks and lets the dispatcher send them
(``simulations.fair``): pieces are a kind of the one work protocol (``simulations.work``), so
they are claimed, leased, reaped and re-sent like a simulation's chunks. While it waits on the
database for the batch to be stored (no chords, no result backend) the coordinator claims and
plays its own job's pieces too, so a job on a single worker process plays as fast as before and
every further process adds to it.

Invariants:
- A piece's blocks are written in the transaction that marks it done on its claim (a
  conditional UPDATE), under the unique (job, key, index) constraint: a twin execution (a
  redelivered message, a piece the reaper handed back while its worker lived) counts once, and
  the blocks are the same games whoever plays them, so the search's result depends only on its
  seed and budget, never on the number of workers or which of them died.
- A piece started ``SIMULATIONS_MAX_ATTEMPTS`` times without finishing fails; the coordinator
  then hands its job back with a backoff (``runner``), and the next execution tries the piece
  afresh.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q
from django.utils import timezone

from balance.kinds import job_codec
from balance.models import (
    ACTIVE_JOB_STATUSES,
    BalanceJob,
    JobBlock,
    JobPiece,
    JobStatus,
    PieceState,
)
from simulations import conf as sim_conf
from simulations import work
from simulations.fair import dispatch_quietly
from simulations.reaper import reap_soon

log = logging.getLogger(__name__)
POLL_SECONDS = 0.1     # how often a coordinator with nothing to play looks at its pieces
GAVE_UP = "Started {attempts} times without finishing (its workers died or were stopped)."


def _give_up(piece_id: int) -> None:
    piece = JobPiece.objects.filter(pk=piece_id).only("attempts").first()
    if piece is not None:
        (JobPiece.objects.filter(pk=piece_id, state__in=(PieceState.PENDING, PieceState.RUNNING))
         .update(state=PieceState.FAILED, claim="", lease_until=None,
                 error=GAVE_UP.format(attempts=piece.attempts)))


PIECE_WORK = work.WorkKind(
    name="piece", model=JobPiece, task="balance.tasks.balance_piece_run", state="state",
    waiting=PieceState.PENDING, running=PieceState.RUNNING, owner="job__owner",
    submitted="job__created_at", order=("job_id", "pk"),
    live=Q(job__status__in=ACTIVE_JOB_STATUSES), max_attempts=sim_conf.max_attempts,
    give_up=_give_up, claimable=lambda piece: piece.job.status in ACTIVE_JOB_STATUSES,
    error_field="error", related=("job",))


class PieceFailed(Exception):
    """A piece of the batch was given up: the job's execution cannot go on this time."""


def piece_store(piece: JobPiece, claim: str, results: Sequence[Any], codec: Any) -> bool:
    """Mark the piece done on this claim and write its blocks, in one transaction; False (and
    nothing written) when the claim was lost, a twin having stored the same games."""
    with transaction.atomic():
        done = (JobPiece.objects.filter(pk=piece.pk, claim=claim, state=PieceState.RUNNING)
                .update(state=PieceState.DONE, lease_until=None, touched_at=timezone.now()))
        if not done:
            return False
        JobBlock.objects.bulk_create(
            [JobBlock(job_id=piece.job_id, key=piece.key, index=piece.first + i,
                      tally=codec.dump(result)) for i, result in enumerate(results)],
            ignore_conflicts=True)
        BalanceJob.objects.filter(pk=piece.job_id).update(
            games_played=F("games_played") + len(results) * codec.block_games)
    return True


def piece_play(piece: JobPiece, claim: str, codec: Any) -> bool:
    """Play a claimed piece (its lease renewed meanwhile) and store it; True when stored."""
    if sim_conf.chunk_pause():       # fault tests: a moment to kill the worker in
        time.sleep(sim_conf.chunk_pause())
    task = codec.decode(piece.task)
    with work.Heartbeat(PIECE_WORK, pk=piece.pk, claim=claim):
        results = codec.play(task, piece.first, piece.blocks)
    return piece_store(piece, claim, results, codec)


def piece_execute(*, piece_id: int, claim: str, worker: str) -> str:
    """A worker's side: claim one piece, play it, store it; what happened, for the log."""
    piece = work.claim(PIECE_WORK, pk=piece_id, claim=claim, worker=worker)
    dispatch_quietly()   # its message left the broker: send the next piece in its place
    if piece is None:
        return "skipped"
    try:
        return "done" if piece_play(piece, claim, job_codec(piece.job)) else "lost"
    except work.LeaseLost:
        return "lost"
    except (OperationalError, InterfaceError):
        raise   # the database is away: the task retries with backoff, keeping its claim
    except Exception:  # a bug: handed back with a backoff, given up after its attempts
        log.exception("piece %s of balance job %s failed", piece.pk, piece.job_id)
        work.release(PIECE_WORK, pk=piece.pk, claim=claim,
                     backoff=work.backoff_seconds(piece.attempts))
        return "error"


def consecutive_runs(indices: list[int], size: int) -> list[list[int]]:
    """Consecutive runs of at most ``size`` block indices."""
    out: list[list[int]] = []
    for i in indices:
        if out and out[-1][-1] == i - 1 and len(out[-1]) < size:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def pieces_post(job: BalanceJob, wanted: list[tuple[str, Any, list[int]]], codec: Any,
                size: int) -> list[int]:
    """Write the pieces of the missing blocks (``(key, task, indices)``) — or find those a
    previous execution wrote — and hand the given-up ones a fresh start; their ids."""
    rows = [JobPiece(job=job, key=key, first=run[0], blocks=len(run), task=codec.encode(task))
            for key, task, indices in wanted for run in consecutive_runs(indices, size)]
    JobPiece.objects.bulk_create(rows, ignore_conflicts=True)
    firsts = {(row.key, row.first) for row in rows}
    ids = [pk for pk, key, first in JobPiece.objects.filter(
        job=job, key__in={row.key for row in rows}).values_list("pk", "key", "first")
        if (key, first) in firsts]
    JobPiece.objects.filter(pk__in=ids, state=PieceState.FAILED).update(
        state=PieceState.PENDING, attempts=0, error="", claim="", sent_at=None,
        lease_until=None)
    return ids


class PieceWaiter:
    """The coordinator's wait for a batch of pieces: plays what no one holds, else polls."""

    def __init__(self, job: BalanceJob, claim: str, worker: str, codec: Any):
        self.job, self.claim, self.worker, self.codec = job, claim, worker, codec

    def wait(self, ids: list[int]) -> None:
        """Return once every piece is done; PieceFailed when one was given up, LeaseLost once
        the job was taken away (cancelled, or handed back)."""
        dispatch_quietly()
        while True:
            states = dict(JobPiece.objects.filter(pk__in=ids).exclude(state=PieceState.DONE)
                          .values_list("pk", "state"))
            if not states:
                return
            if PieceState.FAILED in states.values():
                raise PieceFailed(self.job.pk)
            if not self._play_one([pk for pk, s in states.items() if s == PieceState.PENDING]):
                if not BalanceJob.objects.filter(pk=self.job.pk, claim=self.claim,
                                                 status=JobStatus.RUNNING).exists():
                    raise work.LeaseLost(self.job.pk)
                reap_soon()    # rate-limited: a piece whose worker died is sent again
                time.sleep(POLL_SECONDS)

    def _play_one(self, pending: list[int]) -> bool:
        """Claim one of the pending pieces (those still in the database first) and play it."""
        order = [F("sent_at").asc(nulls_first=True), "pk"]
        for pk in (JobPiece.objects.filter(pk__in=pending, state=PieceState.PENDING)
                   .order_by(*order).values_list("pk", flat=True)[:4]):
            claim = f"{self.claim}/{pk}"
            piece = work.claim(PIECE_WORK, pk=pk, claim=claim, worker=self.worker)
            if piece is not None:
                try:
                    piece_play(piece, claim, self.codec)
                except Exception:
                    work.release(PIECE_WORK, pk=pk, claim=claim, backoff=0)
                    raise
                return True
        return False
