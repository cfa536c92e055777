"""One pairing of a run as people read it: counts, the win rate of each side with its pair-aware
95 % interval, seats, lengths, per-card figures and the per-game outcomes.

Invariant: computed from the counts and pair sums of ``rules.lab.stats`` (exact, mergeable); draws
count as not won; engine errors are reported apart and never counted as losses.
"""

from __future__ import annotations

from typing import Any

from common.language import frozen_card_name
from rules.lab.stats import MatchStats
from simulations.models import Chunk, ChunkResult, Matchup, SimulationRun

NOT_PLAYED = "-"   # a game of a matchup's outcome string that no chunk has played (yet)


def matchup_merge(matchup: Matchup) -> dict[str, Any]:
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



def _matchup_figures(run: SimulationRun, matchup: Matchup) -> dict[str, Any]:
    return matchup.result if matchup.result is not None else matchup_merge(matchup)


def card_rows(run: SimulationRun, figures: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per-card figures with the card's name and kind from the run's frozen data."""
    rows = []
    for row in figures:
        data = run.cards.get(row["code"], {})
        rows.append({**row, "name": frozen_card_name(run.cards, row["code"]),
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
        "win_rate_b": stats.side_rate("b"),
    })
    return report


def side_rate(report: dict[str, Any], deck: int) -> dict[str, Any]:
    """Win rate of deck ``deck`` in a pairing it plays (as A or as B), with its wins."""
    if report["a"] == deck:
        return {**report["win_rate"], "wins": report["wins"]}
    return {**report["win_rate_b"], "wins": report["losses"]}


def run_reports(run: SimulationRun) -> list[dict[str, Any]]:
    return [matchup_report(run, m) for m in run.matchups.order_by("index")]
