"""Pair-aware intervals, each checked against an independent computation (statsmodels, scipy).

Both games of a seat-swapped pair share a seed, so the pair is the independent unit: the
variance of a rate is the cluster-robust one of an intercept-only regression clustered by pair.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from scipy import stats as sp
from statsmodels.regression.linear_model import OLS
from statsmodels.stats.proportion import proportion_confint

from rules.lab.intervals import (
    Moments,
    cluster_rate,
    cluster_variance,
    design_effect,
    mcnemar_exact,
    paired_difference,
    wilson_interval,
)
from rules.lab.stats import MatchStats


def correlated_pairs(count: int, rate: float, rho: float, seed: int) -> list[tuple[int, int]]:
    """Pairs of games (wins of deck A in each), correlated within the pair."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        first = rng.random() < rate
        second = first if rng.random() < rho else rng.random() < rate
        out.append((int(first), int(second)))
    return out


def statsmodels_cluster_variance(games: list[int], groups: list[int]) -> float:
    """Variance of the mean from OLS on a constant, cluster-robust by pair (CR1 with only the
    G/(G−1) factor, as rules.lab.intervals uses)."""
    y = np.array(games, dtype=float)
    fit = OLS(y, np.ones((len(y), 1))).fit(cov_type="cluster", cov_kwds={
        "groups": np.array(groups), "use_correction": False})
    g = len(set(groups))
    return float(fit.cov_params()[0, 0]) * g / (g - 1)


@pytest.mark.parametrize("rate, rho, seed", [(0.5, 0.55, 1), (0.7, 0.3, 2), (0.2, 0.8, 3),
                                             (0.5, 0.0, 4)])
def test_the_pair_variance_is_statsmodels_cluster_robust_variance(rate, rho, seed):
    pairs = correlated_pairs(150, rate, rho, seed)
    games = [w for pair in pairs for w in pair]
    groups = [i for i, _ in enumerate(pairs) for _ in range(2)]
    moments = Moments.of((a + b, 2) for a, b in pairs)
    assert cluster_variance(moments) == pytest.approx(
        statsmodels_cluster_variance(games, groups), rel=1e-9)


def test_the_interval_is_wilson_on_the_effective_games():
    pairs = correlated_pairs(200, 0.6, 0.55, 7)
    moments = Moments.of((a + b, 2) for a, b in pairs)
    figure = cluster_rate(moments)
    effective = 400 / design_effect(moments)
    low, high = proportion_confint(figure["rate"] * effective, effective, alpha=0.05,
                                   method="wilson")
    assert (figure["low"], figure["high"]) == (pytest.approx(low), pytest.approx(high))
    assert figure["games"] == 400 and figure["pairs"] == 200
    assert design_effect(moments) > 1.3    # correlated pairs: fewer effective games
    assert figure["effective_games"] == pytest.approx(effective, abs=0.01)


def test_without_correlation_it_is_about_the_games_own_wilson_interval():
    pairs = correlated_pairs(2000, 0.5, 0.0, 11)
    figure = cluster_rate(Moments.of((a + b, 2) for a, b in pairs))
    wins = sum(a + b for a, b in pairs)
    low, high = proportion_confint(wins, 4000, method="wilson")
    assert figure["low"] == pytest.approx(low, abs=0.004)
    assert figure["high"] == pytest.approx(high, abs=0.004)


def test_all_won_is_as_wide_as_wilson_on_the_pairs():
    figure = cluster_rate(Moments.of([(2, 2)] * 30))
    low, high = proportion_confint(30, 30, method="wilson")
    assert figure["rate"] == 1.0
    assert (figure["low"], figure["high"]) == (pytest.approx(low), pytest.approx(high))


def test_wilson_matches_statsmodels():
    for wins, n in ((0, 10), (3, 10), (50, 100), (99, 100), (400, 1000)):
        low, high = proportion_confint(wins, n, method="wilson")
        assert wilson_interval(wins, n) == (pytest.approx(low), pytest.approx(high))


def test_match_stats_keeps_the_pair_sums_of_its_games():
    """Games added in order, A first in the even game: the moments are those of the pairs."""
    pairs = correlated_pairs(40, 0.55, 0.5, 5)
    stats = MatchStats()
    for first, second in pairs:
        stats.add_game(winner="a" if first else "b", a_first=True, turns=5)
        stats.add_game(winner="a" if second else "b", a_first=False, turns=5)
    assert stats.pairs["a"] == Moments.of((a + b, 2) for a, b in pairs)
    assert stats.to_dict()["win_rate"] == cluster_rate(stats.pairs["a"])
    assert stats.to_dict()["win_rate"]["method"] == "pairs"


def test_chunks_merge_to_the_whole_runs_pair_sums():
    pairs = correlated_pairs(30, 0.4, 0.6, 9)
    whole, parts = MatchStats(), [MatchStats() for _ in range(3)]
    for i, (first, second) in enumerate(pairs):
        for stats in (whole, parts[i // 10]):
            stats.add_game(winner="a" if first else None, a_first=True, turns=4)
            stats.add_game(winner="b" if not second else "a", a_first=False, turns=4)
    merged = parts[0].merge(parts[1]).merge(MatchStats.from_counts(parts[2].counts()))
    assert merged.pairs["a"].to_list() == pytest.approx(whole.pairs["a"].to_list())
    assert merged.pairs["b"].to_list() == pytest.approx(whole.pairs["b"].to_list())


def test_an_errored_game_leaves_its_pair_with_one_counted_game():
    stats = MatchStats()
    stats.add_game(winner="a", a_first=True, turns=3)
    stats.add_game(winner=None, a_first=False, turns=0, error="boom", seed=1)
    stats.add_game(winner="b", a_first=True, turns=3)
    stats.add_game(winner="b", a_first=False, turns=3)
    assert stats.pairs["a"] == Moments.of([(1, 1), (0, 2)])


def test_paired_difference_is_the_cluster_robust_mean_of_the_differences():
    rng = random.Random(3)
    rows = []
    for _ in range(200):
        before = [rng.random() < 0.5 for _ in range(2)]
        after = [b or rng.random() < 0.1 for b in before]
        rows.append((sum(before), sum(after), 2))
    figure = paired_difference(rows)
    diffs = []
    groups = []
    for i, _ in enumerate(rows):
        groups += [i, i]
    rng = random.Random(3)
    for _ in range(200):
        before = [rng.random() < 0.5 for _ in range(2)]
        after = [b or rng.random() < 0.1 for b in before]
        diffs += [int(a) - int(b) for a, b in zip(after, before, strict=True)]
    se = statsmodels_cluster_variance(diffs, groups) ** 0.5
    mean = float(np.mean(diffs))
    assert figure["change"] == pytest.approx(mean)
    assert figure["low"] == pytest.approx(mean - 1.959963984540054 * se)
    assert figure["high"] == pytest.approx(mean + 1.959963984540054 * se)


@pytest.mark.parametrize("gained, lost", [(70, 30), (5, 5), (0, 9), (1, 0), (400, 350),
                                          (0, 0)])
def test_mcnemar_is_scipys_exact_binomial_test(gained, lost):
    expected = 1.0 if gained + lost == 0 else sp.binomtest(gained, gained + lost, 0.5).pvalue
    assert mcnemar_exact(gained, lost) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("condition", ["drawn", "opening", "played", "awakened"])
def test_per_card_figures_are_computed_on_pairs(condition):
    """The deck's win rate when a card was drawn, kept in the opening hand, played or
    awakened: the games where that happened, clustered by seat-swapped pair, against
    statsmodels' cluster-robust variance of the same games (built here from each game's
    usage, not from the tables under test)."""
    from rules.ai.agents import make_agent
    from rules.decks.cardset import TEST_SET, load_card_set
    from rules.lab.card_figures import CONDITIONS
    from rules.lab.match import game_seed, play_game

    card_set = load_card_set(TEST_SET)
    dawn, dusk = card_set.deck("Dawn Test"), card_set.deck("Dusk Test")
    agents = make_agent("greedy"), make_agent("random")
    stats = MatchStats()
    seen: dict[str, tuple[list[int], list[int]]] = {}
    usage_index = {"played": 0, "awakened": 1, "drawn": 2, "opening": 3}
    assert set(usage_index) == set(CONDITIONS)
    for game in range(80):
        result = play_game(card_set.cards, dawn, dusk, seed=game_seed(11, game),
                           a_first=game % 2 == 0, agent_a=agents[0], agent_b=agents[1])
        stats.add_game(winner=result.winner, a_first=game % 2 == 0, turns=result.turns,
                       error=result.error, seed=result.seed, usage=result.usage)
        if result.usage is not None:
            for code, times in result.usage[0][usage_index[condition]].items():
                assert times > 0
                wins, groups = seen.setdefault(code, ([], []))
                wins.append(int(result.winner == "a"))
                groups.append(game // 2)
    figures = {row["code"]: row["when"][condition] for row in stats.card_figures("a")}
    assert {code for code, figure in figures.items() if figure["games"]} == set(seen)
    checked = 0
    for code, (wins, groups) in seen.items():
        figure = figures[code]
        assert figure["games"] == len(wins) and figure["wins"] == sum(wins)
        assert figure["pairs"] == len(set(groups)) and figure["method"] == "pairs"
        if len(set(groups)) > 2 and 0 < sum(wins) < len(wins):
            moments = Moments.of(
                (sum(w for w, g in zip(wins, groups, strict=True) if g == k),
                 groups.count(k)) for k in sorted(set(groups)))
            assert cluster_variance(moments) == pytest.approx(
                statsmodels_cluster_variance(wins, groups), rel=1e-9)
            assert (figure["low"], figure["high"]) == (cluster_rate(moments)["low"],
                                                       cluster_rate(moments)["high"])
            checked += 1
    assert checked >= 3


def test_per_card_rows_of_older_runs_still_read_and_merge():
    """Rows stored before drawing, the opening hand and awakening were counted per game
    (games played in, times played, times awakened, wins when played[, pair moments])."""
    old = MatchStats.from_counts({"games": 4, "wins": 2, "losses": 2, "cards": {
        "a": {"C1": [3, 5, 1, 2]}, "b": {}}, "pairs": None})
    row = old.card_figures("a")[0]
    assert (row["games_played_in"], row["times_played"], row["times_awakened"],
            row["wins_when_played"]) == (3, 5, 1, 2)
    assert row["method"] == "games" and row["when"]["drawn"]["games"] == 0
    merged = old.merge(old)
    assert merged.card_figures("a")[0]["when"]["played"]["games"] == 6


def test_the_calibration_command_prints_coverage(capsys):
    from rules.decks.cardset import TEST_SET
    from rules.lab.calibrate import main

    assert main(["--deck-a", "Dawn Test", "--deck-b", "Dusk Test", "--games", "20", "--runs",
                 "4", "--reference", "40", "--agent", "random", "--set", str(TEST_SET)]) == 0
    text = capsys.readouterr().out
    assert "4 runs of 20 games, reference 40 games" in text
    assert "pair-aware 95 % interval covered it in" in text and "plain Wilson" in text


def test_a_weighted_field_counts_every_game_it_played():
    """Pairs weighted by play shares (share × opponents) add up to the games played: 400
    games against each of six opponents are 2,400, though the weights' floating-point sum
    falls a hair short (the forecast's exploitability once read "2,399 games", taken then for
    a game the engine could not finish)."""
    raw = (0.181, 0.031, 0.029, 0.029, 0.686, 0.045)
    factors = [share / sum(raw) * len(raw) for share in raw]
    m = Moments()
    for factor in factors:
        for _ in range(200):                     # 200 seat-swapped pairs, one won in each
            m.add_cluster(factor * 1, factor * 2)
    assert m.n < 2400                            # the hair
    assert cluster_rate(m)["games"] == 2400
    rows = [(f * 1, f * 2, f * 2) for f in factors for _ in range(200)]
    assert paired_difference(rows)["games"] == 2400
