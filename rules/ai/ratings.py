"""Agent strength: Bradley–Terry ratings on the Elo scale, fitted to the AI ladder's results.

The ladder (``python -m rules.lab.ladder --json``) stores, for each rung, how often one agent beat
another over every ordered pairing of the starter decks. ``fit`` finds the ratings that make
those results most likely under the Bradley–Terry model — agent *i* beats agent *j* with
probability ``1 / (1 + 10 ** ((r_j - r_i) / 400))`` — by Newton's method, with a draw counted
as half a win for each side and errored games left out. The two games of a seat-swapped pair
share a seed, so they are not independent: each rung weighs as many games as its
``effective_games`` (the design effect the ladder's paired interval measured), which keeps its
win rate and widens the intervals honestly. Ratings are relative to the anchor
(``random`` = 0 when it is rated); the 95 % intervals are Wald intervals from the inverse of
the observed information (the anchor has none: it is the zero point). A rung one agent won or
lost entirely has no finite maximum: such a rung gets half a win and half a loss added
(Haldane's correction), and says so (``corrected``).

``strength_table()`` reads the stored ladder result, ``rules/data/ladder.json`` (rewritten by
``python -m rules.lab.ladder --json --write``), and returns the ratings with each agent's measured
cost per game — no figure here is typed in by hand.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.ai.agents import BASELINE_AGENT

LADDER_FILE = Path(__file__).resolve().parent.parent / "data" / "ladder.json"
ELO = 400 / math.log(10)        # Elo points per unit of the logistic scale
Z95 = 1.959963984540054
SEPARATOR = "-vs-"


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int
    anchor: bool = False      # the zero point: its interval is empty by definition


@dataclass(frozen=True)
class Rung:
    strong: str
    weak: str
    games: float             # effective games (decided games plus draws, errors left out)
    score: float             # the strong agent's share of them (wins plus half the draws)
    played: int = 0          # games actually played (errors left out)
    corrected: bool = False


def parse_rungs(report: Mapping[str, Mapping[str, Any]]) -> list[Rung]:
    """The rungs of a ladder report (``{"a-vs-b": {"wins", "losses", "draws", ...}}``)."""
    rungs = []
    for key, row in report.items():
        strong, sep, weak = key.partition(SEPARATOR)
        if not sep or not strong or not weak:
            raise ValueError(f"not a ladder rung: {key!r} (expected '<strong>-vs-<weak>')")
        wins, losses, draws = int(row["wins"]), int(row["losses"]), int(row["draws"])
        played = wins + losses + draws
        if played == 0:
            continue
        share = (wins + draws / 2) / played
        effective = float((row.get("win_rate") or {}).get("effective_games") or played)
        games, score = effective, share * effective
        corrected = share in (0.0, 1.0)
        if corrected:
            games, score = games + 1, score + 0.5
        rungs.append(Rung(strong, weak, games, score, played, corrected))
    return rungs


def fit(rungs: list[Rung], anchor: str | None = BASELINE_AGENT) -> list[Rating]:
    """Bradley–Terry maximum-likelihood ratings (Elo scale) with 95 % intervals, best first.

    ``anchor`` is rated 0 (the first agent named when it is absent or None). Raises ValueError
    when the rungs do not connect every agent to the anchor (no rating would be defined)."""
    names: list[str] = []
    for r in rungs:
        for name in (r.strong, r.weak):
            if name not in names:
                names.append(name)
    if not names:
        return []
    if anchor not in names:
        anchor = names[0]
    free = [n for n in names if n != anchor]
    index = {n: i for i, n in enumerate(free)}
    _check_connected(names, rungs, anchor)
    size = len(free)
    beta = [0.0] * size
    for _ in range(100):
        grad, info = _derivatives(beta, rungs, index, size)
        step = _solve(info, grad)
        beta = [b + s for b, s in zip(beta, step, strict=True)]
        if max((abs(s) for s in step), default=0.0) < 1e-12:
            break
    _, info = _derivatives(beta, rungs, index, size)
    cov = _inverse(info)
    games = {n: 0 for n in names}
    for r in rungs:
        games[r.strong] += r.played
        games[r.weak] += r.played
    out = [Rating(anchor, 0.0, 0.0, 0.0, games[anchor], anchor=True)]
    for name, i in index.items():
        se = math.sqrt(max(cov[i][i], 0.0)) * ELO
        elo = beta[i] * ELO
        out.append(Rating(name, elo, elo - Z95 * se, elo + Z95 * se, games[name]))
    out.sort(key=lambda r: -r.elo)
    return out


def _derivatives(beta: list[float], rungs: list[Rung], index: Mapping[str, int],
                 size: int) -> tuple[list[float], list[list[float]]]:
    grad = [0.0] * size
    info = [[0.0] * size for _ in range(size)]
    for r in rungs:
        i, j = index.get(r.strong), index.get(r.weak)
        diff = (beta[i] if i is not None else 0.0) - (beta[j] if j is not None else 0.0)
        p = 1 / (1 + math.exp(-diff))
        g, w = r.score - r.games * p, r.games * p * (1 - p)
        for a, sign_a in ((i, 1), (j, -1)):
            if a is None:
                continue
            grad[a] += sign_a * g
            for b, sign_b in ((i, 1), (j, -1)):
                if b is not None:
                    info[a][b] += sign_a * sign_b * w
    return grad, info


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the systems are a handful of agents)."""
    n = len(vector)
    m = [row[:] + [vector[k]] for k, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-300:
            raise ValueError("the ladder's results do not determine the ratings")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                factor = m[r][col] / m[col][col]
                m[r] = [x - factor * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[k][n] / m[k][k] for k in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(n)]) for c in range(n)]
    return [[columns[c][r] for c in range(n)] for r in range(n)]


def _check_connected(names: list[str], rungs: list[Rung], anchor: str) -> None:
    reached, frontier = {anchor}, [anchor]
    while frontier:
        name = frontier.pop()
        for r in rungs:
            for a, b in ((r.strong, r.weak), (r.weak, r.strong)):
                if a == name and b not in reached:
                    reached.add(b)
                    frontier.append(b)
    missing = [n for n in names if n not in reached]
    if missing:
        raise ValueError(f"no ladder rung connects {', '.join(missing)} to {anchor}")


# ------------------------------------------------------------------ the stored ladder result

def load_ladder(path: Path = LADDER_FILE) -> dict[str, Any]:
    """The stored ladder report (``{"<strong>-vs-<weak>": {...}}``)."""
    with open(path, encoding="utf-8") as handle:
        report: dict[str, Any] = json.load(handle)
    return report


def agent_costs(report: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """CPU seconds each agent's decisions took per game (one seat), from the rungs' timings,
    weighted by games; ``"engine"`` is the rest of a game (rules, bookkeeping)."""
    totals: dict[str, list[float]] = {}
    for row in report.values():
        seconds = row.get("cpu_seconds_per_game") or {}
        for name, value in seconds.items():
            entry = totals.setdefault(name, [0.0, 0.0])
            entry[0] += float(value) * row["games"]
            entry[1] += row["games"]
    return {name: total / games for name, (total, games) in totals.items() if games}


def seconds_per_game(costs: Mapping[str, float], agent_a: str, agent_b: str) -> float | None:
    """Estimated CPU seconds of one game between two agents (None if one was never timed)."""
    if agent_a not in costs or agent_b not in costs:
        return None
    return costs[agent_a] + costs[agent_b] + costs.get("engine", 0.0)


def game_costs(report: Mapping[str, Mapping[str, Any]], agent_a: str, agent_b: str
               ) -> tuple[float, float, float] | None:
    """CPU seconds of one game between two agents on the ladder's machine, in three parts:
    ``agent_a``'s decisions, ``agent_b``'s and the rest (the rules); None if one was never timed.

    A rung that played these two agents against each other gives its own figures. Otherwise
    each seat is its agent's decisions averaged over the rungs (``agent_costs``), and the rules
    are the mean of each agent's share in the cheapest rung it played: the rest of a game is no
    constant — it was 0.26 ms in greedy vs random and 1.6 ms in planner vs search (longer games,
    and the collector's passes over what a searching agent allocated) — so the ladder's average
    over all rungs would make a greedy game twice as dear as it is."""
    for (first, second), row in _timed_rungs(report).items():
        if {first, second} == {agent_a, agent_b} and agent_a != agent_b:
            return row[agent_a], row[agent_b], row.get("engine", 0.0)
    costs = agent_costs(report)
    rules = _rules_shares(report)
    if agent_a not in costs or agent_b not in costs:
        return None
    fallback = costs.get("engine", 0.0)
    return (costs[agent_a], costs[agent_b],
            (rules.get(agent_a, fallback) + rules.get(agent_b, fallback)) / 2)


def _timed_rungs(report: Mapping[str, Mapping[str, Any]]) -> dict[tuple[str, str],
                                                                   Mapping[str, float]]:
    out = {}
    for key, row in report.items():
        strong, _, weak = key.partition(SEPARATOR)
        seconds = row.get("cpu_seconds_per_game") or {}
        if strong in seconds and weak in seconds:
            out[(strong, weak)] = seconds
    return out


def _rules_shares(report: Mapping[str, Mapping[str, Any]]) -> dict[str, float]:
    """Each agent's rules seconds a game in the cheapest rung it played."""
    cheapest: dict[str, tuple[float, float]] = {}
    for (strong, weak), seconds in _timed_rungs(report).items():
        total = sum(float(value) for value in seconds.values())
        for name in (strong, weak):
            if name not in cheapest or total < cheapest[name][0]:
                cheapest[name] = (total, float(seconds.get("engine", 0.0)))
    return {name: rules for name, (_, rules) in cheapest.items()}


def strength_table(path: Path = LADDER_FILE) -> dict[str, Any]:
    """Ratings, rungs and costs from the stored ladder result, ready to show."""
    report = load_ladder(path)
    rungs = parse_rungs(report)
    ratings = fit(rungs)
    costs = agent_costs(report)
    return {
        "ratings": [{"name": r.name, "elo": r.elo, "low": r.low, "high": r.high,
                     "games": r.games, "anchor": r.anchor,
                     "seconds_per_game": costs.get(r.name)}
                    for r in ratings],
        "rungs": [{"strong": key.partition(SEPARATOR)[0], "weak": key.partition(SEPARATOR)[2],
                   "games": row["games"], "wins": row["wins"], "losses": row["losses"],
                   "draws": row["draws"], "errors": row["errors"],
                   "win_rate": row["win_rate"]} for key, row in report.items()],
        "anchor": next((r.name for r in ratings if r.anchor), None),
        "engine_seconds_per_game": costs.get("engine", 0.0),
    }
