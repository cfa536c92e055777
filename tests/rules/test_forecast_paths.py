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


def test_the_paths_lists_share_the_changes_every_seed_made_at_the_fewest_copies():
    # Dawn Crusade: both seeds cut two Footmen and bring in Archons, two and one; only the
    # first seed cuts the Warden and brings in a Jester
    one = forecast(1, [0.5, 0.5])
    two = forecast(2, [0.5, 0.5])
    one["final"]["decks"][0]["diff"] = [{"card": "C062", "copies": -2},
                                        {"card": "C063", "copies": -1},
                                        {"card": "C110", "copies": 2},
                                        {"card": "C101", "copies": 1}]
    two["final"]["decks"][0]["diff"] = [{"card": "C062", "copies": -3},
                                        {"card": "C110", "copies": 1},
                                        {"card": "C090", "copies": 2}]
    one["final"]["decks"][1]["diff"] = two["final"]["decks"][1]["diff"] = []
    out = compare_paths([one, two])
    dawn, tide = (a["lists"] for a in out["archetypes"])
    assert dawn == {"brought_in": [3, 3], "shared": 1,
                    "common": [{"card": "C062", "copies": -2}, {"card": "C110", "copies": 1}]}
    assert tide == {"brought_in": [0, 0], "shared": 0, "common": []}
    assert out["lists"] == {"shared": 1, "brought_in": [3, 3]}


def test_forecasts_saved_without_their_diffs_share_nothing_to_read():
    out = compare_paths([forecast(1, [0.5, 0.5]), forecast(2, [0.5, 0.5])])
    assert out["lists"] is None and all(a["lists"] is None for a in out["archetypes"])
