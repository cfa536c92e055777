"""What a balance search reports: scored candidates, the Pareto front, the best patch.

A candidate's score is its excess beyond the objective's aims (``objective``), then the
objective's worst figure — the band objective's worst matchup's distance from 50 %, the meta
objective's worst deck's field win rate's distance from 50 % — then its number of changes, then
their total size (lower is better). The Pareto front keeps each candidate that no candidate
with fewer changes beats: on the worst figure (band), on excess then worst figure (meta, whose
excess also sees the matchups and the ε-equilibrium's shares). Verified patches carry the meta
of their field (``rules.lab.meta.meta_report`` on their seat-swapped pairs) whatever the objective.
``to_dict`` is the JSON the command prints and the site keeps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.lab.balance_search.evaluate import Tally
from rules.lab.balance_search.objective import (
    Goal,
    MetaFigures,
    meets,
    meta_excess,
    meta_figures,
    meta_outside,
)
from rules.lab.balance_search.space import Candidate, candidate_patch, candidate_size
from rules.lab.intervals import cluster_rate
from rules.lab.meta import Field as MetaField
from rules.lab.meta import MatchupGames, MetaReport, meta_report
from rules.lab.patches import Patch

Matchup = tuple[int, int]


@dataclass(frozen=True)
class Scored:
    moves: Candidate
    games: int                       # per matchup
    tallies: Mapping[Matchup, Tally]
    worst: float                     # band: max |rate − 0.5|; meta: max |field rate − 0.5|
    outside: int                     # matchups outside the band (meta: decks outside the
                                     # field band and matchups outside the matchup band)
    excess: float = 0.0              # Σ squared distance beyond the aim (band less a margin)
    meta: MetaFigures | None = None  # the meta objective's figures on these tallies
    report: MetaReport | None = None  # a verified patch's meta, resampled on its pairs
    holds: bool = False              # meta: verified and confirmed with room for a fresh check
    # Checked under further agents (``strong``): each one's score of the same patch; the figures
    # above are then the sums (excess, outside) and the worst (worst) over every agent, the
    # tallies and meta the first agent's, and ``holds`` true when it holds under each.
    under: tuple[tuple[str, Scored], ...] = ()

    @property
    def rank(self) -> tuple[float, float, float, int, Candidate]:
        """What the search minimises: every matchup inside the aim first (the sum of squared
        excesses sees every matchup, where the worst alone sees one), then the worst. Meta:
        every figure inside its aim, then the fewest changes, then the worst field win rate —
        once a patch meets the aims, more changes would only fit the search's own games."""
        if self.meta is not None:
            return (round(self.excess, 9), len(self.moves), self.worst,
                    candidate_size(self.moves), self.moves)
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
        out = {"changes": self.changes, "size": candidate_size(self.moves),
               "worst_distance": round(self.worst, 4), "outside": self.outside,
               "games": self.games, "moves": [m.change().to_dict() for m in self.moves]}
        if self.meta is not None:
            out["meta"] = self.meta.summary()
        if self.under:
            out["under"] = {agent: s.summary() for agent, s in self.under}
        return out

    def meets_all(self, goal: Goal) -> bool:
        """Every target met, under every agent it was checked under."""
        return self.meta is not None and meets(self.meta, goal, self.outside_own) and all(
            s.meets_all(goal) for _, s in self.under)

    @property
    def outside_own(self) -> int:
        """Figures outside their bands under the first agent alone."""
        return self.outside - sum(s.outside for _, s in self.under)

    def meta_dict(self, names: Sequence[str]) -> dict[str, Any] | None:
        """The verified meta: ``rules.lab.meta``'s report plus the matchup range."""
        if self.report is None:
            return None
        rates = [r for row in self.matchup_rows(names) for r in (row["rate"], row["rate_b"])]
        return {**self.report.to_dict(), "decks": list(names),
                "matchup_range": [round(min(rates, default=0.5), 4),
                                  round(max(rates, default=0.5), 4)]}

    def matchup_rows(self, names: Sequence[str]) -> list[dict[str, Any]]:
        rows = []
        for (a, b), tally in self.tallies.items():
            interval = cluster_rate(tally.moments())   # on seat-swapped pairs
            rate_b = tally.losses / tally.completed if tally.completed else 0.5
            rows.append({"a": names[a], "b": names[b], "rate": self.rate((a, b)),
                         "rate_b": rate_b, "low": interval["low"], "high": interval["high"],
                         "games": tally.completed, "pairs": interval["pairs"],
                         "draws": tally.draws, "errors": tally.errors})
        return rows


def combined(first: Scored, under: Sequence[tuple[str, Scored]]) -> Scored:
    """One patch's scores under several agents as one: excess and figures outside summed, the
    worst figure the worst of them, played games the fewest any agent played a matchup."""
    if not under:
        return first
    every = [first, *(s for _, s in under)]
    return replace(first, games=min(s.games for s in every),
                   worst=max(s.worst for s in every), outside=sum(s.outside for s in every),
                   excess=sum(s.excess for s in every),
                   holds=all(s.holds for s in every), under=tuple(under))


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
              band: tuple[float, float], goal: Goal | None = None) -> Scored:
    """The candidate's score under ``goal`` (None: the band objective with ``band``)."""
    if goal is not None and goal.is_meta:
        return _meta_scored(moves, tallies, goal)
    worst, outside, games, distances = 0.0, 0, 0, []
    for tally in tallies.values():
        rate = tally.wins / tally.completed if tally.completed else 0.5
        distances.append(abs(rate - 0.5))
        worst = max(worst, abs(rate - 0.5))
        outside += not band[0] <= rate <= band[1]
        games = max(games, tally.wins + tally.losses + tally.draws + tally.errors)
    return Scored(moves, games, dict(tallies), worst, outside, excess_of(distances, band))


def _meta_scored(moves: Candidate, tallies: Mapping[Matchup, Tally], goal: Goal) -> Scored:
    rates, scores, games = {}, {}, 0
    for matchup, t in tallies.items():
        done = t.completed
        rates[matchup] = (t.wins / done, t.losses / done) if done else (0.5, 0.5)
        scores[matchup] = (t.wins + t.draws / 2) / done if done else 0.5
        games = max(games, done + t.errors)
    decks = 1 + max((b for _, b in tallies), default=0)
    figures = meta_figures(decks, rates, scores, goal.epsilon)
    return Scored(moves, games, dict(tallies), figures.field_worst,
                  meta_outside(figures, goal, rates), meta_excess(figures, goal), figures)


def meta_of(tallies: Mapping[Matchup, Tally], decks: int, epsilon: float,
            resamples: int = 200) -> MetaReport:
    """The meta of a field from its tallies: each matchup's seat-swapped pairs are its own
    clusters (each matchup played its own seeds)."""
    games = {}
    for matchup, t in tallies.items():
        paired_wins = t.pairs[1] + 2 * t.pairs[2]
        games[matchup] = MatchupGames.from_pairs(
            t.pairs, single_wins=t.wins - paired_wins,
            single_games=t.completed - 2 * sum(t.pairs), draws=t.draws)
    meta_field = MetaField([str(d) for d in range(decks)], games, shared_seeds=False)
    return meta_report(meta_field, epsilon=epsilon, resamples=resamples)


def pareto(scored: Sequence[Scored], goal: Goal | None = None) -> list[Scored]:
    """The non-dominated candidates among those played the most games, best worst first (meta:
    a candidate with more changes only when its excess is smaller; best first)."""
    top = max((s.games for s in scored), default=0)
    pool = sorted((s for s in scored if s.games == top), key=lambda s: (s.changes, s.rank))
    front: list[Scored] = []
    meta = goal is not None and goal.is_meta
    for s in pool:
        if not front or (s.rank[0] < front[-1].rank[0] if meta else s.worst < front[-1].worst):
            front.append(s)
    if meta:
        return sorted(front, key=lambda s: s.rank)
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
    goal: Goal | None = None         # None: the band objective with ``band``
    agents: tuple[str, ...] = ()     # every agent the patches were checked under, first first
    strong_games_searched: int = 0   # games the further agents played while searching
    strong_games_verified: int = 0   # ... and re-verifying
    # Per further agent, who played for it: {"screened", "raced", "verified"} agent names.
    roles: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    strong_games_screened: int = 0   # the further agents' screening of single moves
    strong_moves_screened: tuple[int, ...] = ()   # moves screened at each halving rung

    @property
    def best(self) -> Scored | None:
        """The fewest changes with every matchup in the band, else the nearest to 50 % (on a
        tie, the one with fewer matchups outside the band, then fewer changes). Meta: the
        fewest changes holding every target with room for a fresh check (``verify.holds``),
        else the fewest meeting every target, else the fewest figures outside their bands, then
        the smallest share shortfall, then the worst field win rate nearest 50 % (checked
        under several agents: holding, meeting and the figures under every one of them)."""
        if self.goal is not None and self.goal.is_meta:
            return self._best_meta(self.goal)
        inside = [s for s in self.front if s.outside == 0]
        if inside:
            return min(inside, key=lambda s: (s.changes, s.worst, candidate_size(s.moves)))
        return min(self.front, key=lambda s: (s.worst, s.outside, s.changes,
                                              candidate_size(s.moves))) if self.front else None

    def _best_meta(self, goal: Goal) -> Scored | None:
        held = [s for s in self.front if s.holds]
        done = held or [s for s in self.front if s.meets_all(goal)]
        if done:
            return min(done, key=lambda s: (s.changes, s.worst, candidate_size(s.moves)))

        def shortfall(s: Scored) -> float:
            metas = [x.meta for x in (s, *(u for _, u in s.under))]
            if any(m is None for m in metas):
                return 1.0
            return round(max(0.0, goal.min_share - min(m.min_share for m in metas if m)), 3)

        return min(self.front, key=lambda s: (s.outside, shortfall(s), s.worst, s.changes,
                                              candidate_size(s.moves))) if self.front else None

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        best = self.best
        goal = self.goal or Goal(band=self.band)

        def verified(s: Scored) -> dict[str, Any]:
            out = {**s.summary(), "patch": s.patch().to_dict(),
                   "matchups": s.matchup_rows(names), "meta_report": s.meta_dict(names),
                   "meets": s.meets_all(goal) if goal.is_meta else s.outside == 0,
                   "holds": s.holds}
            if s.under:   # each further agent's own figures, as the first agent's above
                out["agents"] = {agent: {**verified(u), "agent": agent} for agent, u in s.under}
            return out

        strong = {"agents": list(self.agents), "strong_games_searched":
                  self.strong_games_searched,
                  "strong_games_verified": self.strong_games_verified,
                  "strong_games_screened": self.strong_games_screened,
                  "strong_moves_screened": list(self.strong_moves_screened),
                  "roles": {a: dict(r) for a, r in self.roles.items()}} if self.agents else {}
        return {**strong, "band": list(self.band), "objective": goal.to_dict(),
                "decks": list(names),
                "baseline": verified(self.baseline),
                "front": [verified(s) for s in self.front],
                "best": verified(best) if best else None,
                "searched": [s.summary() for s in self.searched[:50]],
                "games_searched": self.games_searched, "games_verified": self.games_verified,
                "evaluations": self.evaluations, "moves_screened": self.moves_screened}
