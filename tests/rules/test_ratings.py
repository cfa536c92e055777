"""Agent strength: the Bradley–Terry fit of the ladder's results, checked against statsmodels,
and the stored ladder result it is read from."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import statsmodels.api as sm

from rules.ai.ratings import (
    ELO,
    LADDER_FILE,
    Rung,
    agent_costs,
    fit,
    game_costs,
    parse_rungs,
    seconds_per_game,
    strength_table,
)
from rules.lab import ladder


def expected_score(elo_a: float, elo_b: float) -> float:
    """How often an agent rated ``elo_a`` beats one rated ``elo_b`` (draws as halves): the Elo
    formula, written here apart from the fit it checks."""
    return 1 / (1 + 10 ** ((elo_b - elo_a) / 400))

REPORT = {
    "greedy-vs-random": {"games": 1000, "wins": 962, "losses": 30, "draws": 8, "errors": 0,
                         "win_rate": {"rate": 0.966, "effective_games": 710.0}},
    "search-vs-greedy": {"games": 1000, "wins": 600, "losses": 396, "draws": 4, "errors": 0,
                         "win_rate": {"rate": 0.602, "effective_games": 805.5}},
    "planner-vs-greedy": {"games": 1000, "wins": 640, "losses": 358, "draws": 2, "errors": 0,
                          "win_rate": {"rate": 0.641, "effective_games": 820.0}},
    "planner-vs-search": {"games": 600, "wins": 320, "losses": 280, "draws": 0, "errors": 0,
                          "win_rate": {"rate": 0.533, "effective_games": 590.0}},
}


def _statsmodels_fit(rungs, names, anchor):
    """The same model as a binomial GLM with a logit link: one column per agent but the
    anchor, +1 for the stronger side and -1 for the weaker, no intercept."""
    free = [n for n in names if n != anchor]
    rows, share, weight = [], [], []
    for r in rungs:
        row = [0.0] * len(free)
        if r.strong != anchor:
            row[free.index(r.strong)] = 1.0
        if r.weak != anchor:
            row[free.index(r.weak)] = -1.0
        rows.append(row)
        share.append(r.score / r.games)
        weight.append(r.games)
    model = sm.GLM(np.array(share), np.array(rows), family=sm.families.Binomial(),
                   var_weights=np.array(weight))
    result = model.fit(tol=1e-12)
    return dict(zip(free, result.params, strict=True)), dict(zip(free, result.bse, strict=True))


def test_the_fit_matches_an_independent_logistic_regression():
    rungs = parse_rungs(REPORT)
    ratings = {r.name: r for r in fit(rungs)}
    params, errors = _statsmodels_fit(rungs, list(ratings), "random")
    assert ratings["random"].elo == 0 and ratings["random"].anchor
    for name, beta in params.items():
        assert ratings[name].elo == pytest.approx(beta * ELO, abs=1e-6)
        half = (ratings[name].high - ratings[name].low) / 2
        assert half == pytest.approx(1.959963984540054 * errors[name] * ELO, rel=1e-6)


def test_ratings_come_best_first_and_predict_the_rungs_they_were_fitted_to():
    ratings = fit(parse_rungs(REPORT))
    assert [r.name for r in ratings] == ["planner", "search", "greedy", "random"]
    by_name = {r.name: r.elo for r in ratings}
    # A rung between two agents alone is fitted exactly when nothing else constrains it.
    only = fit([Rung("greedy", "random", 100.0, 80.0)])
    assert expected_score(only[0].elo, only[1].elo) == pytest.approx(0.8)
    assert by_name["planner"] > by_name["search"] > by_name["greedy"] > 0


def test_a_seat_swapped_rung_weighs_its_effective_games():
    """Two games sharing a seed are not independent (DESIGN: statistics): a rung counts the
    ladder's effective games, which keeps its win rate and widens the interval."""
    row = {"games": 100, "wins": 70, "losses": 30, "draws": 0, "errors": 0}
    plain = fit(parse_rungs({"a-vs-b": row}), anchor="b")[0]
    paired = fit(parse_rungs({"a-vs-b": {**row, "win_rate": {"effective_games": 50.0}}}),
                 anchor="b")[0]
    assert plain.elo == pytest.approx(paired.elo)
    assert paired.high - paired.low == pytest.approx((plain.high - plain.low) * math.sqrt(2))


def test_a_clean_sweep_gets_haldanes_correction_instead_of_an_infinite_rating():
    rungs = parse_rungs({"greedy-vs-random": {"games": 60, "wins": 60, "losses": 0,
                                              "draws": 0, "errors": 0}})
    assert rungs[0].corrected and rungs[0].games == 61 and rungs[0].score == 60.5
    top = fit(rungs)[0]
    assert top.name == "greedy" and math.isfinite(top.elo) and top.games == 60


def test_agents_no_rung_connects_are_refused():
    with pytest.raises(ValueError, match="connects"):
        fit([Rung("a", "b", 10.0, 6.0), Rung("c", "d", 10.0, 6.0)], anchor="a")
    with pytest.raises(ValueError, match="ladder rung"):
        parse_rungs({"greedy": {"wins": 1, "losses": 0, "draws": 0}})


def test_costs_are_weighted_by_games_and_add_up_for_a_pairing():
    report = {"a-vs-b": {"games": 100, "cpu_seconds_per_game": {"a": 0.02, "b": 0.001,
                                                               "engine": 0.002}},
              "a-vs-c": {"games": 300, "cpu_seconds_per_game": {"a": 0.04, "c": 0.0,
                                                               "engine": 0.004}}}
    costs = agent_costs(report)
    assert costs["a"] == pytest.approx(0.035) and costs["engine"] == pytest.approx(0.0035)
    assert seconds_per_game(costs, "a", "b") == pytest.approx(0.035 + 0.001 + 0.0035)
    assert seconds_per_game(costs, "a", "unknown") is None


def test_a_game_the_ladder_played_costs_what_it_took_and_a_mirror_the_rules_of_a_cheap_one():
    """The rest of a game (the rules) was 0.26 ms in greedy vs random and 1.6 ms in planner vs
    search: a pair the ladder played is its own figures, seat by seat; a pair it never played
    is each agent's average decisions and the rules' share of the cheapest rung each played —
    never the average over every rung, which made a greedy game twice as dear as it was."""
    report = {
        "greedy-vs-random": {"games": 100, "cpu_seconds_per_game": {
            "greedy": 0.0001, "random": 0.00002, "engine": 0.0003}},
        "planner-vs-greedy": {"games": 100, "cpu_seconds_per_game": {
            "planner": 0.024, "greedy": 0.0003, "engine": 0.0007}},
        "planner-vs-search": {"games": 100, "cpu_seconds_per_game": {
            "planner": 0.026, "search": 0.04, "engine": 0.0016}},
    }
    assert game_costs(report, "random", "greedy") == (0.00002, 0.0001, 0.0003)
    assert game_costs(report, "planner", "search") == (0.026, 0.04, 0.0016)
    assert game_costs(report, "greedy", "greedy") == pytest.approx((0.0002, 0.0002, 0.0003))
    assert game_costs(report, "planner", "planner") == pytest.approx((0.025, 0.025, 0.0007))
    assert game_costs(report, "search", "greedy") == pytest.approx((0.04, 0.0002, 0.00095))
    assert game_costs(report, "planner", "nobody") is None


def test_the_stored_ladder_result_has_every_rung_in_the_ladders_shape():
    stored = json.loads(LADDER_FILE.read_text(encoding="utf-8"))
    assert list(stored) == [f"{s}-vs-{w}" for s, w in ladder.RUNGS]
    for row in stored.values():
        assert {"games", "wins", "losses", "draws", "errors", "win_rate"} <= set(row)
        assert row["wins"] + row["losses"] + row["draws"] + row["errors"] == row["games"]
        assert set(row["cpu_seconds_per_game"]) >= {"engine"}
    table = strength_table()
    assert {r["name"] for r in table["ratings"]} == {"random", "greedy", "search", "planner",
                                                     "lean", "learned", "learned_planner"}
    assert table["anchor"] == "random"
