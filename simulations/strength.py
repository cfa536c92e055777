"""Agent strength and cost, read from the stored AI ladder result (selectors).

The ratings (Bradley–Terry on the Elo scale, with 95 % intervals) and each agent's CPU seconds
per game are computed by ``rules.ai.ratings`` from ``rules/data/ladder.json``, the output of
``python -m rules.lab.ladder --json --write``; nothing here is typed in by hand. The result is read
once per change of that file.

A run's time estimate is its games × the seconds one game between its two agents takes
(both agents' decisions plus the rules) × this deployment's measured pace
(``pace_factor``: the latest measurement a worker stored, ``simulations.calibration``) ÷ the
worker processes (``SIMULATIONS_WORKERS``).
"""

from __future__ import annotations

import functools
from typing import Any

from rules.ai.agents import AGENT_NAMES
from rules.ai.ratings import LADDER_FILE, seconds_per_game, strength_table
from simulations import conf
from simulations.models import PaceCalibration

# An agent the ladder never timed counts as a slow one.
FALLBACK_SECONDS_PER_GAME = 0.1


def pace_factor() -> float:
    """The factor of the latest pace measurement (1 when no worker has measured yet)."""
    factor = PaceCalibration.objects.values_list("factor", flat=True).first()
    return factor if factor and factor > 0 else 1.0


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


def game_seconds_here(agent_a: str, agent_b: str) -> float:
    """Seconds one game between these agents takes on one worker process of this deployment:
    the ladder's figure at the measured pace. The one per-game figure the site shows (the
    simulation form, the AI players' page, the API) and sizes its chunks by."""
    return ladder_game_seconds(agent_a, agent_b) * pace_factor()


def games_in(seconds: float, agent_a: str, agent_b: str) -> int:
    """Whole seat-swapped pairs of games between these agents that take about ``seconds`` on
    one worker process here (at least one pair)."""
    games = int(seconds / game_seconds_here(agent_a, agent_b))
    return max(2, games - games % 2)


def estimate_seconds(*, agent_a: str, agent_b: str, games: int,
                     workers: int | None = None) -> float | None:
    """Wall-clock seconds ``games`` games between these agents take on this deployment's
    workers, at its measured pace (None if an agent has no measured cost)."""
    if seconds_per_game(agent_costs(), agent_a, agent_b) is None:
        return None
    return game_seconds_here(agent_a, agent_b) * games / (workers or conf.workers())


def cost_lines() -> list[tuple[str, float]]:
    """(agent, seconds a game with itself on both sides) in registry order, for help texts."""
    costs = agent_costs()
    out = []
    for name in AGENT_NAMES:
        per_game = seconds_per_game(costs, name, name)
        if per_game is not None:
            out.append((name, per_game))
    return out


def strength_rows(table: dict | None = None) -> list[dict]:
    """The ratings with each agent's readable name and label, best first."""
    from cards.game_words import game_word

    table = table or agent_strength()
    return [{**r, "title": game_word("agent", r["name"]),
             "label": game_word("agent_label", r["name"])}
            for r in table["ratings"]]


def agent_help() -> str:
    """The API docs' description of an agent field: the agents, their measured cost per game
    and how a run's time is estimated (read from the stored ladder result)."""
    costs = ", ".join(f"{name} {seconds:.4f} s" for name, seconds in cost_lines())
    return ("An AI player; /api/simulations/agents/ rates them (strength with 95 % intervals). "
            f"CPU time of one game with it in both seats, measured by the AI ladder: {costs}. "
            "A run takes about (seconds a game of agent A + of agent B + the rules) × games × "
            f"pairings ÷ {conf.workers()} workers, once it starts.")


def estimate_inputs() -> dict:
    """What the simulation form's live estimate computes with: each agent's seconds per game
    (one seat) and the rest of a game, at this deployment's measured pace, and the worker
    processes."""
    factor = pace_factor()
    costs = {name: seconds * factor for name, seconds in agent_costs().items()}
    engine = costs.pop("engine", 0.0)
    return {"costs": costs, "engine": engine, "workers": conf.workers(), "factor": factor}
