"""A run's figures as people read them: per pairing (win rate with a Wilson 95 % interval, draws,
engine errors, first and second seat, length distribution, per-card figures), the matchup matrix
and ranking of a gauntlet or round-robin, and the comparison of a what-if with its base run.

Invariant: everything is computed from the integer counts of ``rules.stats`` (exact, mergeable);
engine errors are reported apart and never counted as losses; draws count as not-wins.
"""

from __future__ import annotations

import math
from typing import Any

from rules.stats import MatchStats, wilson_interval
from simulations.execution import matchup_merge
from simulations.models import Matchup, SimulationRun


def _matchup_figures(run: SimulationRun, matchup: Matchup) -> dict[str, Any]:
    return matchup.result if matchup.result is not None else matchup_merge(matchup)


def card_rows(run: SimulationRun, figures: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-card figures with the card's name and kind from the run's frozen data."""
    rows = []
    for row in figures:
        data = run.cards.get(row["code"], {})
        rows.append({**row, "name": data.get("name_en", row["code"]),
                     "kind": data.get("kind", "")})
    return rows


def matchup_report(run: SimulationRun, matchup: Matchup) -> dict[str, Any]:
    figures = _matchup_figures(run, matchup)
    stats = MatchStats.from_counts(figures["counts"])
    report = stats.to_dict()
    report.update({
        "index": matchup.index, "a": matchup.a, "b": matchup.b,
        "deck_a": run.deck_name(matchup.a), "deck_b": run.deck_name(matchup.b),
        "planned_games": matchup.games, "stopped_after_chunks": matchup.stopped_after,
        "cards_a": card_rows(run, stats.card_figures("a")),
        "cards_b": card_rows(run, stats.card_figures("b")),
        "outcomes": figures.get("outcomes", ""),
    })
    return report


def _side_rate(report: dict[str, Any], row: int) -> dict[str, Any]:
    """Win rate of deck ``row`` in a pairing it plays (as A or as B)."""
    wins = report["wins"] if report["a"] == row else report["losses"]
    done = report["wins"] + report["losses"] + report["draws"]
    low, high = wilson_interval(wins, done)
    return {"rate": wins / done if done else None, "low": low, "high": high, "games": done,
            "wins": wins}


def matrix(run: SimulationRun, reports: list[dict[str, Any]]) -> list[list[dict | None]]:
    """``cells[i][j]``: deck i's win rate against deck j (None on the diagonal / unplayed)."""
    n = len(run.decks)
    cells: list[list[dict | None]] = [[None] * n for _ in range(n)]
    for report in reports:
        a, b = report["a"], report["b"]
        cells[a][b] = _side_rate(report, a)
        cells[b][a] = _side_rate(report, b)
    return cells


def ranking(run: SimulationRun, reports: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Decks by win rate over all their games (ties: by mean pairing win rate, then name)."""
    rows = []
    for deck in range(len(run.decks)):
        mine = [_side_rate(r, deck) for r in reports if deck in (r["a"], r["b"])]
        if not mine:
            continue
        wins = sum(m["wins"] for m in mine)
        games = sum(m["games"] for m in mine)
        rates = [m["rate"] for m in mine if m["rate"] is not None]
        low, high = wilson_interval(wins, games)
        rows.append({"deck": deck, "name": run.deck_name(deck), "wins": wins, "games": games,
                     "rate": wins / games if games else None, "low": low, "high": high,
                     "mean_pairing_rate": sum(rates) / len(rates) if rates else None,
                     "pairings": len(mine)})
    rows.sort(key=lambda r: (-(r["rate"] or 0), -(r["mean_pairing_rate"] or 0), r["name"]))
    for place, row in enumerate(rows, start=1):
        row["place"] = place
    return rows


def difference_interval(w1: int, n1: int, w2: int, n2: int) -> tuple[float, float]:
    """Newcombe's hybrid score interval (95 %) for p1 − p2, from two Wilson intervals."""
    if not n1 or not n2:
        return -1.0, 1.0
    p1, p2 = w1 / n1, w2 / n2
    l1, u1 = wilson_interval(w1, n1)
    l2, u2 = wilson_interval(w2, n2)
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def _flips(before: str, after: str) -> dict[str, int]:
    """Game by game on the same seeds: how results changed (A's view)."""
    out = {"same": 0, "lost_to_won": 0, "won_to_lost": 0, "other": 0}
    for old, new in zip(before, after, strict=False):
        if "-" in (old, new):
            continue
        if old == new:
            out["same"] += 1
        elif (old, new) == ("b", "a"):
            out["lost_to_won"] += 1
        elif (old, new) == ("a", "b"):
            out["won_to_lost"] += 1
        else:
            out["other"] += 1
    return out


def what_if_report(run: SimulationRun, reports: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The change a what-if made, per pairing, for the swapped deck (same seeds as the base)."""
    base = run.base_run
    if base is None or not run.swap:
        return None
    deck = run.swap["deck"]
    base_reports = {r["index"]: r for r in run_reports(base)}
    rows = []
    for report in reports:
        before = base_reports.get(report["index"])
        if before is None or deck not in (report["a"], report["b"]):
            continue
        old, new = _side_rate(before, deck), _side_rate(report, deck)
        low, high = difference_interval(new["wins"], new["games"], old["wins"], old["games"])
        flips = _flips(before["outcomes"], report["outcomes"])
        if deck == report["b"]:   # outcomes are from A's side: swap the names of the changes
            flips["lost_to_won"], flips["won_to_lost"] = flips["won_to_lost"], flips["lost_to_won"]
        other = report["b"] if deck == report["a"] else report["a"]
        rows.append({"index": report["index"], "opponent": run.deck_name(other),
                     "before": old, "after": new,
                     "change": (new["rate"] - old["rate"]) if None not in (new["rate"],
                                                                           old["rate"]) else None,
                     "change_low": low, "change_high": high, "flips": flips})
    return {"base_uid": base.uid, "base_label": base.label, "deck": deck,
            "deck_name": base.deck_name(deck), "card_out": run.swap["out"],
            "card_in": run.swap["in"],
            "card_out_name": run.cards.get(run.swap["out"], {}).get("name_en", run.swap["out"]),
            "card_in_name": run.cards.get(run.swap["in"], {}).get("name_en", run.swap["in"]),
            "pairings": rows}


def run_reports(run: SimulationRun) -> list[dict[str, Any]]:
    return [matchup_report(run, m) for m in run.matchups.order_by("index")]


def run_results(run: SimulationRun) -> dict[str, Any]:
    """Everything the results page and the API's results show."""
    reports = run_reports(run)
    out: dict[str, Any] = {"final": not run.is_active, "matchups": reports}
    if run.kind != "match":
        out["matrix"] = matrix(run, reports)
        out["ranking"] = ranking(run, reports)
    out["what_if"] = what_if_report(run, reports)
    return out
