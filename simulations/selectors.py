"""Reads of simulation runs. Visibility lives here: another user's private run is "no such run"
(``SimulationRun.DoesNotExist`` → 404 everywhere)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Min, Q, QuerySet, Sum
from django.utils import timezone

from common.visitor import Visitor
from decks.models import Deck
from decks.selectors import deck_is_visible
from rules.lab.intervals import wilson_interval
from simulations.agents.strength import (
    TimeLeft,
    chunks_seconds,
    estimate_range,
    game_seconds_here,
    run_estimate_seconds,
)
from simulations.models import Chunk, ChunkResult, ChunkState, Matchup, SampleGame, SimulationRun
from work.models import WorkStatus

LIST_FIELDS_DEFERRED = ("cards", "decks", "ruleset")
OWN_PACE_CHUNKS = 200     # a running run's latest finished chunks give its pace


def _visible_q(user: Visitor) -> Q:
    q = Q(is_public=True)
    if user is not None and user.is_authenticated:
        q |= Q(owner=user)
        if user.is_staff:
            q = Q()
    return q


def runs_visible(user: Visitor = None) -> QuerySet[SimulationRun]:
    """Runs a user may open: their own, public ones (staff: all)."""
    return SimulationRun.objects.filter(_visible_q(user)).select_related("owner", "deck")


def runs_listed(user: Visitor = None, *, deck_uid: str | None = None, mine: bool = False
                ) -> QuerySet[SimulationRun]:
    """Runs for lists (newest first), without the big frozen JSON columns."""
    runs = runs_visible(user).defer(*LIST_FIELDS_DEFERRED).order_by("-created_at", "-id")
    if mine and user is not None and user.is_authenticated:
        runs = runs.filter(owner=user)
    if deck_uid:
        runs = runs.filter(deck__uid=deck_uid)
    return runs


def run_get(*, uid: str, user: Visitor = None) -> SimulationRun:
    return runs_visible(user).get(uid=uid)


def run_is_owner(*, run: SimulationRun, user: Visitor) -> bool:
    return bool(user is not None and user.is_authenticated
                and (run.owner_id == user.pk or user.is_staff))


@dataclass(frozen=True)
class Progress:
    games_done: int
    games_total: int
    chunks_done: int
    chunks_total: int
    chunks_running: int
    wins: int
    completed: int

    @property
    def fraction(self) -> float:
        return min(1.0, self.games_done / self.games_total) if self.games_total else 1.0

    @property
    def percent(self) -> int:
        return int(self.fraction * 100)

    @property
    def interim_rate(self) -> float | None:
        return self.wins / self.completed if self.completed else None

    @property
    def interim_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.completed)

    def as_dict(self) -> dict[str, Any]:
        low, high = self.interim_interval
        return {"games_done": self.games_done, "games_total": self.games_total,
                "fraction": round(self.fraction, 4), "chunks_done": self.chunks_done,
                "chunks_total": self.chunks_total, "chunks_running": self.chunks_running,
                "interim_win_rate": {"rate": self.interim_rate, "low": low, "high": high,
                                     "games": self.completed}}


def run_progress(run: SimulationRun) -> Progress:
    """Games finished (whole chunks, plus what running chunks reported), in three queries."""
    states = dict(Chunk.objects.filter(run=run).values("state").annotate(n=Count("pk"))
                  .values_list("state", "n"))
    running = (Chunk.objects.filter(run=run, state=ChunkState.RUNNING)
               .aggregate(g=Sum("games_done"))["g"] or 0)
    head = ChunkResult.objects.filter(run=run, matchup__index=0).aggregate(
        w=Sum("wins"), lo=Sum("losses"), d=Sum("draws"))
    done = SimulationRun.objects.values_list("games_done", flat=True).get(pk=run.pk)
    total = run.games_total
    if run.status == WorkStatus.DONE:
        total = done or total   # an early stop finishes with fewer games than planned
    wins = head["w"] or 0
    return Progress(games_done=min(done + running, total), games_total=total,
                    chunks_done=states.get(ChunkState.DONE, 0),
                    chunks_total=sum(states.values()),
                    chunks_running=states.get(ChunkState.RUNNING, 0),
                    wins=wins, completed=wins + (head["lo"] or 0) + (head["d"] or 0))


def run_samples(run: SimulationRun) -> QuerySet[SampleGame]:
    return (SampleGame.objects.filter(run=run).defer("log").select_related("matchup")
            .order_by("matchup__index", "game_index"))


def run_sample(*, run: SimulationRun, number: int) -> SampleGame:
    """The n-th kept game of a run (1-based, in the order of ``run_samples``)."""
    if number < 1:
        raise SampleGame.DoesNotExist
    pks = list(run_samples(run).values_list("pk", flat=True)[number - 1:number])
    if not pks:
        raise SampleGame.DoesNotExist
    return SampleGame.objects.select_related("matchup").get(pk=pks[0])


def runs_with_rates(runs: Iterable[SimulationRun]) -> list[SimulationRun]:
    """The runs, each with ``deck_a_wins`` and ``deck_a_games`` (draws count as not won,
    engine errors are left out) over the games deck A played as the first deck of a pairing —
    every game of a match or gauntlet — counting only the chunks an early stop kept. Three
    queries for the whole list."""
    runs = list(runs)
    ids = [run.pk for run in runs]
    stops = dict(Matchup.objects.filter(run__in=ids, a=0, stopped_after__isnull=False)
                 .values_list("pk", "stopped_after"))
    firsts = dict(Chunk.objects.filter(matchup__in=stops).values("matchup")
                  .annotate(first=Min("index")).values_list("matchup", "first"))
    totals: dict[int, list[int]] = {}
    rows = (ChunkResult.objects.filter(run__in=ids, matchup__a=0)
            .values_list("run", "matchup", "chunk_index", "wins", "losses", "draws"))
    for run_id, matchup_id, index, wins, losses, draws in rows:
        if matchup_id in stops and index >= firsts.get(matchup_id, 0) + stops[matchup_id]:
            continue
        total = totals.setdefault(run_id, [0, 0])
        total[0] += wins
        total[1] += wins + losses + draws
    for run in runs:
        run.deck_a_wins, run.deck_a_games = totals.get(run.pk, (0, 0))
    return runs


def run_game_seconds(run: SimulationRun) -> float:
    """Seconds a game of this run takes on one worker process: from its own finished chunks
    once a couple have finished (their wall time per game: the load and each chunk's
    bookkeeping included, the wait for the first message not), before that the deployment's
    figure for its agents (``game_seconds_here``)."""
    rows = (Chunk.objects.filter(run=run, state=ChunkState.DONE, attempts=1,
                                 started_at__isnull=False, finished_at__isnull=False)
            .order_by("-finished_at").values_list("started_at", "finished_at", "start", "stop")
            [:OWN_PACE_CHUNKS])
    wall = games = 0.0
    for started, finished, start, stop in rows:
        if started is None or finished is None:
            continue   # never: the query asks for both
        wall += (finished - started).total_seconds()
        games += stop - start
    if len(rows) >= 2 and wall > 0:
        return wall / games
    return game_seconds_here(run.agent_a, run.agent_b)


def run_time_left(run: SimulationRun, progress: Progress) -> TimeLeft | None:
    """An estimate of the time a running run still needs: its games and chunks left as the
    estimate counts them (``chunks_seconds``: the chunks each worker process still plays one
    after another × (a chunk's bookkeeping + its games), and the finish), a game at the
    seconds a game of it takes (``run_game_seconds``): one figure.
    Before any chunk has finished, the run's estimate from its first claim on
    (``run_estimate_seconds``: the same as the form's, less the wait for that claim) as the
    range the machine's load may stretch it to (``estimate_range``), less the time it has run;
    None when queued, when every game is played (the page says the figures are being
    finished), or when that range's high end has run out before the first chunk finished (the
    page then says it is working the time out)."""
    if run.status != WorkStatus.RUNNING or run.started_at is None:
        return None
    done, total = progress.games_done, progress.games_total
    if done >= total:
        return None
    if progress.chunks_done == 0:
        elapsed = (timezone.now() - run.started_at).total_seconds()
        low, high = estimate_range(run_estimate_seconds(run, started=True) or 0.0)
        return TimeLeft(max(low - elapsed, 0.0), high - elapsed) if high > elapsed else None
    seconds = chunks_seconds(games=total - done, chunks=progress.chunks_total
                             - progress.chunks_done, per_game=run_game_seconds(run))
    return TimeLeft(seconds, seconds)


def run_seconds_left(run: SimulationRun, progress: Progress) -> float | None:
    """What the run's page says is left: the high end of ``run_time_left``."""
    left = run_time_left(run, progress)
    return None if left is None else left.high


def run_decks_shown(run: SimulationRun, user: Visitor = None) -> list[dict[str, Any]]:
    """The run's frozen decks as ``user`` may see them: each deck's name and list as
    snapshotted, but the id (and version) of a saved deck only while ``user`` may open it. A
    public run outlives its decks' visibility: a deck its owner has made private since is no
    longer named by its address."""
    uids = [deck.get("uid") for deck in run.decks if deck.get("uid")]
    visible = {deck.uid for deck in Deck.objects.filter(uid__in=uids).select_related("owner")
               if deck_is_visible(deck=deck, user=user)}
    return [deck if not deck.get("uid") or deck["uid"] in visible
            else {**deck, "uid": None, "version": None} for deck in run.decks]
