"""One pairing of a run as people read it: counts, the win rate of each side with its pair-aware
95 % interval, seats, lengths, per-card figures and the per-game outcomes.

Invariant: computed from the counts and pair sums of ``rules.lab.stats`` (exact, mergeable); draws
count as not won; engine errors are reported apart and never counted as losses.
"""

from __future__ import annotations

from typing import Any, TypedDict

from common.language import frozen_card_name
from rules.lab.intervals import Rate
from rules.lab.stats import MatchCounts, MatchFigures, MatchStats
from simulations.models import Chunk, ChunkResult, Matchup, SimulationRun

NOT_PLAYED = "-"   # a game of a matchup's outcome string that no chunk has played (yet)


class MatchupMerged(TypedDict):
    """A matchup's chunks merged (``Matchup.result`` once it is finished): the counts, and one
    outcome letter per game in game order (``a``, ``b``, ``d`` for a draw, ``e`` for an engine
    error), without the trailing games not played."""

    counts: MatchCounts
    outcomes: str


class MatchupReport(MatchFigures):
    """One pairing as the results page and the API show it: deck A's figures
    (``MatchStats.to_dict``), the decks, the plan, per-card figures and the outcomes."""

    index: int
    a: int                          # the decks' positions in the run
    b: int
    deck_a: str
    deck_b: str
    planned_games: int
    stopped_after_chunks: int | None
    cards_a: list[dict[str, Any]]   # rules.lab.card_figures.figures, with name and kind
    cards_b: list[dict[str, Any]]
    outcomes: str
    win_rate_b: Rate


class SideRate(Rate):
    """One deck's win rate in a pairing, with its wins."""

    wins: int


def matchup_merge(matchup: Matchup) -> MatchupMerged:
    """The matchup's figures: its chunks' counts merged in chunk order, and one outcome letter
    per game (``-`` for games not played)."""
    results = list(ChunkResult.objects.filter(matchup=matchup).order_by("chunk_index"))
    if matchup.stopped_after is not None:
        first = (Chunk.objects.filter(matchup=matchup).order_by("index")
                 .values_list("index", flat=True).first()) or 0   # it has chunks: it stopped
        results = [r for r in results if r.chunk_index < first + matchup.stopped_after]
    stats = MatchStats()
    outcomes = [NOT_PLAYED] * matchup.games
    starts = dict(Chunk.objects.filter(matchup=matchup).values_list("index", "start"))
    for result in results:
        stats = stats.merge(MatchStats.from_counts(result.counts))
        start = starts[result.chunk_index]
        outcomes[start:start + len(result.outcomes)] = list(result.outcomes)
    return {"counts": stats.counts(), "outcomes": "".join(outcomes).rstrip(NOT_PLAYED)}



def _matchup_figures(run: SimulationRun, matchup: Matchup) -> MatchupMerged:
    return matchup.result if matchup.result is not None else matchup_merge(matchup)


def card_rows(run: SimulationRun, figures: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-card figures with the card's name and kind from the run's frozen data."""
    rows = []
    for row in figures:
        data = run.cards.get(row["code"], {})
        rows.append({**row, "name": frozen_card_name(run.cards, row["code"]),
                     "kind": data.get("kind", "")})
    return rows


def matchup_report(run: SimulationRun, matchup: Matchup) -> MatchupReport:
    figures = _matchup_figures(run, matchup)
    stats = MatchStats.from_counts(figures["counts"])
    return {
        **stats.to_dict(),
        "index": matchup.index, "a": matchup.a, "b": matchup.b,
        "deck_a": run.deck_name(matchup.a), "deck_b": run.deck_name(matchup.b),
        "planned_games": matchup.games, "stopped_after_chunks": matchup.stopped_after,
        "cards_a": card_rows(run, stats.card_figures("a")),
        "cards_b": card_rows(run, stats.card_figures("b")),
        "outcomes": figures.get("outcomes", ""),
        "win_rate_b": stats.side_rate("b"),
    }


def side_rate(report: MatchupReport, deck: int) -> SideRate:
    """Win rate of deck ``deck`` in a pairing it plays (as A or as B), with its wins."""
    if report["a"] == deck:
        return {**report["win_rate"], "wins": report["wins"]}
    return {**report["win_rate_b"], "wins": report["losses"]}


def run_reports(run: SimulationRun) -> list[MatchupReport]:
    return [matchup_report(run, m) for m in run.matchups.order_by("index")]
