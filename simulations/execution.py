"""Playing one chunk of a run on a worker, and finalising the run when its last chunk ends.

The life of a chunk: PENDING (waiting in the database for its turn, then its message in the
broker: ``work.fair``) → RUNNING (a worker claimed it through the one work protocol,
``work.protocol``: ``claim`` is its task id, ``lease_until`` is renewed by heartbeats) →
DONE (its ``ChunkResult`` is written in the same transaction), or FAILED (started
``max_attempts`` times without finishing), or SKIPPED (the run was cancelled, or the matchup
stopped early).

Invariants:
- The result of a chunk is written at most once: completion locks the run row, then the chunk
  row, re-checks the state and inserts the ``ChunkResult`` under a unique (run, chunk index)
  constraint. A twin execution (a message delivered twice, a lease that expired while its worker
  was alive) finds the chunk DONE and discards its work; the games are deterministic, so both
  executions found the same thing.
- Locks are always taken run first, then chunk; the claim locks only the chunk.
- The last chunk to reach a terminal state finalises the run inside that same transaction
  (no chords): the run's figures are the merge of its ChunkResults in chunk order, so they are
  the same whatever worker played what, and in whatever order.
- Early stop is decided on the longest run of finished chunks from a matchup's first chunk, in
  order, so it stops after the same chunk whatever the timing.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.db.models import F, Min
from django.utils import timezone

from rules.engine.cards import CardDef, DeckList, Ruleset
from rules.lab import card_figures
from rules.lab.intervals import Moments
from rules.lab.match import play_games, tally
from rules.lab.stats import MatchStats
from simulations import conf
from simulations.meta.field import run_meta_store
from simulations.models import (
    TERMINAL_CHUNK_STATES,
    Chunk,
    ChunkResult,
    ChunkState,
    Matchup,
    RunKind,
    SampleGame,
    SimulationRun,
)
from simulations.reports import MatchupMerged, matchup_merge
from simulations.sources import engine_objects
from work import protocol
from work.conf import heartbeat_seconds
from work.fair import dispatch_quietly
from work.models import ACTIVE_WORK_STATUSES, WorkStatus

log = logging.getLogger(__name__)

OUTCOME = {"a": "a", "b": "b", None: "d"}
GAVE_UP = ("Chunk {index} was started {attempts} times without finishing (a worker crashed or "
           "was stopped each time); it is given up. Last error: {error}")
RUN_FAILED = "{count} chunk(s) failed; the figures cover the games that finished."
EARLY_STOP_MIN_GAMES = 100


# The chunk was taken away while playing it (cancelled, stopped early, or reclaimed).
ChunkAbandoned = protocol.LeaseLost


@dataclass
class ChunkOutput:
    stats: MatchStats
    outcomes: list[str] = field(default_factory=list)
    samples: list[SampleGame] = field(default_factory=list)


# Engine objects of a run, by (pk, uid): a run never changes what it plays, so parsing its
# frozen cards once per worker process is enough.
_ENGINE_CACHE: OrderedDict[tuple[int, str], tuple[dict[str, CardDef], list[DeckList],
                                                   Ruleset]] = OrderedDict()


def run_engine(run: SimulationRun) -> tuple[dict[str, CardDef], list[DeckList], Ruleset]:
    key = (run.pk, run.uid)
    if key not in _ENGINE_CACHE:
        cards, decks = engine_objects(run.cards, run.decks)
        _ENGINE_CACHE[key] = (cards, decks, Ruleset.from_dict(run.ruleset))
        while len(_ENGINE_CACHE) > 16:
            _ENGINE_CACHE.popitem(last=False)
    return _ENGINE_CACHE[key]


def _now() -> datetime:
    return timezone.now()


def _run_starts(chunk: Chunk) -> None:
    (SimulationRun.objects.filter(pk=chunk.run_id, status=WorkStatus.QUEUED)
     .update(status=WorkStatus.RUNNING, started_at=_now()))


def _fresh_start(chunk: Chunk, now: datetime) -> list[str]:
    chunk.games_done = 0
    return ["games_done"]


CHUNK_WORK = protocol.WorkKind(
    name="chunk", model=Chunk, task="simulations.tasks.simulation_chunk_run", state="state",
    waiting=ChunkState.PENDING, running=ChunkState.RUNNING, owner="run__owner",
    submitted="run__created_at", order=("run_id", "index"),
    max_attempts=conf.max_attempts, error_field="error", related=("run", "matchup"),
    give_up=lambda pk: chunk_give_up(chunk_id=pk),
    claimable=lambda chunk: chunk.run.status in ACTIVE_WORK_STATUSES,
    claimed=_run_starts, claim_fields=_fresh_start)


# ------------------------------------------------------------------------------ claim


def chunk_claim(*, chunk_id: int, claim: str, worker: str) -> Chunk | None:
    """Take the chunk for this execution (``protocol.claim``), or None if it needs no playing."""
    return protocol.claim(CHUNK_WORK, pk=chunk_id, claim=claim, worker=worker)


def chunk_give_up(*, chunk_id: int) -> None:
    with transaction.atomic():
        chunk = Chunk.objects.filter(pk=chunk_id).only("run_id").first()
        if chunk is None:
            return
        run = SimulationRun.objects.select_for_update().get(pk=chunk.run_id)
        chunk = Chunk.objects.select_for_update().get(pk=chunk_id)
        if chunk.state in TERMINAL_CHUNK_STATES:
            return
        chunk.error = GAVE_UP.format(index=chunk.index, attempts=chunk.attempts,
                                     error=chunk.error or "none recorded")[:4000]
        chunk.state = ChunkState.FAILED
        chunk.claim, chunk.lease_until, chunk.finished_at = "", None, _now()
        chunk.save(update_fields=["error", "state", "claim", "lease_until", "finished_at"])
        if run.status in ACTIVE_WORK_STATUSES:
            finalise_if_complete(run)


# ------------------------------------------------------------------------------ play


def chunk_play(chunk: Chunk, *, claim: str) -> ChunkOutput:
    """Play the chunk's games through the match runner (``rules.lab.match.play_games``: the very
    games a whole run plays in that slice), renewing the lease every heartbeat;
    ChunkAbandoned if the chunk is taken away."""
    run, matchup = chunk.run, chunk.matchup
    cards, decks, ruleset = run_engine(run)
    deck_a, deck_b = decks[matchup.a], decks[matchup.b]
    out = ChunkOutput(MatchStats())
    pause = conf.chunk_pause()
    if pause:
        _wait(chunk, claim, pause)
    beat, last = heartbeat_seconds(), time.monotonic()
    games = play_games(cards, deck_a, deck_b, seed=run.seed, start=chunk.start, stop=chunk.stop,
                       agent_a=run.agent_a, agent_b=run.agent_b, ruleset=ruleset,
                       log_game=lambda index: index < run.replays)
    for index, result in games:
        tally(out.stats, result)
        out.outcomes.append("e" if result.error else OUTCOME[result.winner])
        if result.log is not None:
            out.samples.append(SampleGame(
                run_id=run.pk, matchup_id=matchup.pk, game_index=index, seed=result.seed,
                a_first=result.a_first, winner=result.winner or "", turns=result.turns,
                log=result.log))
        if time.monotonic() - last >= beat:
            heartbeat(chunk, claim=claim, games_done=index - chunk.start + 1)
            last = time.monotonic()
    return out


def _wait(chunk: Chunk, claim: str, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(min(0.05, max(0.0, end - time.monotonic())))
    heartbeat(chunk, claim=claim, games_done=0)


def heartbeat(chunk: Chunk, *, claim: str, games_done: int) -> None:
    """Report progress and renew the lease; ChunkAbandoned if this execution lost the chunk."""
    protocol.renew(CHUNK_WORK, pk=chunk.pk, claim=claim, games_done=games_done)


def chunk_failed(chunk: Chunk, *, claim: str, error: BaseException) -> None:
    """An exception outside the games (which catch their own): keep the message and hand the
    chunk back with a backoff; the dispatcher sends it again when the backoff ends."""
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))[-4000:]
    protocol.release(CHUNK_WORK, pk=chunk.pk, claim=claim,
                     backoff=protocol.backoff_seconds(chunk.attempts), error=text)


# ------------------------------------------------------------------------------ complete


def chunk_complete(chunk: Chunk, output: ChunkOutput, *, worker: str) -> str:
    """Record what the chunk found, once; finalise the run if this was its last chunk.
    Returns "done", or "duplicate" when another execution had already recorded it."""
    stats = output.stats
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=chunk.run_id)
        row = Chunk.objects.select_for_update().get(pk=chunk.pk)
        if row.state in TERMINAL_CHUNK_STATES or run.status not in ACTIVE_WORK_STATUSES:
            return "duplicate"
        try:
            with transaction.atomic():
                ChunkResult.objects.create(
                    run=run, matchup_id=row.matchup_id, chunk_index=row.index, games=stats.games,
                    wins=stats.wins, losses=stats.losses, draws=stats.draws,
                    errors=stats.errors, counts=stats.counts(),
                    outcomes="".join(output.outcomes), worker=worker[:200])
        except IntegrityError:
            duplicate = True
        else:
            duplicate = False
            SampleGame.objects.bulk_create(output.samples, ignore_conflicts=True)
            (SimulationRun.objects.filter(pk=run.pk)
             .update(games_done=F("games_done") + stats.games))
        now = _now()
        row.state, row.claim, row.lease_until = ChunkState.DONE, "", None
        row.games_done, row.finished_at, row.touched_at = row.size, now, now
        row.save(update_fields=["state", "claim", "lease_until", "games_done", "finished_at",
                                "touched_at"])
        if run.stop_width and not duplicate:
            early_stop_check(run, row.matchup_id, row.index)
        finalise_if_complete(run)
    return "duplicate" if duplicate else "done"


def early_stop_checkpoint(taken: int) -> bool:
    """Whether early stop is judged after the first ``taken`` chunks of a matchup: after each
    of the first 31, then after every 2nd up to 63, every 4th up to 127, … — about sixteen
    judgements per doubling, so a matchup of thousands of one-second chunks is judged a few
    hundred times, never once per chunk over all the chunks before it."""
    step = 1 << max(0, taken.bit_length() - 5)
    return taken % step == 0


def early_stop_check(run: SimulationRun, matchup_id: int, index: int) -> None:
    """Stop a matchup once the finished chunks from its first one, in order, give a win-rate
    interval narrower than ``run.stop_width``, judged at each ``early_stop_checkpoint`` the
    run of finished chunks reaches; the chunks after them are skipped. ``index`` is the chunk
    that just finished: only when it extends that run is there anything new to judge."""
    matchup = Matchup.objects.get(pk=matchup_id)
    if matchup.stopped_after is not None:
        return
    chunks = Chunk.objects.filter(matchup=matchup)
    first = chunks.aggregate(first=Min("index"))["first"]
    frontier = chunks.exclude(state=ChunkState.DONE).aggregate(low=Min("index"))["low"]
    if first is None or frontier is None or frontier <= index:
        return   # an earlier chunk still plays, or every chunk is done (nothing left to stop)
    judged = [k for k in range(index - first + 1, frontier - first + 1)
              if early_stop_checkpoint(k)]
    if not judged:
        return
    rows = (ChunkResult.objects.filter(matchup=matchup, chunk_index__lt=first + judged[-1])
            .order_by("chunk_index").values_list("wins", "losses", "draws", "counts__pairs__a"))
    stats = MatchStats(pairs={"a": Moments(), "b": Moments()})
    for taken, (wins, losses, draws, pairs) in enumerate(rows, start=1):
        stats.wins, stats.losses, stats.draws = (stats.wins + wins, stats.losses + losses,
                                                 stats.draws + draws)
        if pairs is None or stats.pairs is None:
            stats.pairs = None
        else:
            stats.pairs["a"] = stats.pairs["a"].merge(Moments.from_list(pairs))
        if taken not in judged:
            continue
        rate = stats.side_rate("a")   # the pair-aware interval the results report
        width = run.stop_width        # set: only then is a run's matchup judged (the caller)
        if stats.completed >= EARLY_STOP_MIN_GAMES and width is not None and \
                rate["high"] - rate["low"] <= width:
            Matchup.objects.filter(pk=matchup.pk).update(stopped_after=taken)
            (Chunk.objects.filter(matchup=matchup, index__gte=first + taken)
             .exclude(state__in=TERMINAL_CHUNK_STATES)
             .update(state=ChunkState.SKIPPED, claim="", lease_until=None))
            return


# ------------------------------------------------------------------------------ finalise


def finalise_if_complete(run: SimulationRun) -> bool:
    """Finalise a locked, active run whose chunks have all ended."""
    if Chunk.objects.filter(run=run).exclude(state__in=TERMINAL_CHUNK_STATES).exists():
        return False
    failed = Chunk.objects.filter(run=run, state=ChunkState.FAILED).count()
    finalise(run, status=WorkStatus.FAILED if failed else WorkStatus.DONE,
             error=RUN_FAILED.format(count=failed) if failed else "")
    return True




def card_totals(results: list[MatchupMerged], side: str) -> dict[str, dict[str, Any]]:
    """Per-card totals of one side ("a" or "b") of every matchup, in the fields of the
    catalogue's per-card stats (``cards.card_stats.card_stats_add``), with pair moments."""
    table: dict[str, list[float]] = {}
    for result in results:
        card_figures.merge(table, (result["counts"].get("cards") or {}).get(side) or {})
    totals: dict[str, dict[str, Any]] = card_figures.totals(table)    # counts, then moments
    for code, moments in card_figures.moments(table).items():
        totals[code]["moments"] = moments
    return totals


def finalise(run: SimulationRun, *, status: str, error: str = "") -> None:
    """Write each matchup's figures, add the games to the catalogue's per-card stats and close
    the run. The caller holds the run's row lock inside a transaction."""
    from cards.card_stats import card_stats_add

    results = []
    for matchup in run.matchups.order_by("index"):
        matchup.result = matchup_merge(matchup)
        matchup.save(update_fields=["result"])
        results.append(matchup.result)
    if not run.patch:   # a patched card's figures are not the catalogue card's
        for side, agent in (("a", run.agent_a), ("b", run.agent_b)):
            totals = card_totals(results, side)
            if totals:
                card_stats_add(totals=totals, agent=agent, ruleset=run.ruleset,
                               card_data_version=run.card_data_version)
    run.status, run.error, run.finished_at = status, error, _now()
    run.games_done = SimulationRun.objects.values_list("games_done", flat=True).get(pk=run.pk)
    run.save(update_fields=["status", "error", "finished_at"])
    if run.kind == RunKind.ROUND_ROBIN:   # its meta costs seconds: paid here, not by a page
        transaction.on_commit(partial(run_meta_store, run_id=run.pk), robust=True)


# ------------------------------------------------------------------------------ the task's body


def chunk_execute(*, chunk_id: int, claim: str, worker: str) -> str:
    """Everything a chunk task does: claim, play, record. Safe to run any number of times."""
    chunk = chunk_claim(chunk_id=chunk_id, claim=claim, worker=worker)
    dispatch_quietly()   # its message left the broker: send the next piece in its place
    if chunk is None:
        return "skipped"
    try:
        output = chunk_play(chunk, claim=claim)
    except ChunkAbandoned:
        return "abandoned"
    except (OperationalError, InterfaceError):
        raise   # the database is away: the task retries with backoff, keeping its claim
    except Exception as exc:  # a bug outside the games: retried with backoff, then given up
        log.exception("simulation chunk %s failed", chunk_id)
        chunk_failed(chunk, claim=claim, error=exc)
        return "error"
    return chunk_complete(chunk, output, worker=worker)
