"""What a deck tuning reports: decks measured against the field, suggestions, their paired
improvement over the unchanged deck.

A deck's *field win rate* is the mean of its win rates against each opponent (draws count as
not won, engine errors are left out), weighted by the opponents' play shares when the field has
them (``TuneField.weights``: a field as it is played, not every deck alike). Every interval and
paired change is then the same weighted mean: each seat-swapped pair against opponent *o* counts
``share(o) × opponents`` times, so equal shares give the plain mean.

A suggestion's improvement is paired game by game with the unchanged deck on the same fresh
seeds: the change of the field win rate with a cluster-robust 95 % interval on seat-swapped
pairs (``rules.lab.intervals.paired_difference``; both games of a pair share one seed) and the
exact McNemar p-value on the games that flipped.

A suggestion also says how it moves the deck's share of the field's equilibria
(``rules.lab.meta``): the field is the tuned deck and its opponents, whose own pairings are played
once on fresh seeds; the Nash equilibrium and the maximum-entropy ε-equilibrium of the deck
choice are solved with the unchanged deck and with the suggestion, on the verified games.
``to_dict`` is the JSON the command prints and the site keeps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules.engine.cards import DeckList
from rules.lab.deck_tuning.problem import Candidate, DeckKey
from rules.lab.intervals import Moments, cluster_rate, mcnemar_exact, paired_difference
from rules.lab.meta import DEFAULT_EPSILON, MatchupGames, MetaReport, meta_report
from rules.lab.meta import Field as MetaField

Pairing = tuple[int, int]     # two opponents' indices, first < second

COUNTED = "abd"


def _rate(outcomes: str) -> tuple[int, int]:
    wins = outcomes.count("a")
    return wins, wins + outcomes.count("b") + outcomes.count("d")


def _moments(outcomes: str, factor: float = 1.0) -> Moments:
    """The outcomes as clusters: each seat-swapped pair (games 2k, 2k+1) one cluster, counted
    ``factor`` times (a weighted field)."""
    out = Moments()
    for start in range(0, len(outcomes), 2):
        pair = [c for c in outcomes[start:start + 2] if c in COUNTED]
        out.add_cluster(factor * sum(c == "a" for c in pair), factor * len(pair))
    return out


def factors(shares: Sequence[float] | None, opponents: int) -> tuple[float, ...]:
    """How many times a pair against each opponent counts: share × opponents (1 unweighted)."""
    if shares is None:
        return (1.0,) * opponents
    return tuple(s * opponents for s in shares)


@dataclass(frozen=True)
class Measured:
    swaps: Candidate
    outcomes: tuple[str, ...]          # per opponent, from the tuned deck's side
    shares: tuple[float, ...] | None = None   # opponents' play shares (None: equal)

    @cached_property
    def rates(self) -> tuple[float, ...]:
        out = []
        for o in self.outcomes:
            wins, n = _rate(o)
            out.append(wins / n if n else 0.5)
        return tuple(out)

    @property
    def rate(self) -> float:
        if not self.rates:
            return 0.5
        weights = factors(self.shares, len(self.rates))
        return sum(w * r for w, r in zip(weights, self.rates, strict=True)) / len(self.rates)

    @property
    def games(self) -> int:
        return len(self.outcomes[0]) if self.outcomes else 0

    def summary(self) -> dict[str, Any]:
        return {"swaps": [s.to_dict() for s in self.swaps], "rate": round(self.rate, 4),
                "games": self.games}

    def interval(self) -> dict[str, Any]:
        """The field win rate's pair-aware 95 % interval (every game against every opponent)."""
        total = Moments()
        for o, f in zip(self.outcomes, factors(self.shares, len(self.outcomes)), strict=True):
            total = total.merge(_moments(o, f))
        figure = cluster_rate(total)
        return {"rate": round(self.rate, 4), "low": round(figure["low"], 4),
                "high": round(figure["high"], 4), "games": figure["games"]}

    def matchup_rows(self, names: Sequence[str]) -> list[dict[str, Any]]:
        rows = []
        for name, outcomes, rate in zip(names, self.outcomes, self.rates, strict=True):
            figure = cluster_rate(_moments(outcomes))
            rows.append({"opponent": name, "rate": round(rate, 4),
                         "low": round(figure["low"], 4), "high": round(figure["high"], 4),
                         "games": figure["games"], "draws": outcomes.count("d"),
                         "errors": outcomes.count("e")})
        return rows


def matchup_games(outcomes: str) -> MatchupGames:
    """Outcomes as a matchup's games: each seat-swapped pair one cluster."""
    out = MatchupGames()
    for index, c in enumerate(outcomes):
        if c in COUNTED:
            out.add(index // 2, won=int(c == "a"), drawn=int(c == "d"), counted=1)
    return out


def field_meta(tuned: Sequence[str], pairings: Mapping[Pairing, str], *,
               epsilon: float = DEFAULT_EPSILON, resamples: int = 0) -> MetaReport | None:
    """The meta of the tuned deck (deck 0) and its opponents (decks 1…): the tuned deck's
    outcomes against each opponent, and the opponents' pairings; None without pairings (one
    opponent: a field of two has no meta worth the name)."""
    if not pairings:
        return None
    matchups = {(0, o + 1): matchup_games(outcomes) for o, outcomes in enumerate(tuned)}
    matchups.update({(i + 1, j + 1): matchup_games(outcomes)
                     for (i, j), outcomes in pairings.items()})
    names = [str(d) for d in range(len(tuned) + 1)]
    return meta_report(MetaField(names, matchups), epsilon=epsilon, resamples=resamples)


def share_change(before: MetaReport | None, after: MetaReport | None) -> dict[str, Any] | None:
    """How a suggestion moves the tuned deck's share of each equilibrium and the field's
    evenness."""
    if before is None or after is None:
        return None
    return {kind: {"before": round(getattr(before, kind).shares[0], 4),
                   "after": round(getattr(after, kind).shares[0], 4),
                   "entropy_before": round(getattr(before, kind).entropy_ratio, 4),
                   "entropy_after": round(getattr(after, kind).entropy_ratio, 4)}
            for kind in ("nash", "relaxed")} | {"epsilon": after.epsilon}


def measured_of(swaps: Candidate, outcomes: Sequence[str],
                shares: Sequence[float] | None = None) -> Measured:
    return Measured(tuple(swaps), tuple(outcomes),
                    tuple(shares) if shares is not None else None)


def paired(before: Sequence[str], after: Sequence[str],
           shares: Sequence[float] | None = None
           ) -> tuple[list[tuple[float, float, float]], int, int]:
    """Per seat-swapped pair of every opponent: (wins before, wins after, games counted in
    both), each counted as often as its opponent's share says (``factors``), and the games
    gained (not won → won) and lost (won → not won)."""
    rows: list[tuple[float, float, float]] = []
    gained = lost = 0
    for old, new, f in zip(before, after, factors(shares, len(before)), strict=True):
        for start in range(0, min(len(old), len(new)), 2):
            w0 = w1 = n = 0
            for x, y in zip(old[start:start + 2], new[start:start + 2], strict=False):
                if x not in COUNTED or y not in COUNTED:
                    continue
                n += 1
                w0 += x == "a"
                w1 += y == "a"
                gained += x != "a" and y == "a"
                lost += x == "a" and y != "a"
            rows.append((f * w0, f * w1, f * n))
    return rows, gained, lost


def improvement(before: Measured, after: Measured) -> dict[str, Any]:
    """The paired change of the field win rate from ``before`` to ``after`` (same seeds)."""
    rows, gained, lost = paired(before.outcomes, after.outcomes, before.shares)
    figure = paired_difference(rows)
    return {"change": round(figure["change"] or 0.0, 4), "low": round(figure["low"], 4),
            "high": round(figure["high"], 4), "games": figure["games"],
            "pairs": figure["pairs"], "gained": gained, "lost": lost,
            "p_value": mcnemar_exact(gained, lost)}


@dataclass(frozen=True)
class Suggestion:
    swaps: Candidate
    deck: DeckKey
    search: Measured          # on the search's seeds
    verified: Measured        # on fresh seeds
    baseline: Measured        # the unchanged deck on the same fresh seeds
    shares: dict[str, Any] | None = None   # ``share_change`` (None: no pairings played)

    @cached_property
    def improvement(self) -> dict[str, Any]:
        return improvement(self.baseline, self.verified)

    @property
    def verdict(self) -> str:
        """``confirmed``: the paired 95 % interval lies above zero on fresh seeds;
        ``unconfirmed``: better on fresh seeds, but the interval includes no change;
        ``worse``: no better on fresh seeds (it won on the search's seeds by chance)."""
        gain = self.improvement
        if gain["low"] > 0:
            return "confirmed"
        return "unconfirmed" if gain["change"] > 0 else "worse"

    def per_opponent(self, names: Sequence[str]) -> list[dict[str, Any]]:
        rows = []
        for i, name in enumerate(names):
            before = Measured((), (self.baseline.outcomes[i],))
            after = Measured(self.swaps, (self.verified.outcomes[i],))
            rows.append({"opponent": name, "before": round(before.rate, 4),
                         "after": round(after.rate, 4), **improvement(before, after)})
        return rows

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        return {"swaps": [s.to_dict() for s in self.swaps],
                "deck": {"hero": self.deck[0], "cards": dict(self.deck[1])},
                "search_rate": round(self.search.rate, 4), "search_games": self.search.games,
                "verified": self.verified.interval(), "improvement": self.improvement,
                "verdict": self.verdict, "shares": self.shares,
                "matchups": self.per_opponent(names)}


@dataclass(frozen=True)
class TuningResult:
    deck: DeckList
    baseline: Measured              # the unchanged deck, on fresh seeds
    suggestions: list[Suggestion]   # re-verified, largest verified improvement first
    searched: list[Measured]        # every deck raced to the last rung, best first
    search_baseline: Measured
    games_searched: int
    games_verified: int
    evaluations: int
    rounds: int
    games_each: int                 # games per opponent at the last rung
    field: MetaReport | None = None  # the unchanged deck's field's meta (fresh seeds)

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        """``names``: the opponents' names, in order."""
        return {"deck": {"name": self.deck.name, "hero": self.deck.hero,
                         "cards": self.deck.counts()},
                "opponents": list(names),
                "shares": [round(s, 6) for s in self.baseline.shares]
                if self.baseline.shares is not None else None,
                "baseline": {**self.baseline.interval(),
                             "matchups": self.baseline.matchup_rows(names)},
                "search_baseline_rate": round(self.search_baseline.rate, 4),
                "suggestions": [s.to_dict(names) for s in self.suggestions],
                "searched": [m.summary() for m in self.searched[:30]],
                "games_searched": self.games_searched, "games_verified": self.games_verified,
                "evaluations": self.evaluations, "rounds": self.rounds,
                "games_each": self.games_each,
                "field_meta": {**self.field.to_dict(), "decks": [self.deck.name, *names]}
                if self.field is not None else None}
