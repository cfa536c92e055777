"""Forecasts of one field on several seeds (rules.lab.forecast.paths): seeds whose settled
figures differ by more than their intervals' combined margin disagree, and the spread says how
far apart their metas are; figures within it agree."""

from __future__ import annotations

import pytest

from rules.lab.forecast.paths import compare_paths


def figure(rate: float, margin: float = 0.03) -> dict:
    return {"rate": rate, "low": rate - margin, "high": rate + margin, "games": 2000}


def forecast(seed: int, rates: list[float], stopped: str = "settled") -> dict:
    names = ["Dawn Crusade", "Tidewall"]
    return {"seed": seed, "stopped": stopped, "rounds": [{}, {}, {}], "games": {"total": 900},
            "exploitability": None,
            "final": {"decks": [{"name": n} for n in names],
                      "field": [figure(r) for r in rates],
                      "relaxed": {"shares": [0.5, 0.5]}}}


def test_seeds_that_settle_in_other_metas_disagree_and_say_how_far_apart():
    # Dawn Crusade at 57.6 % on one seed and 23.3 % on another, each about ±3 points
    out = compare_paths([forecast(1, [0.576, 0.424]), forecast(2, [0.233, 0.767], "rounds")])
    dawn, tide = out["archetypes"]
    assert not dawn["consistent"] and not tide["consistent"] and not out["agree"]
    assert dawn["low"] == 0.233 and dawn["high"] == 0.576
    assert dawn["spread"] == pytest.approx(0.343)
    assert out["seeds"] == [1, 2] and not out["settled"]
    assert [p["rounds"] for p in out["paths"]] == [2, 2]


def test_seeds_within_their_intervals_agree():
    # 2 points apart, each ±3: the difference is within √(3² + 3²) ≈ 4.2 points
    out = compare_paths([forecast(1, [0.50, 0.50]), forecast(2, [0.52, 0.48])])
    assert out["agree"] and out["settled"]
    # 5 points apart is not: one archetype is enough to disagree
    apart = compare_paths([forecast(1, [0.50, 0.50]), forecast(2, [0.55, 0.50])])
    assert [a["consistent"] for a in apart["archetypes"]] == [False, True]
    assert not apart["agree"]


def test_forecasts_of_other_fields_are_not_compared():
    other = forecast(2, [0.5, 0.5])
    other["final"]["decks"] = [{"name": "Tidewall"}, {"name": "Dawn Crusade"}]
    with pytest.raises(ValueError, match="different fields"):
        compare_paths([forecast(1, [0.5, 0.5]), other])
