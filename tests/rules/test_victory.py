"""R3 Victory: a hero at 0 HP or less, an empty board that replenish cannot refill, and when
the checks happen."""

from __future__ import annotations

import pytest

from rules.engine import Action, IllegalAction
from rules.engine.actions import PASS
from tests.rules.helpers import (
    ability,
    act,
    attack,
    awake,
    end_turn,
    events,
    hand,
    item,
    make,
    minion,
    view,
)

BOARD = {"minions": [awake("L1")]}


def test_r3_1_a_hero_at_exactly_zero_hp_loses():
    game = make({"minions": [awake("L3")]}, {**BOARD, "hp": 3})
    attack(game, 0, "hero")
    assert game.result == {"winner": 0, "reason": "hero_hp", "turns": 3}
    assert view(game, 1)["result"]["winner"] == 0


def test_r3_1_a_hero_below_zero_loses():
    game = make({"minions": [awake("L9")]}, {**BOARD, "hp": 2})
    attack(game, 0, "hero")
    assert game.winner == 0 and view(game, 0)["enemy"]["hp"] == -7


def test_r3_1_a_hero_at_one_hp_plays_on():
    game = make({"minions": [awake("L3")]}, {**BOARD, "hp": 4})
    attack(game, 0, "hero")
    assert not game.over


def test_r3_1_losing_the_last_hp_to_an_empty_deck_ends_the_game():
    """Rule: R2.4.3"""
    game = make(BOARD, {**BOARD, "hp": 1, "deck": []})
    end_turn(game)
    assert game.winner == 0 and game.result["reason"] == "hero_hp"


def test_r3_1_the_active_player_can_lose_on_their_own_turn():
    backfire = item("BACKFIRE", [{"do": "damage_hero", "amount": 5, "hero": "own"}])
    game = make({**BOARD, "hp": 5, "hand": ["BACKFIRE"]}, BOARD, backfire)
    act(game, Action("item", 0))
    assert game.winner == 1


def test_r3_2_an_empty_board_with_no_minion_to_replenish_loses():
    game = make({"minions": [awake("L3")]}, {"hand": ["T-I02"], "minions": [awake("L1")]})
    attack(game, 0, 0)
    assert game.result["winner"] == 0 and game.result["reason"] == "no_minions"


def test_r3_2_a_player_who_can_still_replenish_has_not_lost():
    game = make({"minions": [awake("L3")]}, {"hand": ["W2"], "minions": [awake("L1")]})
    attack(game, 0, 0)
    assert not game.over and (game.decision.kind, game.to_move) == ("replenish", 1)
    act(game, Action("replenish", 0))
    assert not game.over and game.to_move == 0


def test_r3_2_declining_the_last_replenish_loses():
    game = make({"minions": [awake("L3")]}, {"hand": ["W2"], "minions": [awake("L1")]})
    attack(game, 0, 0)
    act(game, PASS)
    assert game.winner == 0 and game.result["reason"] == "no_minions"


def test_r3_2_a_sleeping_last_minion_gives_no_replenish():
    game = make({"minions": [awake("L3")]}, {"hand": ["W2"], "minions": ["L1"]})
    attack(game, 0, 0)
    assert game.winner == 0                # minions in hand do not help (R2.4.1 needs awake)


def test_r3_2_a_last_minion_returned_to_hand_loses():
    bounce = item("BOUNCE", [{"do": "return_to_hand", "target": "chosen"}])
    game = make({**BOARD, "hand": ["BOUNCE"]}, {"minions": [awake("D2")]}, bounce)
    act(game, Action("item", 0))
    assert game.winner == 0 and hand(game, 1) == ["D2"]


def test_r3_2_the_attacker_can_lose_its_last_minion_too():
    game = make({"minions": [awake("L1")]}, {"minions": [awake("D5"), awake("D1")]})
    attack(game, 0, 0)
    assert game.winner == 1 and game.result["reason"] == "no_minions"


def test_r3_3_victory_is_checked_after_every_resolved_effect():
    finisher = item("FINISH", [{"do": "damage_hero", "amount": 20},
                               {"do": "draw", "count": 1}])
    game = make({**BOARD, "hand": ["FINISH"], "deck": ["F1"]}, BOARD, finisher)
    act(game, Action("item", 0))
    assert game.winner == 0
    assert events(game, "draw") == [] and view(game, 0)["me"]["deck_size"] == 1


def test_r3_3_victory_is_checked_after_every_action():
    game = make({"minions": [awake("L3"), awake("L3")]}, {**BOARD, "hp": 3})
    attack(game, 0, "hero")
    assert game.over and game.legal_actions() == [] and game.to_move is None
    with pytest.raises(IllegalAction):
        attack(game, 1, "hero")


def test_r3_3_both_heroes_falling_together_is_a_draw():
    cataclysm = item("CATA", [{"do": "damage_hero", "amount": 20, "hero": "both"}])
    game = make({**BOARD, "hand": ["CATA"]}, BOARD, cataclysm)
    act(game, Action("item", 0))
    assert game.result["winner"] is None and game.result["reason"] == "both_lost"


def test_r3_3_both_boards_emptied_together_is_a_draw():
    game = make({"minions": [awake("L3")]}, {"minions": [awake("D3")]})
    attack(game, 0, 0)
    assert game.over and game.winner is None


def test_r3_3_a_last_words_kill_ends_the_game_before_later_effects():
    bomb = minion("BOMB", 1, abilities=[ability("last_words",
                                                {"do": "damage_hero", "amount": 5},
                                                {"do": "draw", "count": 1, "player": "enemy"})])
    game = make({**BOARD, "hp": 5}, {"minions": [awake("BOMB"), awake("L1")]}, bomb)
    attack(game, 0, 0)
    assert game.winner == 1 and hand(game, 0) == []
