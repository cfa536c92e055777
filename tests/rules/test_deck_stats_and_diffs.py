"""Builder statistics and version diffs (pure functions)."""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.diffs import Change, card_changes, compare_counts
from rules.decks.stats import deck_stats, p_at_least_one, sample_hand

CARDS = load_card_set(TEST_SET).cards


def apply_changes(old: dict[str, int], changes: list[Change]) -> dict[str, int]:
    """``old`` with each change's delta added (a count that reaches 0 leaves the list)."""
    out = dict(old)
    for change in changes:
        out[change.code] = out.get(change.code, 0) + change.delta
        if out[change.code] == 0:
            del out[change.code]
    return out


def test_opening_hand_odds_are_hypergeometric():
    # 3 copies in 30 cards, 10 drawn: 1 - C(27,10)/C(30,10)
    assert p_at_least_one(30, 3) == pytest.approx(1 - comb(27, 10) / comb(30, 10))
    assert p_at_least_one(30, 3) == pytest.approx(0.7192, abs=1e-4)
    assert p_at_least_one(30, 1) == pytest.approx(1 / 3)
    assert p_at_least_one(8, 1) == 1.0          # a small deck is drawn whole
    assert p_at_least_one(0, 3) == 0.0 and p_at_least_one(30, 0) == 0.0


def test_curve_kinds_and_attributes():
    stats = deck_stats({"T-M01": 3, "T-M12": 1, "T-I01": 2, "T-I06": 1, "NOPE": 2}, CARDS)
    assert stats.size == 9
    assert dict(stats.curve) == {"0": 1, "1": 3, "2": 2, "3": 0, "4": 0, "5": 1, "6": 0,
                                 "7+": 0}
    assert stats.kinds == [("minion", 4), ("item", 3)]
    assert stats.attributes == [("fire", 3), ("dark", 1)]
    assert stats.average_cost == pytest.approx((3 + 5 + 4 + 0) / 7, abs=0.01)
    assert stats.curve_max == 3
    assert all(p == 1.0 for _, _, p in stats.odds)   # 9 cards: the opening hand is all of them


def test_a_sample_hand_is_ten_cards_of_the_deck_and_the_seed_repeats_it():
    counts = {"T-M01": 3, "T-M02": 3, "T-I01": 24}
    hand = sample_hand(counts, seed=7)
    assert len(hand) == 10 and hand == sample_hand(counts, seed=7)
    assert all(hand.count(c) <= n for c, n in counts.items())
    assert sample_hand({"T-M01": 2}, seed=1) == ["T-M01", "T-M01"]


counts = st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.integers(1, 5))


@given(old=counts, new=counts)
def test_applying_the_changes_gives_the_new_deck(old, new):
    changes = card_changes(old, new)
    assert apply_changes(old, changes) == new
    assert all(c.delta for c in changes)


@given(a=counts, b=counts)
def test_comparison_counts_add_up(a, b):
    result = compare_counts(a, b)
    assert result.shared + result.only_a == sum(a.values())
    assert result.shared + result.only_b == sum(b.values())
