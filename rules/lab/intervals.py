"""95 % intervals computed on what is independent: the seat-swapped pair.

Both games of a pair share one seed (``rules.lab.match.game_seed``), so their outcomes are
correlated; treating them as independent games makes intervals too narrow. Every rate here is a
ratio over *clusters* (a pair, or every game played on one seed): cluster ``i`` contributes
``w_i`` wins out of ``n_i`` counted games, and the rate is ``Σw / Σn``.

- ``cluster_rate``: the cluster-robust (sandwich) variance of that ratio,
  ``G/(G−1) · Σ(w_i − p·n_i)² / (Σn)²``, turned into a design effect against the binomial
  variance and then into a Wilson score interval on the effective number of games
  ``Σn / deff`` — so it keeps Wilson's good behaviour near 0 % and 100 %. When every game was
  won (or lost) the sample shows no spread; the design effect is then taken as the one of
  perfectly correlated clusters (``Σn_i² / Σn``, 2 for pairs), which is conservative.
- ``paired_difference``: the change of a rate between two runs on the same seeds, from the
  per-cluster differences ``d_i = w_i' − w_i`` (Wald interval with the same sandwich variance).
- ``mcnemar_exact``: the exact two-sided McNemar test on the games that changed.

Draws count as not won everywhere (a rate is wins over counted games); engine errors are never
counted. The sums are plain numbers, so figures of chunks merge by adding (``Moments``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

Z95 = 1.959963984540054
DEFF_FLOOR = 0.5   # never credit clusters with more than twice the information of their games
METHOD_PAIRS = "pairs"     # Wilson on the effective games of a cluster-robust variance
METHOD_GAMES = "games"     # plain Wilson: only for figures with no pair information (old data)
RATE_METHODS = (METHOD_PAIRS, METHOD_GAMES)


class Rate(TypedDict):
    """A win rate with its 95 % interval, as every report shows it: ``rate`` (None with no
    games), ``low``, ``high``, ``games``, ``pairs`` (clusters; None for a plain Wilson
    interval), ``effective_games`` and ``method`` (one of ``RATE_METHODS``)."""

    rate: float | None
    low: float
    high: float
    games: int
    pairs: int | None
    effective_games: float
    method: str


class Difference(TypedDict):
    """The change of a rate between two runs on the same seeds, with its 95 % interval."""

    change: float | None
    low: float
    high: float
    games: int
    pairs: int


def wilson_interval(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (0, 1) when there is no data."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Moments:
    """Sums over clusters of one rate: Σw, Σn, Σw², Σw·n, Σn² and the number of clusters."""

    clusters: int = 0
    w: float = 0
    n: float = 0
    ww: float = 0
    wn: float = 0
    nn: float = 0

    def add_cluster(self, w: float, n: float) -> None:
        if n <= 0:
            return
        self.clusters += 1
        self.w += w
        self.n += n
        self.ww += w * w
        self.wn += w * n
        self.nn += n * n

    def grow(self, w: float, n: float, dw: float, dn: float) -> None:
        """The open cluster that had ``w`` of ``n`` gains ``dw`` of ``dn`` (exact at any time,
        so a pair half played still counts as the cluster it is so far)."""
        if dn <= 0:
            return
        if n <= 0:
            self.clusters += 1
        self.w += dw
        self.n += dn
        self.ww += (w + dw) ** 2 - w * w
        self.wn += (w + dw) * (n + dn) - w * n
        self.nn += (n + dn) ** 2 - n * n

    @classmethod
    def singletons(cls, wins: float, n: float) -> Moments:
        """Clusters of one game each (e.g. the games a deck went first: one per pair)."""
        return cls(int(n), wins, n, wins, wins, n)

    def merge(self, other: Moments) -> Moments:
        return Moments(*(getattr(self, k) + getattr(other, k) for k in _FIELDS))

    def to_list(self) -> list[float]:
        return [getattr(self, k) for k in _FIELDS]

    @classmethod
    def from_list(cls, values: Iterable[float]) -> Moments:
        clusters, *sums = values     # the cluster count is whole; a row may hold it as 3.0
        return cls(int(clusters), *sums)

    @classmethod
    def of(cls, clusters: Iterable[tuple[float, float]]) -> Moments:
        out = cls()
        for w, n in clusters:
            out.add_cluster(w, n)
        return out


_FIELDS = ("clusters", "w", "n", "ww", "wn", "nn")


def cluster_variance(m: Moments) -> float:
    """Cluster-robust variance of the ratio Σw/Σn, with the G/(G−1) small-sample factor."""
    if m.n <= 0 or m.clusters < 2:
        return math.inf
    p = m.w / m.n
    spread = max(0.0, m.ww - 2 * p * m.wn + p * p * m.nn)
    return m.clusters / (m.clusters - 1) * spread / (m.n * m.n)


def design_effect(m: Moments) -> float:
    """How many times the binomial variance the pairs show (1: games as good as independent)."""
    if m.n <= 0 or m.clusters < 2:
        return 1.0
    p = m.w / m.n
    binomial = p * (1 - p) / m.n
    if binomial <= 0:
        return m.nn / m.n
    return max(DEFF_FLOOR, cluster_variance(m) / binomial)


def cluster_rate(m: Moments, z: float = Z95) -> Rate:
    """A rate with its pair-aware 95 % interval: ``rate``, ``low``, ``high``, ``games``, ``pairs``
    (clusters), ``effective_games`` and ``method``."""
    if m.n <= 0:
        return {"rate": None, "low": 0.0, "high": 1.0, "games": 0, "pairs": 0,
                "effective_games": 0.0, "method": METHOD_PAIRS}
    deff = design_effect(m)
    effective = m.n / deff
    low, high = wilson_interval(m.w / m.n * effective, effective, z)
    return {"rate": m.w / m.n, "low": low, "high": high, "games": round(m.n),
            "pairs": m.clusters, "effective_games": round(effective, 2), "method": METHOD_PAIRS}


def games_rate(wins: int, n: int) -> Rate:
    """A rate with a plain Wilson interval (games as if independent), labelled as such."""
    low, high = wilson_interval(wins, n)
    return {"rate": wins / n if n else None, "low": low, "high": high, "games": n,
            "pairs": None, "effective_games": float(n), "method": METHOD_GAMES}


def paired_difference(pairs: Iterable[tuple[float, float, float]], z: float = Z95
                      ) -> Difference:
    """The change of a rate between two runs on the same seeds.

    ``pairs`` holds per cluster ``(w_before, w_after, n)``: wins before and after over the ``n``
    games counted in both runs. Returns ``change``, ``low``, ``high``, ``games``, ``pairs``."""
    rows = [(b, a, n) for b, a, n in pairs if n > 0]
    total = sum(n for _, _, n in rows)
    if total <= 0:
        return {"change": None, "low": -1.0, "high": 1.0, "games": 0, "pairs": 0}
    change = sum(a - b for b, a, _ in rows) / total
    g = len(rows)
    if g < 2:
        return {"change": change, "low": -1.0, "high": 1.0, "games": round(total), "pairs": g}
    spread = sum(((a - b) - change * n) ** 2 for b, a, n in rows)
    half = z * math.sqrt(g / (g - 1) * spread) / total
    return {"change": change, "low": max(-1.0, change - half), "high": min(1.0, change + half),
            "games": round(total), "pairs": g}


def mcnemar_exact(gained: int, lost: int) -> float:
    """Exact two-sided McNemar p-value: ``gained`` games went not-won → won, ``lost`` won →
    not-won; under no change each flip is a fair coin (binomial test, p = 0.5)."""
    n = gained + lost
    if n == 0:
        return 1.0
    k = min(gained, lost)
    log_half = n * math.log(0.5)
    tail = sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1)
                        + log_half) for i in range(k + 1))
    return min(1.0, 2 * tail)
