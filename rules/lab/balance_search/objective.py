"""What a balance search aims for: its objective, the objective's parameters and figures.

Two objectives:

- ``band`` — every matchup's win rate inside ``band`` (45–55 % by default). A rock-paper-
  scissors field, whose matchups are polarised by design, rarely gets there in a few changes.
- ``meta`` — a healthy meta, the question designers ask: every deck's *field win rate* (the
  mean of its matchup win rates; every matchup plays as many games) inside ``field_band``
  (47–53 %), every matchup inside a loose ``matchup_band`` (30–70 %: polarised matchups are
  fine, a dominant deck is not), and the maximum-entropy ε-equilibrium of the deck choice
  (``rules.lab.meta.relaxed_equilibrium``, ``epsilon``) giving every deck at least ``min_share``
  (5 %): a field that adapts still plays every deck.

``meta_figures`` computes a candidate's figures from its matchups (measured or predicted);
``meta_excess`` turns them into the search's excess: squared distances beyond *aims* that lie
a margin inside each limit (so a patch found on the search's seeds holds on fresh ones), the
share's shortfall weighted to weigh like field win rate. ``Goal.check`` says what is wrong with
a goal for a field, in a message naming the parameter.

Pure Python with numpy/scipy (``rules.lab.meta``); no Django. Deterministic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.lab.meta import entropy_ratio, nash_equilibrium, payoff_matrix, relaxed_equilibrium

OBJECTIVES = ("band", "meta", "adapted")
DEFAULT_BAND = (0.45, 0.55)
DEFAULT_FIELD_BAND = (0.47, 0.53)
DEFAULT_MATCHUP_BAND = (0.30, 0.70)
DEFAULT_EPSILON = 0.005
DEFAULT_MIN_SHARE = 0.05

FIELD_MARGIN = 0.02       # aim a field win rate this far inside its band
MATCHUP_MARGIN = 0.04     # ... a matchup inside the loose band
SHARE_MARGIN = 0.03       # ... and every deck this much above the minimum share
SHARE_WEIGHT = 0.25       # a point of share short weighs as a quarter point of field win rate

Matchup = tuple[int, int]

# What ``Goal.check`` says is wrong (the caller names the parameter: ``GoalError.field``).
BAD_OBJECTIVE = "give band, meta or adapted (got {value!r})."
BAND_ORDER = "the low end must lie below the high end (got {low:g}–{high:g} %)."
BAND_MISSES_FIFTY = ("the band must hold 50 %: low below 50 and high above (got "
                     "{low:g}–{high:g} %).")
BANDS_CONTRADICT = ("the field band {low:g}–{high:g} % reaches outside the matchup band "
                    "{mlow:g}–{mhigh:g} %; a deck's field win rate is the mean of its "
                    "matchups, so give a field band inside the matchup band.")
BAD_EPSILON = "give a share of win rate from 0 up to (not including) 0.5 (got {value:g})."
BAD_MIN_SHARE = "give a share from 0 to {top:g} % (one deck in {decks}; got {value:g} %)."
FEW_DECKS_META = ("the meta objective needs a field of at least three decks (got {count}); "
                  "with two, use the band objective.")


class GoalError(ValueError):
    """A goal that cannot be searched; ``field`` names the parameter to fix."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message, self.field = message, field


@dataclass(frozen=True)
class Goal:
    """The objective and its parameters (shares and win rates as fractions)."""

    kind: str = "band"
    band: tuple[float, float] = DEFAULT_BAND
    field_band: tuple[float, float] = DEFAULT_FIELD_BAND
    matchup_band: tuple[float, float] = DEFAULT_MATCHUP_BAND
    epsilon: float = DEFAULT_EPSILON
    min_share: float = DEFAULT_MIN_SHARE

    @property
    def is_meta(self) -> bool:
        return self.kind == "meta"

    def check(self, decks: int) -> None:
        """GoalError naming the parameter when the goal is impossible for ``decks`` decks."""
        if self.kind not in OBJECTIVES:
            raise GoalError(BAD_OBJECTIVE.format(value=self.kind), "objective")
        if self.kind == "band":
            _check_band(self.band, "band")
            return
        _check_band(self.field_band, "field_band")
        _check_band(self.matchup_band, "matchup_band")
        (low, high), (mlow, mhigh) = self.field_band, self.matchup_band
        if low < mlow or high > mhigh:
            raise GoalError(BANDS_CONTRADICT.format(low=low * 100, high=high * 100,
                                                    mlow=mlow * 100, mhigh=mhigh * 100),
                            "field_band")
        if not 0 <= self.epsilon < 0.5:
            raise GoalError(BAD_EPSILON.format(value=self.epsilon), "epsilon")
        if decks < 3:
            raise GoalError(FEW_DECKS_META.format(count=decks), "decks")
        if not 0 <= self.min_share <= 1 / decks:
            raise GoalError(BAD_MIN_SHARE.format(top=round(100 / decks, 2), decks=decks,
                                                 value=round(self.min_share * 100, 4)),
                            "min_share")

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "band":
            return {"objective": "band", "band": list(self.band)}
        return {"objective": self.kind, "field_band": list(self.field_band),
                "matchup_band": list(self.matchup_band), "epsilon": self.epsilon,
                "min_share": self.min_share}


def _check_band(band: tuple[float, float], name: str) -> None:
    low, high = band
    if low >= high:
        raise GoalError(BAND_ORDER.format(low=low * 100, high=high * 100), name)
    if not 0 <= low < 0.5 < high <= 1:
        raise GoalError(BAND_MISSES_FIFTY.format(low=low * 100, high=high * 100), name)


@dataclass(frozen=True)
class MetaFigures:
    """A field's health: each deck's field win rate, the lowest and highest win rate of any deck
    in any matchup, and both equilibria's shares (of the score payoff)."""

    field_rates: tuple[float, ...]
    matchup_low: float
    matchup_high: float
    nash: tuple[float, ...]
    relaxed: tuple[float, ...]
    matchup_distances: tuple[float, ...] = ()   # per matchup: its farther side from 50 %

    @property
    def field_worst(self) -> float:
        return max(abs(f - 0.5) for f in self.field_rates)

    @property
    def min_share(self) -> float:
        return min(self.relaxed)

    def summary(self) -> dict[str, Any]:
        return {"field_rates": [round(f, 4) for f in self.field_rates],
                "field_worst": round(self.field_worst, 4),
                "matchup_range": [round(self.matchup_low, 4), round(self.matchup_high, 4)],
                "nash": [round(s, 4) for s in self.nash],
                "relaxed": [round(s, 4) for s in self.relaxed],
                "nash_entropy": round(entropy_ratio(self.nash), 4),
                "relaxed_entropy": round(entropy_ratio(self.relaxed), 4),
                "min_share": round(self.min_share, 4)}


def win_matrix(decks: int, rates: Mapping[Matchup, tuple[float, float]]
               ) -> list[list[float | None]]:
    """Square matrix of win rates from ``rates[(a, b)] = (a's win rate, b's win rate)``."""
    out: list[list[float | None]] = [[None] * decks for _ in range(decks)]
    for (a, b), (ra, rb) in rates.items():
        out[a][b], out[b][a] = ra, rb
    return out


def field_rates(matrix: Sequence[Sequence[float | None]]) -> tuple[float, ...]:
    """Each deck's field win rate: the mean of its matchup win rates."""
    out = []
    for row in matrix:
        cells = [x for x in row if x is not None]
        out.append(sum(cells) / len(cells) if cells else 0.5)
    return tuple(out)


def meta_figures(decks: int, rates: Mapping[Matchup, tuple[float, float]],
                 scores: Mapping[Matchup, float], epsilon: float, *,
                 equilibria: bool = True) -> MetaFigures:
    """The figures of a field whose matchup ``(a, b)`` has win rates ``rates[(a, b)]`` (a's,
    b's) and score ``scores[(a, b)]`` (a's wins + half the draws, over games). Without
    ``equilibria`` the shares are left empty (the cheap part, for screening predictions)."""
    wins = win_matrix(decks, rates)
    cells = [x for row in wins for x in row if x is not None]
    nash: tuple[float, ...] = ()
    relaxed: tuple[float, ...] = ()
    if equilibria:
        score: list[list[float | None]] = [[None] * decks for _ in range(decks)]
        for (a, b), s in scores.items():
            score[a][b], score[b][a] = s, 1 - s
        payoff = payoff_matrix(score)
        nash = tuple(float(x) for x in nash_equilibrium(payoff))
        relaxed = tuple(float(x) for x in relaxed_equilibrium(payoff, epsilon))
    distances = tuple(max(abs(ra - 0.5), abs(rb - 0.5)) for ra, rb in rates.values())
    return MetaFigures(field_rates(wins), min(cells, default=0.5), max(cells, default=0.5),
                       nash, relaxed, distances)


def meta_excess(figures: MetaFigures, goal: Goal, *, shares: bool = True) -> float:
    """Σ squared distances beyond the aims (field rates, matchups), plus the weighted squared
    shortfall of the smallest ε-equilibrium share below its aim (``shares``)."""
    return _cheap_excess(figures, goal) + (share_excess(figures.min_share, goal)
                                           if shares and figures.relaxed else 0.0)


def _cheap_excess(figures: MetaFigures, goal: Goal) -> float:
    half = _aim(goal.field_band, FIELD_MARGIN)
    out = sum(max(0.0, abs(f - 0.5) - half) ** 2 for f in figures.field_rates)
    mhalf = _aim(goal.matchup_band, MATCHUP_MARGIN)
    return out + sum(max(0.0, d - mhalf) ** 2 for d in figures.matchup_distances)


def share_excess(min_share: float, goal: Goal) -> float:
    return (SHARE_WEIGHT * max(0.0, goal.min_share + SHARE_MARGIN - min_share)) ** 2


def _aim(band: tuple[float, float], margin: float) -> float:
    return max(0.0, min(0.5 - band[0], band[1] - 0.5) - margin)


def meta_outside(figures: MetaFigures, goal: Goal,
                 rates: Mapping[Matchup, tuple[float, float]]) -> int:
    """Decks outside the field band plus matchups outside the matchup band."""
    low, high = goal.field_band
    mlow, mhigh = goal.matchup_band
    decks = sum(not low <= f <= high for f in figures.field_rates)
    matchups = sum(not (mlow <= ra <= mhigh and mlow <= rb <= mhigh)
                   for ra, rb in rates.values())
    return decks + matchups


def meets(figures: MetaFigures, goal: Goal, outside: int) -> bool:
    """Every target met: nothing outside its band and every deck at least the minimum share."""
    return outside == 0 and (not figures.relaxed or figures.min_share >= goal.min_share)
