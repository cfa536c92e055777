"""Every numeric ruleset option has an upper bound a designer would accept (R6.6): a value
within it plays, one above it is refused with the bound named."""

from __future__ import annotations

import pytest

from rules.engine.cards import RULESET_BOUNDS, CardDataError, Ruleset


@pytest.mark.parametrize("name", sorted(RULESET_BOUNDS))
def test_r6_6_every_numeric_option_has_an_upper_bound(name):
    """Rule: R6.6 — a numeric option above its bound is refused, naming the bound."""
    low, high = RULESET_BOUNDS[name]
    assert Ruleset.from_dict({name: high}).to_dict()[name] == high
    with pytest.raises(CardDataError) as refused:
        Ruleset.from_dict({name: high + 1})
    assert str(high) in str(refused.value.problems[0].params) + str(refused.value.problems[0])


def test_r6_6_the_bounds_cover_every_numeric_option():
    """Rule: R6.6 — no numeric option of a ruleset is left without a bound."""
    numeric = {k for k, v in Ruleset().to_dict().items()
               if isinstance(v, int) and not isinstance(v, bool)}
    assert numeric == set(RULESET_BOUNDS)
