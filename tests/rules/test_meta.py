"""The meta of a field: equilibria of the deck-choice game, checked against independent
solvers on games whose answers are known, and the resampled uncertainty."""

import math
import re

import numpy as np
import pytest
from scipy.optimize import linprog, minimize

from rules.lab.meta import (
    BAD_EPSILON,
    BAD_FIELD,
    BAD_MATRIX,
    PLAYED_SHARE,
    Field,
    MatchupGames,
    describe,
    entropy_ratio,
    meta_report,
    nash_equilibria,
    nash_equilibrium,
    payoff_matrix,
    relaxed_equilibria,
    relaxed_equilibrium,
)


def exploitability(payoff, shares) -> float:
    """How much above even the best deck does against the mix (0 for an exact equilibrium)."""
    return float(np.max(np.asarray(payoff) @ np.asarray(shares)))


ROCK_PAPER_SCISSORS = np.array([[0, 1, -1], [-1, 0, 1], [1, -1, 0]]) * 0.25


def textbook_nash(payoff):
    """The classic formulation of a zero-sum matrix game (von Neumann): maximise the value v
    with every column's payoff to the row player at least v — by HiGHS' interior point, a
    different algorithm from the module's dual simplex."""
    n = len(payoff)
    cost = np.concatenate([np.zeros(n), [-1.0]])
    upper = np.hstack([-payoff.T, np.ones((n, 1))])        # v − (Aᵀx)_j ≤ 0
    equal = np.concatenate([np.ones(n), [0.0]])[None, :]
    done = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0],
                   bounds=[(0, None)] * n + [(None, None)], method="highs-ipm")
    return done.x[:n], done.x[-1]


def dual_max_entropy(payoff, epsilon):
    """The maximum-entropy ε-equilibrium by its dual (an exponential family), L-BFGS-B."""
    n = len(payoff)

    def dual(lam):
        z = -(payoff.T @ lam)
        top = z.max()
        w = np.exp(z - top)
        return top + math.log(w.sum()) + epsilon * lam.sum(), -(payoff @ (w / w.sum())) + epsilon

    done = minimize(dual, np.zeros(n), jac=True, method="L-BFGS-B", bounds=[(0, None)] * n,
                    options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 5000})
    z = -(payoff.T @ done.x)
    x = np.exp(z - z.max())
    return x / x.sum()


def random_field(seed, n=6, spread=0.1):
    m = np.random.default_rng(seed).normal(0, spread, (n, n))
    return (m - m.T) / 2


def test_rock_paper_scissors_is_played_evenly():
    assert nash_equilibrium(ROCK_PAPER_SCISSORS) == pytest.approx([1 / 3] * 3)
    assert relaxed_equilibrium(ROCK_PAPER_SCISSORS, 0.005) == pytest.approx([1 / 3] * 3)
    assert entropy_ratio(nash_equilibrium(ROCK_PAPER_SCISSORS)) == pytest.approx(1.0)


def test_a_dominated_deck_is_not_played():
    """Deck 3 loses to every other deck: no equilibrium plays it; relaxing by ε lets a field
    give it a little, and exactly as much as ε allows."""
    payoff = np.array([[0, 0.1, -0.1, 0.2], [-0.1, 0, 0.1, 0.2], [0.1, -0.1, 0, 0.2],
                       [-0.2, -0.2, -0.2, 0]])
    shares = nash_equilibrium(payoff)
    assert shares[3] == 0
    assert shares[:3] == pytest.approx([1 / 3] * 3)
    relaxed = relaxed_equilibrium(payoff, 0.02)
    assert 0 < relaxed[3] < relaxed[0]
    assert exploitability(payoff, relaxed) == pytest.approx(0.02, abs=1e-7)


def test_a_flat_field_is_played_evenly_where_any_mix_is_an_equilibrium():
    flat = np.zeros((5, 5))
    assert nash_equilibrium(flat) == pytest.approx([0.2] * 5)
    assert relaxed_equilibrium(flat) == pytest.approx([0.2] * 5)


@pytest.mark.parametrize("seed", range(8))
def test_nash_agrees_with_the_textbook_linear_programme(seed):
    payoff = random_field(seed)
    ours = nash_equilibrium(payoff)
    theirs, value = textbook_nash(payoff)
    assert value == pytest.approx(0, abs=1e-7)            # a symmetric zero-sum game is fair
    assert ours == pytest.approx(theirs, abs=1e-6)        # generic games: one equilibrium
    assert exploitability(payoff, ours) <= 1e-9


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("epsilon", [0.005, 0.01, 0.03])
def test_max_entropy_agrees_with_its_dual(seed, epsilon):
    payoff = random_field(seed)
    ours = relaxed_equilibrium(payoff, epsilon)
    assert ours == pytest.approx(dual_max_entropy(payoff, epsilon), abs=1e-5)
    assert exploitability(payoff, ours) <= epsilon + 1e-7
    # more slack never makes the field less even
    assert entropy_ratio(relaxed_equilibrium(payoff, epsilon * 2)) >= entropy_ratio(ours) - 1e-9
    assert entropy_ratio(ours) >= entropy_ratio(nash_equilibrium(payoff)) - 1e-9


def test_a_stack_of_fields_is_solved_as_each_alone():
    """The resamples' equilibria come from one programme for the whole stack: each field's
    shares are those it gets alone (the known games among them, and fields of every size)."""
    dominated = np.array([[0, 0.1, -0.1, 0.2], [-0.1, 0, 0.1, 0.2], [0.1, -0.1, 0, 0.2],
                          [-0.2, -0.2, -0.2, 0]])
    for fields in ([ROCK_PAPER_SCISSORS, np.zeros((3, 3))]
                   + [random_field(seed, n=3, spread=0.2) for seed in range(20)],
                   [dominated] + [random_field(seed, n=4) for seed in range(20)],
                   [random_field(seed, n=8, spread=0.03) for seed in range(20)]):
        stack = np.array(fields)
        assert nash_equilibria(stack) == pytest.approx(
            np.array([nash_equilibrium(a) for a in stack]), abs=1e-7)
        for epsilon in (0, 0.005, 0.03):
            together = relaxed_equilibria(stack, epsilon)
            assert together == pytest.approx(
                np.array([relaxed_equilibrium(a, epsilon) for a in stack]), abs=1e-5)
            assert together.sum(axis=1) == pytest.approx(np.ones(len(stack)))
            assert max(exploitability(a, x) for a, x in zip(stack, together,
                                                           strict=True)) <= epsilon + 1e-7
    with pytest.raises(ValueError, match=re.escape(BAD_MATRIX)):
        nash_equilibria(np.array([ROCK_PAPER_SCISSORS, np.ones((3, 3))]))


def test_bad_input_is_refused_with_its_message():
    with pytest.raises(ValueError, match=re.escape(BAD_MATRIX)):
        nash_equilibrium(np.array([[0, 0.1], [0.1, 0]]))
    with pytest.raises(ValueError, match=re.escape(BAD_FIELD)):
        nash_equilibrium(np.zeros((1, 1)))
    with pytest.raises(ValueError, match=re.escape(BAD_EPSILON)):
        relaxed_equilibrium(ROCK_PAPER_SCISSORS, 0.7)


def test_payoff_is_antisymmetric_whichever_side_was_measured():
    score = [[None, 0.6, 0.3], [0.4, None, None], [0.7, 0.55, None]]
    payoff = payoff_matrix(score)
    assert payoff == pytest.approx(-payoff.T)
    assert payoff[0][1] == pytest.approx(0.1)
    assert payoff[1][2] == pytest.approx(-0.05)           # only (2, 1) was measured


def field_of(rates, pairs, *, shared=False, seed=3):
    """Games drawn for a field with the given true win rates (pairs of independent games)."""
    rng = np.random.default_rng(seed)
    n = len(rates)
    matchups = {}
    for i in range(n):
        for j in range(i + 1, n):
            games = MatchupGames()
            for k in range(pairs):
                games.add(k, won=int(rng.binomial(2, rates[i][j])), drawn=0, counted=2)
            matchups[i, j] = games
    return Field([f"deck {d}" for d in range(n)], matchups, shared_seeds=shared)


RPS_RATES = [[None, 0.75, 0.25], [0.25, None, 0.75], [0.75, 0.25, None]]


def test_report_on_a_clear_field_plays_every_deck_in_every_resample():
    report = meta_report(field_of(RPS_RATES, 500), resamples=100, seed=1)
    assert report.nash.shares == pytest.approx([1 / 3] * 3, abs=0.05)
    assert report.nash.played == (1.0, 1.0, 1.0)
    assert report.nash.entropy_low <= report.nash.entropy_ratio <= report.nash.entropy_high
    assert report.field_rates[0]["rate"] == pytest.approx(0.5, abs=0.05)
    assert report.field_rates[0]["games"] == 2000          # two matchups × 500 pairs × 2


def test_report_says_when_the_games_cannot_tell_a_deck_apart():
    """Deck 3 is a hair worse than the others (49.5 % against each): with 50 pairs a matchup
    the resampled equilibria sometimes play it and sometimes not."""
    rates = [[None, 0.5, 0.5, 0.505], [0.5, None, 0.5, 0.505], [0.5, 0.5, None, 0.505],
             [0.495, 0.495, 0.495, None]]
    report = meta_report(field_of(rates, 50), resamples=200, seed=2)
    assert 0.05 < report.nash.played[3] < 0.95
    assert "cannot tell whether" in describe(report.to_dict())


def test_field_rate_clusters_on_shared_seeds():
    """On shared seeds a pair index is one cluster across the field: a deck's field rate
    counts every game but has as many clusters as pair indices."""
    games = field_of(RPS_RATES, 200, shared=True)
    rate = games.field_rate(0)
    assert rate["games"] == 800 and rate["pairs"] == 200
    apart = Field(games.names, games.matchups, shared_seeds=False).field_rate(0)
    assert apart["pairs"] == 400 and apart["rate"] == rate["rate"]


def test_counts_alone_give_the_same_totals_as_pairs():
    """A balance search keeps only how many pairs a deck won 0, 1 or 2 games of; the meta
    built from those counts keeps every total, draws included."""
    games = MatchupGames.from_pairs((10, 30, 60), single_wins=1, single_games=3, draws=4)
    wins, draws, counted = games.totals()
    assert (wins, counted) == (30 + 120 + 1, 203)
    assert draws == pytest.approx(4)


def test_resampling_is_deterministic_by_seed():
    games = field_of(RPS_RATES, 100)
    one = meta_report(games, resamples=50, seed=5).to_dict()
    assert one == meta_report(games, resamples=50, seed=5).to_dict()
    assert one["played_share"] == PLAYED_SHARE
