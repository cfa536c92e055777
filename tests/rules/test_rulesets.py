"""Ruleset options: each [ruling] that could reasonably go another way can be flipped."""

from __future__ import annotations

import random

import pytest

from rules.engine import HERO, Action, CardDataError, Game, Ruleset
from tests.rules.helpers import TEST, act, attack, awake, end_turn, hp, legal, make

BOARD = {"minions": [awake("L1")]}


@pytest.mark.parametrize(("option", "damage"), [(True, 6), (False, 3)])
def test_r2_3_10_hero_advantage_option(option, damage):
    game = make({"minions": [awake("F3")]}, {"hero": "HERO-GRASS", **BOARD},
                ruleset={"hero_advantage": option})
    attack(game, 0, "hero")
    assert hp(game, 1) == 20 - damage


def test_r2_2_3_e_by_default_a_minion_may_attack_and_use_its_skill():
    game = make({"minions": [awake("T-M11")]}, BOARD)
    act(game, Action("skill", 0, 0))
    assert Action("attack", 0, HERO) in legal(game)


def test_r2_2_3_e_attack_or_skill_makes_them_exclusive():
    rules = {"attack_or_skill": True}
    game = make({"minions": [awake("T-M11")]}, BOARD, ruleset=rules)
    act(game, Action("skill", 0, 0))                      # the only ally: no question
    assert legal(game, "attack") == []
    game = make({"minions": [awake("T-M11")]}, {"minions": [awake("L1"), awake("L1")]},
                ruleset=rules)
    attack(game, 0, 0)
    assert legal(game, "skill") == []


def test_r4_9_react_ignores_awaken_turn_option():
    foe = {"minions": [awake("L1"), awake("L1")]}
    game = make({"minions": ["T-M05"]}, foe, ruleset={"react_ignores_awaken_turn": True})
    act(game, Action("awaken", 0))
    assert Action("attack", 0, HERO) not in legal(game)    # the first attack: still not
    attack(game, 0, 0)
    assert Action("attack", 0, HERO) in legal(game)
    game = make({"minions": ["T-M05"]}, foe)
    act(game, Action("awaken", 0))
    attack(game, 0, 0)
    assert Action("attack", 0, HERO) not in legal(game)


def test_r2_2_6_the_turn_limit_ends_the_game_in_a_draw():
    game = make(BOARD, BOARD, turn=1, phase="turn_start", ruleset={"turn_limit": 2})
    for _ in range(3):
        end_turn(game)
        assert not game.over
    end_turn(game)                                         # each player has had 2 turns
    assert game.result == {"winner": None, "reason": "turn_limit", "turns": 4}


def test_r2_2_6_the_default_limit_is_thirty_turns_per_player():
    assert Ruleset().turn_limit == 30
    big = {**BOARD, "deck": ["L1"] * 40}
    game = make(big, big, turn=1, phase="turn_start")
    while not game.over:
        end_turn(game)
        while game.decision and game.decision.kind == "discard":
            act(game, Action("discard", 0))
    assert game.result["reason"] == "turn_limit" and game.turn == 60


def test_r2_2_6_random_games_under_a_short_limit_all_end():
    rules = Ruleset(turn_limit=3)
    for seed in range(20):
        game = Game(TEST.cards, list(TEST.decks.values()), seed=seed, ruleset=rules)
        rng = random.Random(seed)
        while not game.over:
            choices = game.legal_actions()
            game.apply(choices[int(rng.random() * len(choices))])
        assert game.turn <= 6


def test_r2_2_6_ruleset_options_are_checked():
    with pytest.raises(CardDataError):
        Ruleset.from_dict({"turn_limits": 3})
    with pytest.raises(CardDataError):
        Ruleset.from_dict({"hero_advantage": "yes"})
    with pytest.raises(CardDataError):
        Ruleset.from_dict({"turn_limit": 0})
    assert Ruleset.from_dict({"turn_limit": 5}).turn_limit == 5


def test_r2_2_6_the_ruleset_travels_with_the_log():
    rules = Ruleset(turn_limit=2, hero_advantage=False)
    game = Game(TEST.cards, list(TEST.decks.values()), seed=3, ruleset=rules)
    assert game.log()["start"]["ruleset"] == rules.to_dict()
    assert game.snapshot()["ruleset"]["turn_limit"] == 2
