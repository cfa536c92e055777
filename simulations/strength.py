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
each slow agent's decisions (``simulations.calibration``). A run's time estimate is its games
× that figure ÷ the worker processes (``SIMULATIONS_WORKERS``).
"""

from __future__ import annotations

import functools
from datetime import timedelta
from typing import Any

from django.core.cache import cache
from django.utils import timezone
from django.utils.functional import lazy

from rules.ai.agents import AGENT_NAMES
from rules.ai.ratings import LADDER_FILE, seconds_per_game, strength_table
from simulations import conf
from simulations.models import Chunk, ChunkState, PaceCalibration

# An agent the ladder never timed counts as a slow one.
FALLBACK_SECONDS_PER_GAME = 0.1
# The observed pace: finished chunks of the last hour (the latest few hundred), between the
# same agents, at least a few of them and a second of the ladder's CPU time together.
OBSERVED_KEY = "simulations:observed-pace"
OBSERVED_WINDOW = timedelta(hours=1)
OBSERVED_CHUNKS = 400
OBSERVED_MIN_CHUNKS = 3
OBSERVED_MIN_SECONDS = 1.0
OBSERVED_CACHE_SECONDS = 10

Pair = tuple[str, str]


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
        for agent_a, agent_b, started, finished, cpu in rows:
            total = sums.setdefault(_pair(agent_a, agent_b), [0, 0.0, 0.0])
            total[0] += 1
            total[1] += (finished - started).total_seconds()
            total[2] += cpu
        return {pair: wall / cpu for pair, (count, wall, cpu) in sums.items()
                if count >= OBSERVED_MIN_CHUNKS and cpu >= OBSERVED_MIN_SECONDS}
    return cache.get_or_set(OBSERVED_KEY, compute, OBSERVED_CACHE_SECONDS)


@functools.lru_cache(maxsize=4)
def _table(path: str, stamp: float) -> dict:
    from pathlib import Path

    return strength_table(Path(path))


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


def agent_rating(name: str) -> dict | None:
    return next((r for r in agent_strength()["ratings"] if r["name"] == name), None)


def ladder_game_seconds(agent_a: str, agent_b: str) -> float:
    """CPU seconds of one game between these agents on the ladder's machine (both agents'
    decisions and the rules); an agent the ladder never timed counts as a slow one
    (``FALLBACK_SECONDS_PER_GAME``): a cap or a chunk should err on the safe side."""
    per_game = seconds_per_game(agent_costs(), agent_a, agent_b)
    return FALLBACK_SECONDS_PER_GAME if per_game is None else per_game


def measured_game_seconds(agent_a: str, agent_b: str) -> float:
    """The ladder's seconds of one game at the paces measured at a worker's start: each
    agent's decisions at its own factor, the rules at theirs."""
    costs, factors = agent_costs(), agent_factors()
    if seconds_per_game(costs, agent_a, agent_b) is None:
        return FALLBACK_SECONDS_PER_GAME * factors.get("engine", 1.0)
    return (costs[agent_a] * factors[agent_a] + costs[agent_b] * factors[agent_b]
            + costs.get("engine", 0.0) * factors.get("engine", 1.0))


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


def estimate_seconds(*, agent_a: str, agent_b: str, games: int,
                     workers: int | None = None) -> float | None:
    """Wall-clock seconds ``games`` games between these agents take on this deployment's
    workers, at its measured pace (None if an agent has no measured cost)."""
    if seconds_per_game(agent_costs(), agent_a, agent_b) is None:
        return None
    return game_seconds_here(agent_a, agent_b) * games / (workers or conf.workers())


def cost_lines() -> list[tuple[str, float]]:
    """(agent, seconds a game with itself in both seats here) in registry order, for the form's
    help and the AI players' page: the same figure in both."""
    costs = agent_costs()
    return [(name, game_seconds_here(name, name)) for name in AGENT_NAMES
            if seconds_per_game(costs, name, name) is not None]


def strength_rows(table: dict | None = None) -> list[dict]:
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
            f"ladder's machine: {costs}. A run takes about (seconds a game between agent A and "
            f"agent B) × games × pairings ÷ {conf.workers()} workers, once it starts.")


# Read when the docs are rendered, not when a serializer is defined: the ladder's file may be
# written again while the site runs.
agent_help = lazy(_agent_help, str)


def estimate_inputs() -> dict:
    """What the simulation form's live estimate computes with: the seconds of a game between
    each two agents here (``game_seconds_here``), the worker processes and the rules' factor
    of the latest measurement."""
    costs = agent_costs()
    names = [name for name in AGENT_NAMES if name in costs]
    return {"games": {a: {b: game_seconds_here(a, b) for b in names} for a in names},
            "workers": conf.workers(), "factor": pace_factor()}
