"""The forecast plays each game once and says what it left out (rules.lab.forecast.reuse), its
progress reads against an estimate of every game it will play (rules.lab.forecast.estimate),
and its figures can be played again on fresh seeds (rules.lab.forecast.replay)."""

from __future__ import annotations

import pytest

from rules.lab.deck_tuning import TuneField
from rules.lab.forecast import ForecastError, LocalPairEvaluator, PairTask, forecast
from rules.lab.forecast.estimate import (
    after_rounds,
    expected_games,
    exploit_games,
    rounds_left,
)
from rules.lab.forecast.replay import compare, replay_forecast
from rules.lab.forecast.reuse import ReusingPairs
from tests.rules.test_forecast import problem

A = ("H1", (("X", 2),))
B = ("H2", (("Y", 2),))


class ScriptedPairs:
    """A pair evaluator whose block ``k`` of seed 7 is won but for its last game, which the
    engine could not finish in block 1; every task it is asked for is kept."""

    def __init__(self):
        self.asked: list[PairTask] = []

    def evaluate(self, tasks):
        self.asked.extend(tasks)
        return [["a" * 49 + ("e" if (t.seed, k) == (7, 1) else "b")
                 for k in range(t.first, t.first + t.blocks)] for t in tasks]


def test_a_block_is_played_once_and_an_engine_error_is_recorded_with_its_game():
    inner = ScriptedPairs()
    pairs = ReusingPairs(inner)
    pairs.phase = "tuning"
    first = pairs.evaluate([PairTask(A, B, 7, 0, 2)])
    again = pairs.evaluate([PairTask(A, B, 7, 1, 2), PairTask(B, A, 7, 0, 1)])
    assert again[0][0] == first[0][1]                    # block 1 read, not played again
    assert [(t.deck, t.first, t.blocks) for t in inner.asked] == [
        (A, 0, 2), (A, 2, 1), (B, 0, 1)]                 # only what was new: block 2, B's side
    assert pairs.played == 200 and pairs.reused == 50
    [game] = pairs.left_out                              # game 99: block 1's last
    assert (game.phase, game.deck, game.rival, game.seed, game.game) == ("tuning", A, B, 7, 99)


def test_rounds_left_follow_the_share_of_archetypes_that_changed():
    p = problem(max_rounds=8)
    assert rounds_left(p, played=0, changed=[]) == 8               # before any round: the cap
    assert rounds_left(p, played=2, changed=[True, True]) == 6     # everyone changed: the cap
    assert rounds_left(p, played=2, changed=[True, False]) == 2    # half: one more, one to settle
    assert rounds_left(p, played=2, changed=[False, False]) == 0   # settled
    assert rounds_left(p, played=8, changed=[True, True]) == 0
    after = after_rounds(p)
    assert expected_games(p, games=50_000, rounds_played=2, last_round=10_000,
                          changed=[True, False], spent_rounds=40_000) == 40_000 + 20_000 + after
    assert expected_games(p, games=90_000, rounds_played=2, last_round=10_000,   # never below
                          changed=[True, False], spent_rounds=40_000, after_started=True,
                          exploit_each=1) == 90_000                            # what is played


def test_after_a_round_that_changed_nobody_the_estimate_is_the_check_and_the_field():
    p = problem(max_rounds=8)
    check = exploit_games(p, exploit_each=7_000)
    field_only = after_rounds(p, exploit=False)
    assert check == len(p.archetypes) * 7_000
    # The check comes next; expected to change nobody, it is the exploitability: only the
    # settled field follows it.
    assert expected_games(p, games=40_000, rounds_played=2, last_round=10_000,
                          changed=[False, False], spent_rounds=40_000, exploit_each=7_000,
                          check_due=True) == 40_000 + check + field_only
    # The check settled it: after the settled field, no exploitability is played again.
    assert expected_games(p, games=54_100, rounds_played=3, last_round=14_000,
                          changed=[False, False], spent_rounds=54_000, after_started=True,
                          exploit_each=7_000, exploit_done=True) == 54_000 + field_only


def run_with_progress(p):
    events = []
    field = TuneField(cards=p.cards, opponents=(), agent=p.agent)
    with LocalPairEvaluator(field, processes=1) as evaluator:
        return forecast(p, evaluator, progress=events.append), events


def test_the_forecast_reuses_unchanged_games_and_its_estimate_ends_exact():
    result, events = run_with_progress(problem(max_rounds=2, settle=0.05))
    data = result.to_dict()
    assert all(e["expected"] >= e["games"] for e in events)
    assert events[-1]["phase"] == "done" and events[-1]["expected"] == result.games["total"]
    assert events[0]["expected"] < 2 * result.games["total"]      # not the 3,000,000 cap
    first, second = (data["rounds"][n]["decks"] for n in (1, 2))
    assert [d["tuning"]["adopted"] for d in first] == [False, True]
    # round 2 re-reads the racing games against a list that did not change in round 1, and
    # only those: Dusk's against the unchanged Weak Dawn, none of Weak Dawn's against Dusk's
    assert [d["tuning"]["reused"] > 0 for d in second] == [False, True]
    assert data["games_reused"] == sum(d["tuning"]["reused"] for d in second)
    left_out = data["left_out"]                            # said, never silently dropped
    assert left_out["games"] == len(result.left_out) == sum(left_out["by_phase"].values())
    replayed = replay(data, seed=6)
    assert replayed["count"] == 1 + 2 + 1                  # the matchup, two field rates, exploit
    assert replayed == replay(data, seed=6)                # the same replay for the same seed
    assert {f["figure"] for f in replayed["figures"]} >= {"Weak Dawn against Dusk Test",
                                                          "Dusk Test, field win rate"}
    with pytest.raises(ForecastError, match="seed other than the forecast's"):
        replay(data, seed=5)


def replay(data, *, seed):
    p = problem()
    field = TuneField(cards=p.cards, opponents=(), agent=p.agent)
    with LocalPairEvaluator(field, processes=1) as evaluator:
        return replay_forecast({**data, "seed": p.seed}, evaluator, seed=seed)


def test_a_replayed_figure_is_inside_or_consistent_by_its_intervals():
    forecast_ = {"rate": 0.60, "low": 0.56, "high": 0.64, "games": 1000}
    assert compare(forecast_, {"rate": 0.62, "low": 0.58, "high": 0.66})["inside"]
    near = compare(forecast_, {"rate": 0.65, "low": 0.61, "high": 0.69})
    assert not near["inside"] and near["consistent"]     # 5 points apart, margin 5.7
    far = compare(forecast_, {"rate": 0.70, "low": 0.66, "high": 0.74})
    assert not far["inside"] and not far["consistent"]
