"""Skill corrections shrunk toward zero by their noise (``rules.lab.balance_search.shrink``,
empirical Bayes after Efron and Morris): one measured on few games shrinks more than one on
many, a noiseless one is unchanged, and a field of
mostly noise shrinks."""

from __future__ import annotations

import math
import random

import pytest

from rules.lab.balance_search import Tally
from rules.lab.balance_search.evaluate import BLOCK
from rules.lab.balance_search.shrink import (
    binomial_noise,
    paired_noise,
    pooled_block_variance,
    shrink,
    shrink_factor,
    signal_variance,
)


def _block(rng: random.Random, log_odds: float) -> Tally:
    p = 1 / (1 + math.exp(-log_odds))
    wins = sum(rng.random() < p for _ in range(BLOCK))
    return Tally(wins=wins, losses=BLOCK - wins)


def _blocks(rng: random.Random, log_odds: float, count: int) -> list[Tally]:
    return [_block(rng, log_odds) for _ in range(count)]


def test_a_noiseless_correction_is_unchanged():
    assert shrink_factor(0.04, 0.0) == 1.0
    assert shrink({"lever": {(0, 1): -0.3}, "other": {(0, 2): 0.1}},
                  {"lever": {(0, 1): 0.0}, "other": {(0, 2): 0.0}}) == {
        "lever": {(0, 1): -0.3}, "other": {(0, 2): 0.1}}
    # deterministic blocks (every block alike) measure no noise at all
    same = [Tally(wins=30, losses=20)] * 4
    base = [Tally(wins=25, losses=25)] * 4
    assert paired_noise({"m": {(0, 1): (same, base)}}) == {"m": {(0, 1): 0.0}}


def test_the_factor_is_signal_over_signal_plus_noise():
    assert shrink_factor(0.03, 0.01) == pytest.approx(0.75)
    assert shrink_factor(0.0, 0.01) == 0.0
    assert signal_variance([(0.3, 0.01), (0.1, 0.01)]) == pytest.approx((0.09 + 0.01) / 2 - 0.01)
    assert signal_variance([(0.01, 0.05)]) == 0.0        # spread below its noise: none


def test_a_correction_on_few_games_shrinks_more_than_one_on_many():
    rng = random.Random(5)
    base_few, base_many = _blocks(rng, 0.0, 2), _blocks(rng, 0.0, 16)
    pairs = {"few": {(0, 1): (_blocks(rng, 0.4, 2), base_few)},
             "many": {(0, 1): (_blocks(rng, 0.4, 16), base_many)}}
    noise = paired_noise(pairs)
    assert noise["few"][(0, 1)] == pytest.approx(8 * noise["many"][(0, 1)])
    # the same measured correction on both, beside others that spread it
    estimates = {"few": {(0, 1): 0.4}, "many": {(0, 1): 0.4}}
    shrunk = shrink(estimates, noise)
    assert 0 < shrunk["few"][(0, 1)] < shrunk["many"][(0, 1)] < 0.4


def test_without_two_blocks_the_binomial_bound_stands_in_and_more_games_shrink_less():
    one = Tally(wins=30, losses=20)
    base = Tally(wins=25, losses=25)
    assert pooled_block_variance([([one], [base])]) is None
    noise = paired_noise({"m": {(0, 1): ([one], [base])}})
    assert noise["m"][(0, 1)] == pytest.approx(binomial_noise(one, base))
    more = binomial_noise(Tally(wins=300, losses=200), Tally(wins=250, losses=250))
    assert more == pytest.approx(binomial_noise(one, base) / 10, rel=0.05)


def test_pure_noise_shrinks_toward_nothing_and_a_real_lever_survives_it():
    rng = random.Random(11)
    pairs, estimates = {}, {}
    for move in range(40):
        truth = -0.6 if move == 0 else 0.0
        moved, base = _blocks(rng, truth, 4), _blocks(rng, 0.0, 4)
        pairs[move] = {(0, 1): (moved, base)}
        total_m = sum(t.wins for t in moved) / (4 * BLOCK)
        total_b = sum(t.wins for t in base) / (4 * BLOCK)
        estimates[move] = {(0, 1): math.log(total_m / (1 - total_m))
                           - math.log(total_b / (1 - total_b))}
    shrunk = shrink(estimates, paired_noise(pairs))
    raw_noise = sum(abs(estimates[m][(0, 1)]) for m in range(1, 40)) / 39
    kept_noise = sum(abs(shrunk[m][(0, 1)]) for m in range(1, 40)) / 39
    assert kept_noise < raw_noise / 2
    # the lever keeps its sign, shrunk by the factor every estimate of its precision takes
    assert shrunk[0][(0, 1)] < 0
    factor = shrunk[0][(0, 1)] / estimates[0][(0, 1)]
    assert 0 < factor < 1
    assert shrunk[7][(0, 1)] == pytest.approx(estimates[7][(0, 1)] * factor)
