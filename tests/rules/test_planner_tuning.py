"""Tuning the planner by self-play (CMA-ES on common random numbers): its policy — the greedy
heuristic's constants — and its evaluation weights."""

from __future__ import annotations

from rules.ai.greedy import HEURISTIC
from rules.ai.planner import WEIGHTS
from rules.decks.cardset import TEST_SET
from rules.lab.planner_tuning import tune


def _tune(target, start, names, seed, games, generations=2):
    lines: list[str] = []
    result = tune(target, start, names=names, path=TEST_SET, games=games, seed=seed,
                  generations=generations, population=4, processes=1, report=lines.append)
    return result, lines


def test_policy_tuning_keeps_the_best_candidate_it_measured_and_moves_only_what_it_may():
    names = ["awaken", "place_thin", "end"]
    result, lines = _tune("policy", HEURISTIC, names, seed=3, games={"greedy": 6})
    assert result.games == 6 * 2                        # 6 games × 2 ordered pairings
    assert 0 <= result.start_rate <= result.best_rate <= 1
    assert {n for n in HEURISTIC if result.best[n] != HEURISTIC[n]} <= set(names)
    assert {n for n in HEURISTIC if result.mean[n] != HEURISTIC[n]} <= set(names)
    assert lines[0] == f"start: {result.start_rate:.1%} of 12 games"
    assert [line.split(":")[0] for line in lines[1:]] == ["generation 1", "generation 2"]


def test_the_same_seed_tunes_the_same_way():
    first = _tune("policy", HEURISTIC, ["awaken", "kill"], seed=5, games={"greedy": 4})[0]
    again = _tune("policy", HEURISTIC, ["awaken", "kill"], seed=5, games={"greedy": 4})[0]
    assert first == again


def test_evaluation_tuning_plays_the_planner_and_keeps_attack_as_the_unit():
    result, _ = _tune("evaluation", WEIGHTS, None, seed=7, games={"greedy": 2},
                      generations=1)
    assert result.best["attack"] == result.mean["attack"] == WEIGHTS["attack"]
    assert result.games == 2 * 2
