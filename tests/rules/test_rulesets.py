"""Ruleset options: each [ruling] that could reasonably go another way can be flipped."""

from __future__ import annotations

import random

import pytest

from rules.engine import HERO, Action, CardDataError, Game, Ruleset
from tests.rules.helpers import (
    TEST,
    act,
    attack,
    awake,
    end_turn,
    hand,
    hp,
    item,
    legal,
    make,
    view,
)

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


# ------------------------------------------------------------ R6: the engine's rulings


@pytest.mark.parametrize(("option", "enemy_hp"), [(True, 18), (False, 20)])
def test_r6_2_face_down_last_words_option(option, enemy_hp):
    """Grave Whisper (T-M07, last words: 2 damage) is destroyed face down."""
    game = make({"minions": [awake("L3")]}, {"minions": ["T-M07", awake("D1")]},
                ruleset={"face_down_last_words": option})
    attack(game, 0, 0)
    assert hp(game, 0) == enemy_hp
    assert game.snapshot()["players"][1]["graveyard"] == ["T-M07"]


@pytest.mark.parametrize(("option", "attacker_lives"), [(True, False), (False, True)])
def test_r6_3_sleeping_keywords_option_shield(option, attacker_lives):
    """A grass 2 attacks a face-down water Reef Guard (2, shield): with its shield working the
    advantage is cancelled, 2 against 2, both die (R4.8); without it, 4 against 2."""
    game = make({"minions": [awake("G2"), awake("L1")]}, {"minions": ["T-M03", awake("D1")]},
                ruleset={"sleeping_keywords": option})
    attack(game, 0, 0)
    mine = game.snapshot()["players"][0]["minions"][0]
    assert (mine is not None) == attacker_lives


@pytest.mark.parametrize(("option", "survives"), [(True, True), (False, False)])
def test_r6_3_sleeping_keywords_option_regenerate(option, survives):
    game = make({"minions": [awake("L5")]},
                {"minions": [{"card": "W1", "keywords": ["regenerate"]}, awake("D1")]},
                ruleset={"sleeping_keywords": option})
    attack(game, 0, 0)
    assert (game.snapshot()["players"][1]["minions"][0] is not None) == survives


@pytest.mark.parametrize(("option", "drew"), [(False, []), (True, ["F1"])])
def test_r6_4_summoned_awake_is_awakened_option(option, drew):
    """An item summons Dawn Squire (T-M04, awaken: draw 1) from hand, awake."""
    summon = item("SUMMON", [{"do": "summon", "from": "hand", "awake": True}])
    game = make({"hand": ["SUMMON", "T-M04"], "deck": ["F1"], **BOARD}, BOARD, summon,
                ruleset={"summoned_awake_is_awakened": option})
    act(game, Action("item", 0), Action("pick", 0))
    assert hand(game, 0) == drew
    assert view(game, 0)["me"]["minions"][1]["awake"]
    assert Action("attack", 1, HERO) not in legal(game)               # R4.2 either way


@pytest.mark.parametrize("option", [False, True])
def test_r6_5_mind_controlled_may_attack_option(option):
    take = item("TAKE", [{"do": "mind_control", "target": {"pick": "leftmost",
                                                           "side": "enemy"}}])
    game = make({"hand": ["TAKE"], **BOARD}, {"minions": [awake("L2"), awake("L1")]}, take,
                ruleset={"mind_controlled_may_attack": option})
    act(game, Action("item", 0))
    assert view(game, 0)["me"]["minions"][1]["card"] == "L2"
    assert (Action("attack", 1, 1) in legal(game)) == option
    end_turn(game)
    end_turn(game)
    assert Action("attack", 1, 1) in legal(game)                      # next turn either way


def test_r6_the_engines_rulings_default_to_the_rule_book_reading():
    """Rule: R6.1, R6.2, R6.3, R6.4, R6.5 — the standard ruleset keeps today's rulings."""
    rules = Ruleset()
    assert (rules.always_use_optional_skills, rules.face_down_last_words,
            rules.sleeping_keywords, rules.summoned_awake_is_awakened,
            rules.mind_controlled_may_attack) == (False, True, True, False, False)
