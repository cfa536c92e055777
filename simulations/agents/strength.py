"""Agent strength and cost, read from the stored AI ladder result (selectors).

The ratings (Bradley–Terry on the Elo scale, with 95 % intervals) and each agent's CPU seconds
per game are computed by ``rules.ai.ratings`` from ``rules/data/ladder.json``, the output of
``python -m rules.lab.ladder --json --write``; nothing here is typed in by hand. The result is read
once per change of that file.

One figure of what a game costs, everywhere (``game_seconds_here``: the simulation form, the AI
players' page, the API's help, the chunk sizes, the time estimates): the seconds one game
between two agents takes on one worker process of this deployment. It is the ladder's CPU
seconds (both agents' decisions plus the rules) at the pace this deployment plays them — the
observed pace of its latest finished chunks between the same agents (``observed_paces``) when
it has played them lately, else the pace a worker measured at start-up for the rules and for
each slow agent's decisions (``simulations.agents.calibration``).

One estimate of a run's time, everywhere (``estimate_seconds``: the simulation form's live
estimate reads its inputs, ``estimate_inputs``, the API gives them, the run page counts down
from it before a chunk has finished, the balance pages and ``bench_estimates`` call it): the
costs besides the games (``simulations.run_costs``: the wait for the first claim, each chunk's
bookkeeping, the finish) + the chunks one worker process plays one after another × (a chunk's
bookkeeping + its games × the seconds of a game here).
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

from django.core.cache import cache
from django.utils import timezone
from django.utils.functional import lazy

from rules.ai.agents import AGENT_NAMES
from rules.ai.ratings import LADDER_FILE, game_costs, load_ladder, seconds_per_game, strength_table
from simulations import conf
from simulations.models import Chunk, ChunkState, PaceCalibration, SimulationRun
from simulations.run_costs import RunCosts, observed_run_costs, rounds

# An agent the ladder never timed counts as a slow one.
FALLBACK_SECONDS_PER_GAME = 0.1
# The observed pace: finished chunks of the last hour (the latest few hundred), between the
# same agents, at least a few of them and a second of the ladder's CPU time together; chunks
# shorter than a quarter of a chunk's time are left out (a small run's chunks of two games are
# mostly their claim and bookkeeping, which the estimates count apart: ``run_costs``).
OBSERVED_KEY = "simulations:observed-pace"
OBSERVED_WINDOW = timedelta(hours=1)
OBSERVED_CHUNKS = 400
OBSERVED_MIN_CHUNKS = 3
OBSERVED_MIN_SECONDS = 1.0
OBSERVED_CACHE_SECONDS = 10
OBSERVED_MIN_CHUNK_SHARE = 0.25
# A small run is cut in at least this many chunks (so the worker processes share it).
MIN_CHUNKS = 8
# An estimate is said as a range once the machine's load may stretch it by this much or more.
RANGE_FROM = 1.3

Pair = tuple[str, str]


def machine_load() -> float | None:
    """The machine's runnable processes over the last minute (the load average), or None
    where it cannot be read. Its own function so the tests hold it still."""
    try:
        return os.getloadavg()[0]
    except (AttributeError, OSError):
        return None


def load_factor(workers: int | None = None) -> float:
    """How many times longer than at the pace measured here the work may take now: the
    runnable processes per core once the worker processes (``SIMULATIONS_WORKERS``) are busy
    too — the load average plus the workers, over the cores, at least 1. Idle: 1; a CPU hog
    on each of two cores beside two workers: 2. The pace the estimates use may already hold
    some of that load (it was measured or observed on a busy machine), so this is the high end
    of a range, never a correction (``estimate_range``). 1 where the load cannot be read; the
    web's machine is the workers' in the default deployment."""
    load = machine_load()
    if load is None:
        return 1.0
    return max(1.0, (load + (workers or conf.workers())) / (os.cpu_count() or 1))


def estimate_range(seconds: float, factor: float | None = None) -> tuple[float, float]:
    """An estimate as the range it spans on this machine now: from ``seconds`` (at the pace
    measured here) to ``seconds`` × the ``load_factor``; one figure (both ends the same) while
    the load stretches it by less than ``RANGE_FROM``."""
    factor = load_factor() if factor is None else factor
    return (seconds, seconds) if factor < RANGE_FROM else (seconds, seconds * factor)


@dataclass(frozen=True)
class TimeLeft:
    """The time a job still needs, in seconds: one figure (``low == high``) once its own pace
    is known, or the range the machine's load may stretch the estimate to
    (``estimate_range``). The pages say the high end; the API gives both."""
    low: float
    high: float

    @property
    def is_range(self) -> bool:
        return self.high > self.low

    def as_dict(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "is_range": self.is_range}


def pace_factor() -> float:
    """The rules' factor of the latest pace measurement (1 when no worker has measured yet)."""
    factor = PaceCalibration.objects.values_list("factor", flat=True).first()
    return factor if factor and factor > 0 else 1.0


def agent_factors() -> dict[str, float]:
    """Each timed agent's factor (and the rules', ``engine``) from the latest measurement: a
    slow agent's own when it was measured, the rules' otherwise."""
    row = PaceCalibration.objects.only("factor", "agents").first()
    rules = row.factor if row and row.factor > 0 else 1.0
    factors = dict.fromkeys(agent_costs(), rules)
    for name, pace in ((row.agents or {}) if row else {}).items():
        if name in factors and (pace or {}).get("factor", 0) > 0:
            factors[name] = float(pace["factor"])
    return factors


def _pair(agent_a: str, agent_b: str) -> Pair:
    first, second = sorted((agent_a, agent_b))
    return first, second


def observed_paces() -> dict[Pair, float]:
    """Wall-clock seconds ÷ the ladder's CPU seconds of the latest finished chunks, for each
    pair of agents (sorted) that played enough of them lately; chunks played more than once
    (a worker died) are left out. Computed at most every few seconds (the cache)."""
    def compute() -> dict[Pair, float]:
        rows = (Chunk.objects.filter(state=ChunkState.DONE, attempts=1, started_at__isnull=False,
                                     finished_at__gte=timezone.now() - OBSERVED_WINDOW,
                                     cpu_seconds__gt=0)
                .order_by("-finished_at")
                .values_list("run__agent_a", "run__agent_b", "started_at", "finished_at",
                             "cpu_seconds")[:OBSERVED_CHUNKS])
        sums: dict[Pair, list[float]] = {}
        shortest = conf.chunk_seconds() * OBSERVED_MIN_CHUNK_SHARE
        for agent_a, agent_b, started, finished, cpu in rows:
            if started is None or finished is None:
                continue   # never: the query asks for both
            if (finished - started).total_seconds() < shortest:
                continue
            total = sums.setdefault(_pair(agent_a, agent_b), [0, 0.0, 0.0])
            total[0] += 1
            total[1] += (finished - started).total_seconds()
            total[2] += cpu
        return {pair: wall / cpu for pair, (count, wall, cpu) in sums.items()
                if count >= OBSERVED_MIN_CHUNKS and cpu >= OBSERVED_MIN_SECONDS}
    # computed when missing, so never None (the stubs allow a cache that stores nothing)
    return cast(dict[Pair, float], cache.get_or_set(OBSERVED_KEY, compute,
                                                    OBSERVED_CACHE_SECONDS))


@functools.lru_cache(maxsize=4)
def _table(path: str, stamp: float) -> dict[str, Any]:
    from pathlib import Path

    return strength_table(Path(path))


@functools.lru_cache(maxsize=4)
def _report(path: str, stamp: float) -> dict[str, Any]:
    from pathlib import Path

    return load_ladder(Path(path))


def ladder_parts(agent_a: str, agent_b: str) -> tuple[float, float, float] | None:
    """CPU seconds of a game between these agents on the ladder's machine: ``agent_a``'s
    decisions, ``agent_b``'s and the rules (``rules.ai.ratings.game_costs``: the ladder's own
    figures for a pair it played); None if an agent was never timed."""
    try:
        stamp = LADDER_FILE.stat().st_mtime
    except FileNotFoundError:
        return None
    return game_costs(_report(str(LADDER_FILE), stamp), agent_a, agent_b)


def agent_strength() -> dict[str, Any]:
    """``{"ratings": [...], "rungs": [...], "anchor", "engine_seconds_per_game"}`` (see
    ``rules.ai.ratings.strength_table``); empty lists when no ladder result is stored."""
    try:
        stamp = LADDER_FILE.stat().st_mtime
    except FileNotFoundError:
        return {"ratings": [], "rungs": [], "anchor": None, "engine_seconds_per_game": 0.0}
    return _table(str(LADDER_FILE), stamp)


def agent_costs() -> dict[str, float]:
    """CPU seconds per game of each rated agent's decisions, plus ``engine``."""
    table = agent_strength()
    costs = {r["name"]: r["seconds_per_game"] for r in table["ratings"]
             if r["seconds_per_game"] is not None}
    costs["engine"] = table["engine_seconds_per_game"]
    return costs


def agent_rating(name: str) -> dict[str, Any] | None:
    return next((r for r in agent_strength()["ratings"] if r["name"] == name), None)


def ladder_game_seconds(agent_a: str, agent_b: str) -> float:
    """CPU seconds of one game between these agents on the ladder's machine (both agents'
    decisions and the rules); an agent the ladder never timed counts as a slow one
    (``FALLBACK_SECONDS_PER_GAME``): a cap or a chunk should err on the safe side."""
    parts = ladder_parts(agent_a, agent_b)
    return FALLBACK_SECONDS_PER_GAME if parts is None else sum(parts)


def measured_game_seconds(agent_a: str, agent_b: str) -> float:
    """The ladder's seconds of one game at the paces measured at a worker's start: each
    agent's decisions at its own factor, the rules at theirs."""
    parts, factors = ladder_parts(agent_a, agent_b), agent_factors()
    if parts is None:
        return FALLBACK_SECONDS_PER_GAME * factors.get("engine", 1.0)
    decisions_a, decisions_b, rules = parts
    return (decisions_a * factors[agent_a] + decisions_b * factors[agent_b]
            + rules * factors.get("engine", 1.0))


def game_seconds_here(agent_a: str, agent_b: str) -> float:
    """Seconds one game between these agents takes on one worker process of this deployment:
    at the observed pace of its latest chunks between them, else at the measured paces. The
    one per-game figure the site shows (the simulation form, the AI players' page, the API)
    and sizes its chunks by."""
    observed = observed_paces().get(_pair(agent_a, agent_b))
    if observed:
        return ladder_game_seconds(agent_a, agent_b) * observed
    return measured_game_seconds(agent_a, agent_b)


def games_in(seconds: float, agent_a: str, agent_b: str) -> int:
    """Whole seat-swapped pairs of games between these agents that take about ``seconds`` on
    one worker process here: the nearest whole number of pairs, at least one."""
    return 2 * max(1, round(seconds / game_seconds_here(agent_a, agent_b) / 2))


def chunk_games(games: int, agent_a: str, agent_b: str) -> int:
    """Games per chunk of a pairing of ``games`` games: about ``SIMULATIONS_CHUNK_SECONDS`` of
    one worker process here (``games_in``), and at least ``MIN_CHUNKS`` chunks for a small
    pairing (so several workers share it). Always whole seat-swapped pairs."""
    size = min(games_in(conf.chunk_seconds(), agent_a, agent_b),
               max(2, math.ceil(games / MIN_CHUNKS)))
    return max(2, size - size % 2)


def run_costs() -> RunCosts:
    """What a run costs here besides its games (``simulations.run_costs``)."""
    return observed_run_costs(game_seconds_here, conf.workers())


def estimate_seconds(*, agent_a: str, agent_b: str, games: int, pairings: int = 1,
                     chunks: int | None = None, workers: int | None = None,
                     started: bool = False) -> float | None:
    """Wall-clock seconds from submission to figures of a run of ``games`` games in all
    (``pairings`` pairings of equal games) between these agents on this deployment's idle
    workers (None if an agent has no measured cost): the costs besides the games
    (``run_costs``) + the chunks one worker process plays one after another × (a chunk's
    bookkeeping + its games at ``game_seconds_here``). ``chunks`` defaults to how a run
    would be cut (``chunk_games``); ``started``: from the run's first claim on."""
    if seconds_per_game(agent_costs(), agent_a, agent_b) is None:
        return None
    if chunks is None:
        per_pairing = games // max(1, pairings)
        chunks = pairings * math.ceil(per_pairing / chunk_games(per_pairing, agent_a, agent_b))
    costs = run_costs()
    return (0.0 if started else costs.start) + chunks_seconds(
        games=games, chunks=chunks, per_game=game_seconds_here(agent_a, agent_b),
        workers=workers, costs=costs)


def chunks_seconds(*, games: int, chunks: int, per_game: float, workers: int | None = None,
                   costs: RunCosts | None = None) -> float:
    """Seconds from the first claim of ``chunks`` chunks of ``games`` games in all (each
    ``per_game`` seconds on one worker process) to the run's figures: the chunks one worker
    process plays one after another × (a chunk's bookkeeping + its games), and the finish."""
    costs = costs or run_costs()
    chunks = max(1, chunks)
    turns = rounds(chunks, workers or conf.workers())
    return costs.finish + turns * (costs.chunk + per_game * games / chunks)


def run_estimate_seconds(run: SimulationRun, *, started: bool = False) -> float | None:
    """``estimate_seconds`` of a submitted run, cut as it was cut (its chunks)."""
    return estimate_seconds(agent_a=run.agent_a, agent_b=run.agent_b, games=run.games_total,
                            chunks=Chunk.objects.filter(run=run).count(), started=started)


def cost_lines() -> list[tuple[str, float]]:
    """(agent, seconds a game with itself in both seats here) in registry order, for the form's
    help and the AI players' page: the same figure in both."""
    costs = agent_costs()
    return [(name, game_seconds_here(name, name)) for name in AGENT_NAMES
            if seconds_per_game(costs, name, name) is not None]


def strength_rows(table: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The ratings with each agent's readable name and label, best first."""
    from cards.game_words import game_word

    table = table or agent_strength()
    here = dict(cost_lines())
    return [{**r, "title": game_word("agent", r["name"]),
             "label": game_word("agent_label", r["name"]), "game_seconds": here.get(r["name"])}
            for r in table["ratings"]]


def _agent_help() -> str:
    """The API docs' description of an agent field: the agents, what a game cost on the AI
    ladder and where this deployment's own figure is. The schema reads no database (it is
    generated by `check --deploy` before any migration, and kept by clients): the figure at
    this deployment's pace is ``game_seconds`` of /api/simulations/agents/."""
    ladder = agent_costs()
    costs = ", ".join(f"{name} {ladder_game_seconds(name, name):.4f} s" for name in AGENT_NAMES
                      if seconds_per_game(ladder, name, name) is not None)
    return ("An AI player; /api/simulations/agents/ rates them (strength with 95 % intervals) "
            "and gives each one's game_seconds: the seconds of one game with it in both seats "
            "on one worker process of this deployment. CPU time of such a game on the AI "
            f"ladder's machine: {costs}. A run takes about start + finish + (its chunks ÷ "
            f"{conf.workers()} workers, rounded up) × (chunk + seconds a game between agent A "
            "and agent B × the games of a chunk) from submission to figures, with start, chunk "
            "and finish the costs besides the games that run_costs of /api/simulations/agents/ "
            "gives.")


# Read when the docs are rendered, not when a serializer is defined: the ladder's file may be
# written again while the site runs.
agent_help = lazy(_agent_help, str)


def estimate_inputs() -> dict[str, Any]:
    """What the simulation form's live estimate (static/js/run_estimate.js: the arithmetic of
    ``estimate_seconds``) computes with: the seconds of a game between each two agents here
    (``game_seconds_here``), the games of a one-second chunk between them (``games_in``), the
    costs besides the games (``run_costs``), the worker processes, the least chunks of a
    pairing, the rules' factor of the latest measurement, and the machine's ``load_factor``
    (the high end of the range the form says once it reaches ``range_from``)."""
    costs = agent_costs()
    names = [name for name in AGENT_NAMES if name in costs]
    return {"games": {a: {b: game_seconds_here(a, b) for b in names} for a in names},
            "chunk": {a: {b: games_in(conf.chunk_seconds(), a, b) for b in names}
                      for a in names},
            "costs": run_costs().as_dict(), "min_chunks": MIN_CHUNKS,
            "workers": conf.workers(), "factor": pace_factor(),
            "load": load_factor(), "range_from": RANGE_FROM}
