"""A run's figures as people read them: per pairing (win rate with a pair-aware 95 % interval,
draws, engine errors, first and second seat, length distribution, per-card figures), and for a
gauntlet or round-robin the meta view: the matchup matrix, each deck's field rate, a balance
score and a ranking of the decks that played the whole field; for a finished round-robin, the
meta of the field (``simulations.meta.field``: field rates, the Nash and ε-equilibria).

Invariants: everything is computed from the counts and pair sums of ``rules.lab.stats`` (exact,
mergeable) and the per-game outcomes; intervals are computed on seat-swapped pairs
(``rules.lab.intervals``) — a deck's field rate on every game played on one seed, since its
pairings share the run's seeds; engine errors are reported apart and never counted as losses;
draws count as not won.
"""

from __future__ import annotations

import math
from typing import Any, NotRequired, TypedDict

from rules.lab import meta
from rules.lab.intervals import Moments, Rate, cluster_rate
from simulations.comparison import what_if_report
from simulations.meta.field import run_meta
from simulations.meta.view import meta_sentence
from simulations.models import SimulationRun
from simulations.reports import (  # noqa: F401
    MatchupReport,
    SideRate,
    matchup_report,
    run_reports,
    side_rate,
)


class Balance(TypedDict):
    """How far a field's matchups are from even."""

    max_distance: float
    rms_distance: float
    matchups: int


class RankRow(Rate):
    """A deck of the ranking: its field rate (``Rate``) and how it was reached."""

    deck: int
    name: str
    wins: int
    mean_pairing_rate: float | None
    pairings: int
    whole_field: bool
    place: int | None       # None: it did not play every other deck (not ranked)


class RunResults(TypedDict):
    """A run's figures, as the results page and the API's results read them; a field's run
    (gauntlet, round-robin) has its matrix, ranking and balance too."""

    final: bool
    matchups: list[MatchupReport]
    matrix: NotRequired[list[list[SideRate | None]]]
    ranking: NotRequired[list[RankRow]]
    balance: NotRequired[Balance | None]
    meta: dict[str, Any] | None        # rules.lab.meta.MetaReport.to_dict() and its sentence
    what_if: dict[str, Any] | None     # simulations.comparison.what_if_report


def matrix(run: SimulationRun, reports: list[MatchupReport]) -> list[list[SideRate | None]]:
    """``cells[i][j]``: deck i's win rate against deck j (None on the diagonal / unplayed)."""
    n = len(run.decks)
    cells: list[list[SideRate | None]] = [[None] * n for _ in range(n)]
    for report in reports:
        a, b = report["a"], report["b"]
        cells[a][b] = side_rate(report, a)
        cells[b][a] = side_rate(report, b)
    return cells


def field_rate(reports: list[MatchupReport], deck: int) -> Rate:
    """A deck's win rate over all its pairings. Its pairings play the same seeds, so the
    independent unit is the seed: every game of the deck on the seeds of pair k is one cluster."""
    clusters: dict[int, list[int]] = {}
    for report in reports:
        if deck not in (report["a"], report["b"]):
            continue
        side = "a" if report["a"] == deck else "b"
        outcomes = report["outcomes"]
        for g, letter in enumerate(outcomes):
            if letter in "abd":
                cluster = clusters.setdefault(g // 2, [0, 0])
                cluster[0] += letter == side
                cluster[1] += 1
    return cluster_rate(Moments.of((w, n) for w, n in clusters.values()))


def balance(cells: list[list[SideRate | None]]) -> Balance | None:
    """How far the matchups are from even: the largest distance of any matchup's win rate from
    50 % and the root mean square distance (over every played cell, both directions)."""
    gaps = [abs(cell["rate"] - 0.5) for row in cells for cell in row
            if cell is not None and cell["rate"] is not None]
    if not gaps:
        return None
    return {"max_distance": max(gaps), "rms_distance": math.sqrt(sum(g * g for g in gaps)
                                                                 / len(gaps)),
            "matchups": len(gaps) // 2}


def ranking(run: SimulationRun, reports: list[MatchupReport]) -> list[RankRow]:
    """Decks by field rate. Only a deck that played every other deck is ranked (``place``); the
    others (a gauntlet's opponents) are listed after, with ``place`` None."""
    rows: list[RankRow] = []
    others = len(run.decks) - 1
    for deck in range(len(run.decks)):
        mine = [side_rate(r, deck) for r in reports if deck in (r["a"], r["b"])]
        if not mine:
            continue
        rates = [m["rate"] for m in mine if m["rate"] is not None]
        figure = field_rate(reports, deck)
        rows.append({"deck": deck, "name": run.deck_name(deck),
                     "wins": sum(m["wins"] for m in mine), **figure,
                     "mean_pairing_rate": sum(rates) / len(rates) if rates else None,
                     "pairings": len(mine), "whole_field": len(mine) == others,
                     "place": None})
    rows.sort(key=lambda r: (not r["whole_field"], -(r["rate"] or 0),
                             -(r["mean_pairing_rate"] or 0), r["name"]))
    place = 0
    for row in rows:
        place += row["whole_field"]
        row["place"] = place if row["whole_field"] else None
    return rows


def run_results(run: SimulationRun, *, epsilon: float = meta.DEFAULT_EPSILON) -> RunResults:
    """Everything the results page and the API's results show; ``meta`` (for ``epsilon``, a
    share of win rate) only for a finished round-robin, else None."""
    reports = run_reports(run)
    final = not run.is_active
    field = None if run.kind == "match" else matrix(run, reports)
    rows = None if field is None else ranking(run, reports)
    figures = run_meta(run, reports, epsilon=epsilon)
    if figures is not None:
        figures["sentence"] = meta_sentence(figures)
    what_if = what_if_report(run, reports)
    if field is None or rows is None:
        return {"final": final, "matchups": reports, "meta": figures, "what_if": what_if}
    return {"final": final, "matchups": reports, "matrix": field, "ranking": rows,
            "balance": balance(field), "meta": figures, "what_if": what_if}
