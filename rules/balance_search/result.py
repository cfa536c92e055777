"""What a balance search reports: scored candidates, the Pareto front, the best patch.

A candidate's score is its worst matchup's distance from 50 % (lower is better), then its number
of changes, then their total size; the Pareto front keeps each candidate that no other beats on
both changes and worst distance. ``to_dict`` is the JSON the command prints and the site keeps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.balance_search.evaluate import Tally
from rules.balance_search.space import Candidate, candidate_patch, candidate_size
from rules.intervals import cluster_rate
from rules.patches import Patch

Matchup = tuple[int, int]


@dataclass(frozen=True)
class Scored:
    moves: Candidate
    games: int                       # per matchup
    tallies: Mapping[Matchup, Tally]
    worst: float                     # max |rate − 0.5|
    outside: int                     # matchups outside the band
    excess: float = 0.0              # Σ squared distance beyond the aim (band less a margin)

    @property
    def rank(self) -> tuple[float, float, int, int, Candidate]:
        """What the search minimises: every matchup inside the aim first (the sum of squared
        excesses sees every matchup, where the worst alone sees one), then the worst."""
        return (round(self.excess, 9), self.worst, len(self.moves), candidate_size(self.moves),
                self.moves)

    @property
    def changes(self) -> int:
        return len(self.moves)

    def rate(self, matchup: Matchup) -> float:
        tally = self.tallies[matchup]
        return tally.wins / tally.completed if tally.completed else 0.5

    def patch(self, name: str | None = None) -> Patch:
        return candidate_patch(self.moves, name or patch_name(self.moves))

    def summary(self) -> dict[str, Any]:
        return {"changes": self.changes, "size": candidate_size(self.moves),
                "worst_distance": round(self.worst, 4), "outside": self.outside,
                "games": self.games, "moves": [m.change().to_dict() for m in self.moves]}

    def matchup_rows(self, names: Sequence[str]) -> list[dict[str, Any]]:
        rows = []
        for (a, b), tally in self.tallies.items():
            interval = cluster_rate(tally.moments())   # on seat-swapped pairs
            rows.append({"a": names[a], "b": names[b], "rate": self.rate((a, b)),
                         "low": interval["low"], "high": interval["high"],
                         "games": tally.completed, "pairs": interval["pairs"],
                         "draws": tally.draws, "errors": tally.errors})
        return rows


def patch_name(moves: Candidate) -> str:
    if not moves:
        return "No change"
    return f"Balance search: {len(moves)} change{'s' if len(moves) != 1 else ''}"


AIM_MARGIN = 0.015   # aim this far inside the band, so re-verification on fresh seeds holds


def aim(band: tuple[float, float]) -> float:
    """The distance from 50 % the search aims within: the band's nearer edge less a margin."""
    return max(0.0, min(0.5 - band[0], band[1] - 0.5) - AIM_MARGIN)


def excess_of(distances: Iterable[float], band: tuple[float, float]) -> float:
    half = aim(band)
    return sum(max(0.0, d - half) ** 2 for d in distances)


def scored_of(moves: Candidate, tallies: Mapping[Matchup, Tally],
              band: tuple[float, float]) -> Scored:
    worst, outside, games, distances = 0.0, 0, 0, []
    for tally in tallies.values():
        rate = tally.wins / tally.completed if tally.completed else 0.5
        distances.append(abs(rate - 0.5))
        worst = max(worst, abs(rate - 0.5))
        outside += not band[0] <= rate <= band[1]
        games = max(games, tally.wins + tally.losses + tally.draws + tally.errors)
    return Scored(moves, games, dict(tallies), worst, outside, excess_of(distances, band))


def pareto(scored: Sequence[Scored]) -> list[Scored]:
    """The non-dominated candidates among those played the most games, best worst first."""
    top = max((s.games for s in scored), default=0)
    pool = sorted((s for s in scored if s.games == top), key=lambda s: (s.changes, s.rank))
    front: list[Scored] = []
    for s in pool:
        if not front or s.worst < front[-1].worst:
            front.append(s)
    return sorted(front, key=lambda s: (s.worst, s.rank))


@dataclass(frozen=True)
class SearchResult:
    band: tuple[float, float]
    baseline: Scored                 # the unpatched field, re-verified
    front: list[Scored]              # re-verified on fresh seeds, fewest changes first
    searched: list[Scored]           # every candidate raced, on the search's seeds, best first
    games_searched: int
    games_verified: int
    evaluations: int
    moves_screened: int

    @property
    def best(self) -> Scored | None:
        """The fewest changes with every matchup in the band, else the nearest to 50 % (on a
        tie, the one with fewer matchups outside the band, then fewer changes)."""
        inside = [s for s in self.front if s.outside == 0]
        if inside:
            return min(inside, key=lambda s: (s.changes, s.worst, candidate_size(s.moves)))
        return min(self.front, key=lambda s: (s.worst, s.outside, s.changes,
                                              candidate_size(s.moves))) if self.front else None

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        best = self.best

        def verified(s: Scored) -> dict[str, Any]:
            return {**s.summary(), "patch": s.patch().to_dict(),
                    "matchups": s.matchup_rows(names)}

        return {"band": list(self.band), "decks": list(names),
                "baseline": verified(self.baseline),
                "front": [verified(s) for s in self.front],
                "best": verified(best) if best else None,
                "searched": [s.summary() for s in self.searched[:50]],
                "games_searched": self.games_searched, "games_verified": self.games_verified,
                "evaluations": self.evaluations, "moves_screened": self.moves_screened}
