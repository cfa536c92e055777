"""A job's games fanned out: the blocks a search step needs are pieces any worker process plays.

When the search asks for a batch of tasks (the screening, one racing rung, the
re-verification), the job's execution — the coordinator — packs the batch's blocks into
``JobPiece`` rows and lets the dispatcher send them (``work.fair``). A piece holds runs of
consecutive blocks of one or more tasks (its parts): at most a chunk of a simulation run's worth
of games (about ``SIMULATIONS_CHUNK_SECONDS``, a second, of one worker process at this
deployment's pace: ``simulations.agents.strength.games_in``, as a run's chunks), and a share of
the batch's blocks still unpacked, so that the pieces grow smaller towards the end of the batch
and the worker processes (``SIMULATIONS_WORKERS``) finish it together: a step waits for its last
piece.
``BALANCE_PIECE_BLOCKS`` fixes the size when set. A screening asks for one block of each of
hundreds of candidates: one piece per block would spend as long on the claim, the message and
the stored row as on the games. Pieces are a kind of the one work protocol
(``work.protocol``), so they are claimed, leased, reaped and re-sent like a simulation's
chunks. While it waits on the
database for the batch to be stored (no chords, no result backend) the coordinator claims and
plays its own job's pieces too, so a job on a single worker process plays as fast as before and
every further process adds to it. A worker process that has played a piece takes the job's next
waiting pieces straight from the database (``follow_on``) and, while no other work waits, waits
a moment for the next step's: a greedy piece's games take as long as a broker round trip.

Invariants:
- The packing depends only on the batch (all its blocks, in order, stored or not) and the
  settings, and a piece is named by its parts (``key``: their digest), so an execution that
  replays the search after its coordinator died posts the same pieces and finds those already
  played.
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

import hashlib
import json
import logging
import time
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from balance import conf
from balance.kinds import job_codec
from balance.models import BalanceJob, JobBlock, JobPiece, PieceState
from simulations import conf as sim_conf
from simulations.agents.strength import game_seconds_here, games_in
from work import protocol
from work.fair import dispatch_quietly, waiting_besides
from work.models import ACTIVE_WORK_STATUSES, WorkStatus
from work.reaper import reap_soon

log = logging.getLogger(__name__)
POLL_SECONDS = 0.02    # how often a coordinator with nothing to play looks at its pieces
PIECES_PER_PROCESS = 2  # a piece holds at most 1/(this × worker processes) of a batch's rest
FOLLOW_ON_SECONDS = 1.0    # a process follows on with its job's pieces this long when others wait
FOLLOW_ON_MAX_SECONDS = 60  # ... and at most this long (far inside the brokers' redelivery times)
LINGER_SECONDS = 0.25      # ... and waits this long for the job's next step, when none waits
GAVE_UP = "Started {attempts} times without finishing (its workers died or were stopped)."


def _give_up(piece_id: int) -> None:
    piece = JobPiece.objects.filter(pk=piece_id).only("attempts").first()
    if piece is not None:
        (JobPiece.objects.filter(pk=piece_id, state__in=(PieceState.PENDING, PieceState.RUNNING))
         .update(state=PieceState.FAILED, claim="", lease_until=None,
                 error=GAVE_UP.format(attempts=piece.attempts)))


PIECE_WORK = protocol.WorkKind(
    name="piece", model=JobPiece, task="balance.tasks.balance_piece_run", state="state",
    waiting=PieceState.PENDING, running=PieceState.RUNNING, owner="job__owner",
    submitted="job__created_at", order=("job_id", "pk"),
    live=Q(job__status__in=ACTIVE_WORK_STATUSES), max_attempts=sim_conf.max_attempts,
    give_up=_give_up, claimable=lambda piece: piece.job.status in ACTIVE_WORK_STATUSES,
    error_field="error", related=("job",))


class PieceFailed(Exception):
    """A piece of the batch was given up: the job's execution cannot go on this time."""


def piece_store(piece: JobPiece, claim: str, results: Sequence[Sequence[Any]],
                codec: Any) -> bool:
    """Mark the piece done on this claim and write its blocks (``results``: one list per part),
    in one transaction; False (and nothing written) when the claim was lost, a twin having
    stored the same games."""
    with transaction.atomic():
        done = (JobPiece.objects.filter(pk=piece.pk, claim=claim, state=PieceState.RUNNING)
                .update(state=PieceState.DONE, lease_until=None, touched_at=timezone.now()))
        if not done:
            return False
        have = set(JobBlock.objects.filter(
            job_id=piece.job_id, key__in={part["key"] for part in piece.task}).values_list(
            "key", "index"))
        new = [JobBlock(job_id=piece.job_id, key=part["key"], index=part["first"] + i,
                        tally=codec.dump(result))
               for part, played in zip(piece.task, results, strict=True)
               for i, result in enumerate(played) if (part["key"], part["first"] + i) not in have]
        JobBlock.objects.bulk_create(new, ignore_conflicts=True)
        BalanceJob.objects.filter(pk=piece.job_id).update(
            games_played=F("games_played") + len(new) * codec.block_games)
    return True


def piece_play(piece: JobPiece, claim: str, codec: Any) -> bool:
    """Play a claimed piece's parts (its lease renewed meanwhile) and store them; True when
    stored."""
    if sim_conf.chunk_pause():       # fault tests: a moment to kill the worker in
        time.sleep(sim_conf.chunk_pause())
    with protocol.Heartbeat(PIECE_WORK, pk=piece.pk, claim=claim):
        results = [codec.play(codec.decode(part["task"]), part["first"], part["blocks"])
                   for part in piece.task]
    return piece_store(piece, claim, results, codec)


def piece_execute(*, piece_id: int, claim: str, worker: str) -> str:
    """A worker's side: claim one piece, play it, store it, then follow on with the job's next
    waiting pieces straight from the database (``follow_on``); what happened to the first
    piece, for the log."""
    started = time.monotonic()
    piece = protocol.claim(PIECE_WORK, pk=piece_id, claim=claim, worker=worker)
    dispatch_quietly()   # its message left the broker: send the next piece in its place
    if piece is None:
        # Played already (most often by a process following on): follow on from here.
        job_id = JobPiece.objects.filter(pk=piece_id).values_list("job_id", flat=True).first()
        if job_id is not None:
            follow_on(job_id, claim, worker, started=started)
        return "skipped"
    outcome = _execute(piece, claim)
    if outcome == "done":
        follow_on(piece.job_id, claim, worker, started=started)
    return outcome


def follow_on(job_id: int, claim: str, worker: str, *, started: float) -> int:
    """Play the job's waiting pieces one after another (``claim_pending``), without a
    broker round trip each (40–100 ms, as long as a greedy piece's games); the messages of the
    pieces played here find them done. While the job runs and no other work waits, wait up to
    ``LINGER_SECONDS`` for its next step's pieces. Stop after ``FOLLOW_ON_SECONDS`` from
    ``started`` (monotonic) once other work waits — no longer than behind a simulation's chunk
    — and after ``FOLLOW_ON_MAX_SECONDS`` in any case. The pieces played."""
    played, idle_since = 0, None
    mine = Q(job_id=job_id)
    try:
        while True:
            now = time.monotonic()
            if now - started >= FOLLOW_ON_MAX_SECONDS or (
                    now - started >= FOLLOW_ON_SECONDS and waiting_besides(PIECE_WORK, mine)):
                break
            piece = claim_pending(JobPiece.objects.filter(mine), claim, worker)
            if piece is None:
                idle_since = idle_since or now
                if (now - idle_since >= LINGER_SECONDS or waiting_besides(PIECE_WORK, mine)
                        or not BalanceJob.objects.filter(
                            pk=job_id, status=WorkStatus.RUNNING).exists()):
                    break
                time.sleep(POLL_SECONDS)
                continue
            idle_since = None
            if _execute(piece, piece.claim) != "done":
                break
            played += 1
    except (OperationalError, InterfaceError):
        # The first piece is stored; one taken here waits for its lease to end and the
        # reaper to send it again, so the task must not be retried for it.
        log.warning("balance job %s: the database went away between pieces", job_id)
    return played


def claim_pending(pieces: QuerySet[JobPiece], claim: str, worker: str, *,
                  retake: bool = False) -> JobPiece | None:
    """Claim the first of ``pieces`` that waits, in the order they were packed (the biggest
    first: ``piece_sizes``), as ``claim/<id>``; None when none could be taken. A piece whose
    message is in the broker is taken too: the message will find it played. With ``retake``
    a piece this execution itself holds is taken again: a try of it that the database cut
    short (the task is retried with its claim) would otherwise wait out its lease."""
    takeable = Q(state=PieceState.PENDING)
    if retake:
        takeable |= Q(state=PieceState.RUNNING, claim__startswith=f"{claim}/")
    for pk in pieces.filter(takeable).order_by("pk").values_list("pk", flat=True)[:4]:
        piece: JobPiece | None = protocol.claim(PIECE_WORK, pk=pk, claim=f"{claim}/{pk}",
                                                worker=worker)
        if piece is not None:
            return piece
    return None


def _execute(piece: JobPiece, claim: str) -> str:
    """Play and store a claimed piece: "done", "lost" (a twin stored it, or the lease went) or
    "error" (a bug: handed back with a backoff, given up after its attempts)."""
    try:
        return "done" if piece_play(piece, claim, job_codec(piece.job)) else "lost"
    except protocol.LeaseLost:
        return "lost"
    except (OperationalError, InterfaceError):
        raise   # the database is away: the task retries with backoff, keeping its claim
    except Exception:  # a bug: handed back with a backoff, given up after its attempts
        log.exception("piece %s of balance job %s failed", piece.pk, piece.job_id)
        protocol.release(PIECE_WORK, pk=piece.pk, claim=claim,
                         backoff=protocol.backoff_seconds(piece.attempts))
        return "error"


def consecutive_runs(indices: Iterable[int]) -> list[list[int]]:
    """The maximal runs of consecutive block indices."""
    out: list[list[int]] = []
    for i in indices:
        if out and out[-1][-1] == i - 1:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def piece_sizes(agent: str, total_blocks: int, block_games: int) -> list[int]:
    """The blocks of each piece of a batch of ``total_blocks``, in order (see the module's
    docstring): each piece a ``1/(PIECES_PER_PROCESS × workers)`` share of the blocks still
    unpacked, at most a chunk's worth (the blocks of the agent's games that take about a
    second of one worker process here: ``games_in``, the simulations' figure) and at least one
    block — big pieces first, then ever smaller ones, so the worker processes finish a step
    together (guided self-scheduling). ``BALANCE_PIECE_BLOCKS`` fixes the size."""
    if conf.piece_blocks():
        return [conf.piece_blocks()] * -(-total_blocks // conf.piece_blocks())
    pace = max(1, games_in(sim_conf.chunk_seconds(), agent, agent) // block_games)
    share = PIECES_PER_PROCESS * sim_conf.workers()
    sizes, left = [], total_blocks
    while left > 0:
        sizes.append(max(1, min(pace, -(-left // share))))
        left -= sizes[-1]
    return sizes


def pack(batch: Sequence[tuple[str, Any, Sequence[int]]], codec: Any, sizes: Iterable[int]
         ) -> list[list[dict[str, Any]]]:
    """A batch's blocks (``(key, task, indices)``, in the batch's order) as pieces of
    ``sizes`` blocks in turn (the last one again should they run out); a part is a run of
    consecutive blocks of one task, cut where a piece is full."""
    packed: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    upcoming = iter(sizes)
    size = room = next(upcoming)
    for key, task, indices in batch:
        encoded = codec.encode(task)
        for run in consecutive_runs(indices):
            start, left = run[0], len(run)
            while left:
                take = min(left, room)
                current.append({"key": key, "task": encoded, "first": start, "blocks": take})
                start, left, room = start + take, left - take, room - take
                if not room:
                    packed.append(current)
                    current, size = [], next(upcoming, size)
                    room = size
    if current:
        packed.append(current)
    return packed


def piece_name(parts: list[dict[str, Any]]) -> str:
    """A piece's key: the digest of its parts' blocks (the same batch packs the same pieces)."""
    blocks = json.dumps([[part["key"], part["first"], part["blocks"]] for part in parts])
    return hashlib.sha256(blocks.encode()).hexdigest()


def _slowest_agent(job: BalanceJob, batch: Sequence[tuple[str, Any, Sequence[int]]],
                   codec: Any) -> str:
    """The agent of the batch whose games take longest here (a search checked under a strong
    agent sends its games apart from the fast agent's, so its pieces stay about a chunk of a
    simulation run); the job's agent when the codec's tasks do not say."""
    agent_of = getattr(codec, "task_agent", None)
    if agent_of is None:
        return job.agent
    agents: set[str] = {agent_of(task) for _, task, _ in batch} or {job.agent}
    return max(agents, key=lambda name: game_seconds_here(name, name))


def pieces_post(job: BalanceJob, batch: list[tuple[str, Any, range]],
                stored: Collection[tuple[str, int]], codec: Any) -> list[int]:
    """Write the pieces of a batch (``(key, task, block indices)``) that hold a block not yet
    ``stored`` — or find those a previous execution wrote — and hand the given-up ones a fresh
    start; their ids. The whole batch is packed, stored blocks included, so a replay after a lost
    execution names the same pieces; a piece partly stored plays its stored blocks again,
    which are kept once."""
    total = sum(len(indices) for _, _, indices in batch)
    sizes = piece_sizes(_slowest_agent(job, batch, codec), total, codec.block_games)
    rows = [JobPiece(job=job, key=piece_name(parts), first=parts[0]["first"],
                     blocks=sum(part["blocks"] for part in parts), task=parts)
            for parts in pack(batch, codec, sizes)
            if any((part["key"], part["first"] + i) not in stored
                   for part in parts for i in range(part["blocks"]))]
    JobPiece.objects.bulk_create(rows, ignore_conflicts=True)
    names = {row.key for row in rows}
    ids = list(JobPiece.objects.filter(job=job, key__in=names).values_list("pk", flat=True))
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
            if not self._play_one(list(states)):
                if not BalanceJob.objects.filter(pk=self.job.pk, claim=self.claim,
                                                 status=WorkStatus.RUNNING).exists():
                    raise protocol.LeaseLost(self.job.pk)
                reap_soon()    # rate-limited: a piece whose worker died is sent again
                time.sleep(POLL_SECONDS)

    def _play_one(self, unfinished: list[int]) -> bool:
        """Claim one of the unfinished pieces that waits or that this execution held before
        the database cut it short (in packing order: ``claim_pending``) and play it."""
        piece = claim_pending(JobPiece.objects.filter(pk__in=unfinished), self.claim,
                              self.worker, retake=True)
        if piece is None:
            return False
        try:
            piece_play(piece, piece.claim, self.codec)
        except Exception:
            protocol.release(PIECE_WORK, pk=piece.pk, claim=piece.claim, backoff=0)
            raise
        return True
