"""The meta of a field: each deck's win rate against the field, and who a field that adapts
would play — the Nash equilibrium of the deck choice, exact and relaxed.

The deck-choice game is symmetric and zero-sum: two players each pick a deck of the field, and
the payoff is the matchup's *score* (wins + half the draws, over games) minus ½, so the payoff
matrix ``A`` is antisymmetric (``A[i][j] = −A[j][i]``) and the game's value is 0. A mix ``x`` of
decks is

- a **Nash equilibrium** when no deck does better than even against it: ``(A x)_i ≤ 0`` for
  every deck ``i``. ``nash_equilibrium`` finds it by linear programming (scipy's HiGHS), the
  most even one where several exist;
- an **ε-equilibrium** when no deck gains more than ``ε`` against it: ``(A x)_i ≤ ε``.
  ``relaxed_equilibrium`` finds the one of maximum entropy — the most even spread a field can
  have when a deck may give up ``ε`` of win rate — a small convex programme (SLSQP).

An exact equilibrium hangs on differences smaller than the games measure, so ``meta_report``
also resamples the independent units of the games — seat-swapped pairs — and reports how often
each deck is played (its share at least ``PLAYED_SHARE``) in either equilibrium, and an interval
for each entropy ratio (entropy ÷ log n, 1 = every deck equally). When the matchups of a field
were played on the same seeds (a round-robin run), a pair index is one cluster across all of
them and resampling draws pair indices for every matchup at once. The resamples' equilibria
are solved as one stack (``nash_equilibria``, ``relaxed_equilibria``: one programme for all,
the same shares as one at a time), in about a tenth of the time of a solver call each
(``docs/balance-search.md`` has the figures).

Pure Python with numpy and scipy; no Django. Deterministic for a given ``seed``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy.optimize import linprog, minimize
from scipy.sparse import block_diag, csr_array

from rules.lab.intervals import Moments, Rate, cluster_rate

# Shares, payoffs and their matrices: arrays of floats.
Floats = npt.NDArray[np.float64]

DEFAULT_EPSILON = 0.005      # half a point of win rate
PLAYED_SHARE = 0.01          # a deck is "played" by an equilibrium that gives it at least 1 %
DEFAULT_RESAMPLES = 200
Matchup = tuple[int, int]

BAD_FIELD = "A meta needs at least two decks."
BAD_EPSILON = "ε must lie between 0 and 0.5 (a share of win rate)."
BAD_MATRIX = "The payoff matrix must be square and antisymmetric."


# --- equilibria -------------------------------------------------------------------------------

def payoff_matrix(score: Sequence[Sequence[float | None]]) -> Floats:
    """The antisymmetric payoff of the deck-choice game from a score matrix (``score[i][j]``:
    deck i's score against deck j, wins + half the draws; ``None`` on the diagonal). Both
    directions are averaged, ``(s_ij − s_ji) / 2``, so a matrix measured from either side gives
    the same game; an unplayed matchup counts as even."""
    n = len(score)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            sij, sji = score[i][j], score[j][i]
            sij = 1 - sji if sij is None and sji is not None else sij
            sji = 1 - sij if sji is None and sij is not None else sji
            if sij is not None and sji is not None:
                out[i, j] = (sij - sji) / 2
    return out


def _check(payoff: Floats) -> Floats:
    a = np.asarray(payoff, dtype=float)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or not np.allclose(a, -a.T, atol=1e-9):
        raise ValueError(BAD_MATRIX)
    if a.shape[0] < 2:
        raise ValueError(BAD_FIELD)
    return a


def nash_equilibrium(payoff: Floats) -> Floats:
    """A Nash equilibrium of the symmetric zero-sum game, by one linear programme (HiGHS).

    The game's value is 0, so the equilibria are the mixes with ``A x ≤ 0``, ``Σx = 1``,
    ``x ≥ 0``. When several exist (a flat field: every mix), the most even is taken: the
    programme maximises ``Σ t_i`` with ``t_i ≤ x_i`` and ``t_i ≤ 1/n`` — a unique equilibrium
    is returned as it is, a flat field's is uniform."""
    shares: Floats = nash_equilibria(_check(payoff)[None])[0]
    return shares


def relaxed_equilibrium(payoff: Floats, epsilon: float = DEFAULT_EPSILON) -> Floats:
    """The maximum-entropy ε-equilibrium: the most even mix against which no deck wins more
    than ``epsilon`` above even (``epsilon`` 0: the exact equilibrium, ``nash_equilibrium``).

    Maximum entropy under linear constraints is a small convex programme, solved by SLSQP on
    the shares; should SLSQP stop short, by its dual (``min_λ≥0 log Σ_k exp(−(Aᵀλ)_k) + ε Σλ``,
    ``x = softmax(−Aᵀλ)``) with L-BFGS-B."""
    a = _check(payoff)
    if not 0 <= epsilon < 0.5:
        raise ValueError(BAD_EPSILON)
    n = a.shape[0]
    uniform = np.full(n, 1 / n)
    if np.max(a @ uniform) <= epsilon:        # the uniform mix already holds: entropy's maximum
        return uniform
    if epsilon == 0:
        return nash_equilibrium(a)
    floor = 1e-300
    constraints = [{"type": "ineq", "fun": lambda x: epsilon - a @ x, "jac": lambda x: -a},
                   {"type": "eq", "fun": lambda x: x.sum() - 1.0,
                    "jac": lambda x: np.ones((1, n))}]
    # scipy-stubs types a constraint's "fun" as scalar-valued; SLSQP takes the vector-valued
    # one here (one row of A x ≤ ε per deck), which no overload of the stubs admits.
    done = minimize(  # type: ignore[call-overload]
        lambda x: float(np.sum(x * np.log(np.maximum(x, floor)))), uniform,
        jac=lambda x: np.log(np.maximum(x, floor)) + 1.0, method="SLSQP",
        bounds=[(1e-12, 1.0)] * n, constraints=constraints,
        options={"ftol": 1e-14, "maxiter": 500})
    if done.success and np.max(a @ done.x) <= epsilon + 1e-7:
        return _normalised(done.x)
    shares: Floats = _dual_relaxed(a[None], epsilon)[0]
    return shares


def _dual_relaxed(stack: Floats, epsilon: float) -> Floats:
    """The maximum-entropy ε-equilibria of a stack of matrices by their duals at once
    (``min_λ≥0 log Σ_k exp(−(Aᵀλ)_k) + ε Σλ``, ``x = softmax(−Aᵀλ)``): one L-BFGS-B over every
    matrix's ``λ`` — their sum separates, and the gradient's tolerance holds for each ``λ``."""
    runs, n = stack.shape[0], stack.shape[1]

    def exponentials(lam: Floats) -> tuple[Floats, Floats, Floats]:
        z = -np.einsum("kij,ki->kj", stack, lam)               # −Aᵀλ, one row per matrix
        top = z.max(axis=1, keepdims=True)
        weights = np.exp(z - top)
        return top, weights, weights.sum(axis=1, keepdims=True)

    def dual(flat: Floats) -> tuple[float, Floats]:
        lam = flat.reshape(runs, n)
        top, weights, total = exponentials(lam)
        value = float(np.sum(top + np.log(total)) + epsilon * lam.sum())
        grad = -np.einsum("kij,kj->ki", stack, weights / total) + epsilon
        return value, grad.ravel()

    done = minimize(dual, np.zeros(runs * n), jac=True, method="L-BFGS-B",
                    bounds=[(0, None)] * (runs * n),
                    options={"maxiter": 20_000, "ftol": 1e-15, "gtol": 1e-12})
    _, weights, _ = exponentials(done.x.reshape(runs, n))
    return np.vstack([_normalised(row) for row in weights])


def nash_equilibria(payoffs: Floats) -> Floats:
    """``nash_equilibrium`` of each of a stack of payoff matrices (``R × n × n``; one row of
    shares each), by one linear programme: the matrices' programmes share no variable, so the
    optimum of their sum is each one's optimum. One HiGHS call instead of ``R`` saves the
    solver's set-up, which for a field of a few decks is most of a call's time."""
    stack = np.asarray(payoffs, dtype=np.float64)
    runs, n = stack.shape[0], stack.shape[1]
    if runs == 0:
        return np.zeros((0, n))
    for a in stack:
        _check(a)
    lower = np.hstack([-np.eye(n), np.eye(n)])                   # t − x ≤ 0
    upper = block_diag([np.vstack([np.hstack([a, np.zeros((n, n))]), lower]) for a in stack],
                       format="csr")                            # A x ≤ 0 for each matrix
    equal = block_diag([np.concatenate([np.ones(n), np.zeros(n)])[None, :]] * runs,
                       format="csr")
    cost = np.tile(np.concatenate([np.zeros(n), -np.ones(n)]), runs)
    bounds = ([(0, None)] * n + [(0, 1 / n)] * n) * runs
    # scipy-stubs types the constraint matrices as dense arrays; HiGHS takes sparse ones, and
    # the stack's dense matrix would grow with the square of the resamples.
    done = linprog(  # type: ignore[call-overload]
        cost, A_ub=csr_array(upper), b_ub=np.zeros(2 * n * runs),
        A_eq=csr_array(equal), b_eq=np.ones(runs), bounds=bounds, method="highs")
    if done.status != 0 or done.x is None:
        raise ArithmeticError(f"HiGHS could not solve the equilibria: {done.message}")
    return np.vstack([_normalised(row[:n]) for row in done.x.reshape(runs, 2 * n)])


def relaxed_equilibria(payoffs: Floats, epsilon: float = DEFAULT_EPSILON) -> Floats:
    """``relaxed_equilibrium`` of each of a stack of payoff matrices (one row of shares each),
    by the dual of their maximum-entropy programmes at once (``_dual_relaxed``); a matrix the
    uniform mix already satisfies keeps it, as one alone does."""
    stack = np.asarray(payoffs, dtype=np.float64)
    if not 0 <= epsilon < 0.5:
        raise ValueError(BAD_EPSILON)
    runs, n = stack.shape[0], stack.shape[1]
    for a in stack:
        _check(a)
    if epsilon == 0:
        return nash_equilibria(stack)
    shares: Floats = np.full((runs, n), 1 / n)
    todo = np.flatnonzero(np.max(stack @ np.full(n, 1 / n), axis=1) > epsilon)
    if not len(todo):
        return shares
    shares[todo] = _dual_relaxed(stack[todo], epsilon)
    return shares


def _normalised(x: Floats) -> Floats:
    x = np.clip(np.asarray(x, dtype=np.float64), 0.0, None)
    x[x < 1e-9] = 0.0
    total: np.float64 = x.sum()
    return x / total


def entropy_ratio(shares: Sequence[float] | Floats) -> float:
    """Entropy of a mix over log n: 1 when every deck has the same share, 0 for a single deck."""
    n = len(shares)
    if n < 2:
        return 0.0
    h = -sum(p * math.log(p) for p in shares if p > 0)
    return min(1.0, max(0.0, h / math.log(n)))   # a share a rounding above 1 gives h < 0


# --- the games behind a field -----------------------------------------------------------------

@dataclass
class MatchupGames:
    """The games of matchup (i, j) by cluster (a seat-swapped pair, keyed by its index): deck
    i's wins, the draws and the counted games in each."""

    wins: dict[Hashable, int] = field(default_factory=dict)
    draws: dict[Hashable, int] = field(default_factory=dict)
    games: dict[Hashable, int] = field(default_factory=dict)
    spread_draws: float = 0.0   # draws known only as a total: this many per counted game

    def add(self, key: Hashable, *, won: int, drawn: int, counted: int) -> None:
        if counted <= 0:
            return
        self.wins[key] = self.wins.get(key, 0) + won
        self.draws[key] = self.draws.get(key, 0) + drawn
        self.games[key] = self.games.get(key, 0) + counted

    @classmethod
    def from_pairs(cls, pairs: Sequence[int], *, single_wins: int = 0, single_games: int = 0,
                   draws: int = 0) -> MatchupGames:
        """From counts alone: ``pairs[k]`` seat-swapped pairs in which deck i won ``k`` games,
        plus games whose partner was not counted. Draws (not in the pair counts) are spread over
        the clusters in proportion to their games, which keeps every total exact."""
        out = cls()
        key = 0
        for won, count in enumerate(pairs):
            for _ in range(count):
                out.add(key, won=won, drawn=0, counted=2)
                key += 1
        for index in range(single_games):
            out.add(key, won=int(index < single_wins), drawn=0, counted=1)
            key += 1
        out.spread_draws = draws / max(1, sum(out.games.values()))
        return out

    def totals(self) -> tuple[int, float, int]:
        extra = self.spread_draws * sum(self.games.values())
        return sum(self.wins.values()), sum(self.draws.values()) + extra, sum(self.games.values())


@dataclass
class Field:
    """A field's games: deck names and each played matchup's games from deck i's side (i < j).
    ``shared_seeds``: every matchup played the same pair indices on the same seeds (a
    round-robin run), so a pair index is one cluster across the field."""

    names: list[str]
    matchups: dict[Matchup, MatchupGames]
    shared_seeds: bool = False

    def score_matrix(self) -> list[list[float | None]]:
        n = len(self.names)
        out: list[list[float | None]] = [[None] * n for _ in range(n)]
        for (i, j), games in self.matchups.items():
            wins, draws, counted = games.totals()
            if counted:
                losses = counted - wins - draws
                out[i][j] = (wins + draws / 2) / counted
                out[j][i] = (losses + draws / 2) / counted
        return out

    def field_rate(self, deck: int) -> Rate:
        """The deck's win rate over all its games against the rest of the field, with its
        pair-aware 95 % interval (clusters: pair indices when the seeds are shared, else each
        matchup's pairs)."""
        clusters: dict[Hashable, list[float]] = {}
        for (i, j), games in self.matchups.items():
            if deck not in (i, j):
                continue
            spread = games.spread_draws
            for key, counted in games.games.items():
                won = games.wins[key] if deck == i else (
                    counted - games.wins[key] - games.draws[key] - spread * counted)
                slot = key if self.shared_seeds else ((i, j), key)
                cluster = clusters.setdefault(slot, [0.0, 0.0])
                cluster[0] += won
                cluster[1] += counted
        return cluster_rate(Moments.of((w, n) for w, n in clusters.values()))


# --- the report -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Equilibrium:
    shares: tuple[float, ...]
    entropy_ratio: float
    played: tuple[float, ...]            # share of resamples in which each deck is played
    entropy_low: float                   # 95 % interval of the entropy ratio over resamples
    entropy_high: float

    def to_dict(self) -> dict[str, Any]:
        return {"shares": [round(s, 6) for s in self.shares],
                "entropy_ratio": round(self.entropy_ratio, 6),
                "played": [round(p, 4) for p in self.played],
                "entropy_low": round(self.entropy_low, 6),
                "entropy_high": round(self.entropy_high, 6)}


@dataclass(frozen=True)
class MetaReport:
    names: tuple[str, ...]
    field_rates: tuple[Rate, ...]
    nash: Equilibrium
    relaxed: Equilibrium
    epsilon: float
    resamples: int
    matchup_half_width: float            # median half-width of a matchup's 95 % interval

    def to_dict(self) -> dict[str, Any]:
        return {"decks": list(self.names), "field_rates": list(self.field_rates),
                "nash": self.nash.to_dict(), "relaxed": self.relaxed.to_dict(),
                "epsilon": self.epsilon, "resamples": self.resamples,
                "played_share": PLAYED_SHARE,
                "matchup_half_width": round(self.matchup_half_width, 6)}

    def sentence(self) -> str:
        """The plain-English reading (the site builds its own, translated)."""
        return describe(self.to_dict())


def meta_report(games: Field, *, epsilon: float = DEFAULT_EPSILON,
                resamples: int = DEFAULT_RESAMPLES, seed: int = 0) -> MetaReport:
    """Field rates, both equilibria and their uncertainty by resampling seat-swapped pairs."""
    n = len(games.names)
    if n < 2:
        raise ValueError(BAD_FIELD)
    if not 0 <= epsilon < 0.5:
        raise ValueError(BAD_EPSILON)
    payoff = payoff_matrix(games.score_matrix())
    nash = nash_equilibrium(payoff)
    relaxed = relaxed_equilibrium(payoff, epsilon)
    matrices = np.array(list(_resampled_payoffs(games, resamples, seed))).reshape(-1, n, n)
    nash_runs = list(nash_equilibria(matrices))
    relaxed_runs = list(relaxed_equilibria(matrices, epsilon))
    widths = []
    for mg in games.matchups.values():
        m = Moments.of((mg.wins[k], c) for k, c in mg.games.items())
        interval = cluster_rate(m)
        widths.append((interval["high"] - interval["low"]) / 2)
    return MetaReport(
        names=tuple(games.names),
        field_rates=tuple(games.field_rate(d) for d in range(n)),
        nash=_equilibrium(nash, nash_runs), relaxed=_equilibrium(relaxed, relaxed_runs),
        epsilon=epsilon, resamples=resamples,
        matchup_half_width=float(np.median(widths)) if widths else 0.0)


def _equilibrium(shares: Floats, runs: list[Floats]) -> Equilibrium:
    n = len(shares)
    if runs:
        played = tuple(float(np.mean([r[d] >= PLAYED_SHARE for r in runs])) for d in range(n))
        ratios = [entropy_ratio(r) for r in runs]
        low, high = (float(q) for q in np.quantile(ratios, [0.025, 0.975]))
    else:
        played = tuple(float(s >= PLAYED_SHARE) for s in shares)
        low = high = entropy_ratio(shares)
    return Equilibrium(tuple(float(s) for s in shares), entropy_ratio(shares), played, low, high)


def _resampled_payoffs(games: Field, resamples: int, seed: int) -> Iterator[Floats]:
    """Payoff matrices of the field's games resampled by cluster (bootstrap), one per resample."""
    if resamples <= 0 or not games.matchups:
        return
    rng = np.random.default_rng(seed)
    n = len(games.names)
    items = list(games.matchups.items())
    if games.shared_seeds:
        keys = sorted({k for _, mg in items for k in mg.games}, key=repr)
        draws = rng.multinomial(len(keys), np.full(len(keys), 1 / len(keys)), size=resamples)
        columns = {k: c for c, k in enumerate(keys)}
        per_matchup = [draws[:, [columns[k] for k in mg.games]] for _, mg in items]
    else:
        per_matchup = []
        for _, mg in items:
            size = len(mg.games)
            per_matchup.append(rng.multinomial(size, np.full(size, 1 / size), size=resamples))
    scores = np.zeros((resamples, n, n))
    for ((i, j), mg), counts in zip(items, per_matchup, strict=True):
        keys = list(mg.games)
        spread = mg.spread_draws
        won = np.array([mg.wins[k] for k in keys], dtype=float)
        drawn = np.array([mg.draws[k] for k in keys], dtype=float)
        counted = np.array([mg.games[k] for k in keys], dtype=float)
        total = counts @ counted
        score = (counts @ (won + (drawn + spread * counted) / 2)) / np.where(total > 0, total, 1)
        half = np.where(total > 0, score - 0.5, 0.0)
        scores[:, i, j] = half
        scores[:, j, i] = -half
    yield from scores


# --- reading ----------------------------------------------------------------------------------

def _mix(names: Sequence[str], shares: Sequence[float]) -> str:
    order = sorted(range(len(names)), key=lambda d: -shares[d])
    return ", ".join(f"{names[d]} {shares[d] * 100:.0f} %" for d in order
                     if shares[d] >= PLAYED_SHARE)


def describe(report: Mapping[str, Any]) -> str:
    """One paragraph: who a field that adapts would play, what the relaxation changes and what
    the games cannot tell apart."""
    names = report["decks"]
    nash, relaxed = report["nash"], report["relaxed"]
    unplayed = [names[d] for d, s in enumerate(nash["shares"]) if s < PLAYED_SHARE]
    eps_points = report["epsilon"] * 100
    text = f"A field that adapts would play {_mix(names, nash['shares'])}"
    text += (f" (entropy {nash['entropy_ratio']:.2f} of the maximum). " if not unplayed else
             f"; {', '.join(unplayed)} would not be played (entropy "
             f"{nash['entropy_ratio']:.2f} of the maximum). ")
    rarest = min(range(len(names)), key=lambda d: relaxed["shares"][d])
    text += (f"Allowing {eps_points:g} point{'s' if eps_points != 1 else ''} of win rate, "
             f"the most even field plays {_mix(names, relaxed['shares'])} (entropy "
             f"{relaxed['entropy_ratio']:.2f}); {names[rarest]} still only "
             f"{relaxed['shares'][rarest] * 100:.0f} %. ")
    unsure = [names[d] for d, p in enumerate(nash["played"]) if 0.05 <= p <= 0.95]
    if report["resamples"]:
        text += (f"Resampling the games {report['resamples']} times, the exact equilibrium's "
                 f"entropy lies in {nash['entropy_low']:.2f}–{nash['entropy_high']:.2f}")
        text += (f" and the games cannot tell whether {', '.join(unsure)} would be played."
                 if unsure else "; the games tell clearly which decks it plays.")
    return text
