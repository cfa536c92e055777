"""R2.2 A player's turn (draw, energy, main and end phases), R1.2 the display zone and R2.4.3
drawing from an empty deck."""

from __future__ import annotations

import pytest

from rules.engine import HERO, Action
from rules.engine.actions import END
from tests.rules.helpers import (
    ability,
    act,
    attack,
    awake,
    board,
    end_turn,
    hand,
    hero,
    hp,
    item,
    legal,
    make,
    view,
)

STASH = item("STASH", [{"do": "display", "count": 2}])          # chosen hand cards
SKIP_ME = item("SKIP-ME", [{"do": "skip_draw", "player": "own"}])
BOARD = {"minions": [awake("L1")]}


def at_turn_start(p0=None, p1=None, *extra, **top):
    """A game that begins player ``active``'s turn with the draw phase."""
    return make({**BOARD, **(p0 or {})}, {**BOARD, **(p1 or {})}, *extra, phase="turn_start",
                **top)


# ---------------------------------------------------------------- R2.2.1 draw phase


def test_r2_2_1_the_draw_phase_draws_one_card():
    game = at_turn_start({"hand": ["F1"], "deck": ["W2", "G3"]})
    assert hand(game, 0) == ["F1", "W2"]
    assert view(game, 0)["me"]["deck_size"] == 1


def test_r2_2_1_the_first_player_does_not_draw_on_their_first_turn():
    game = at_turn_start({"hand": ["F1"], "deck": ["W2"]}, {"deck": ["G3"]}, turn=1,
                         first_player=0)
    assert hand(game, 0) == ["F1"] and view(game, 0)["me"]["deck_size"] == 1
    end_turn(game)                                    # the second player's first turn: draws
    assert hand(game, 1) == ["G3"]


# ---------------------------------------------------------------- R1.2 display zone


def test_r1_2_displayed_cards_leave_the_hand_and_return_after_the_next_draw_phase():
    game = make({**BOARD, "hand": ["STASH", "F1", "W2", "G3"], "deck": ["D4", "D5"]}, BOARD,
                STASH)
    act(game, Action("item", 0))
    assert game.decision.kind == "pick"
    act(game, Action("pick", 0), Action("pick", 0))          # F1, then W2
    assert view(game, 0)["me"]["display"] == ["F1", "W2"]
    assert hand(game, 0) == ["G3"]                            # display cards are not in hand
    assert view(game, 1)["enemy"]["display"] == ["F1", "W2"]
    end_turn(game)
    assert view(game, 0)["me"]["display"] == ["F1", "W2"]     # still there on the enemy turn
    end_turn(game)
    assert hand(game, 0) == ["G3", "D4", "F1", "W2"]          # drew D4, then got the display
    assert view(game, 0)["me"]["display"] == []


def test_r1_2_a_skipped_draw_phase_discards_the_display_zone():
    game = make({**BOARD, "hand": ["SKIP-ME"], "display": ["F1", "W2"], "deck": ["D4"]}, BOARD,
                SKIP_ME)
    act(game, Action("item", 0))
    end_turn(game)
    end_turn(game)
    me = view(game, 0)["me"]
    assert me["hand"] == [] and me["display"] == [] and me["deck_size"] == 1
    assert me["graveyard"] == ["SKIP-ME", "F1", "W2"]


def test_r1_2_the_first_players_missing_first_draw_is_not_a_skipped_draw_phase():
    game = at_turn_start({"display": ["F1"], "deck": ["D4"]}, turn=1, first_player=0)
    assert hand(game, 0) == ["F1"] and view(game, 0)["me"]["display"] == []


# ---------------------------------------------------------------- R2.2.2 energy


def test_r2_2_2_energy_refills_to_five():
    game = at_turn_start({"energy": 1})
    assert view(game, 0)["me"]["energy"] == 5


def test_r2_2_2_the_first_players_first_turn_has_three_energy():
    game = at_turn_start(turn=1, first_player=0)
    assert view(game, 0)["me"]["energy"] == 3
    end_turn(game)
    assert view(game, 1)["me"]["energy"] == 5           # the second player's first turn: 5


def test_r2_2_2_unspent_energy_does_not_carry_over():
    game = make({**BOARD, "energy": 5}, BOARD)
    end_turn(game)
    end_turn(game)
    assert view(game, 0)["me"]["energy"] == 5


def test_r2_2_2_energy_never_goes_below_zero():
    drain = item("DRAIN", [{"do": "energy", "amount": -4}])
    game = make({**BOARD, "energy": 1, "hand": ["DRAIN"]}, BOARD, drain)
    act(game, Action("item", 0))
    assert view(game, 0)["me"]["energy"] == 0


# ---------------------------------------------------------------- R2.2.3 main phase


def test_r2_2_3_a_an_item_costs_its_energy_resolves_and_goes_to_the_graveyard():
    game = make({**BOARD, "energy": 3, "hand": ["T-I02"], "deck": ["F1", "W2", "G3"]}, BOARD)
    act(game, Action("item", 0))                            # Second Wind: cost 1, draw 2
    me = view(game, 0)["me"]
    assert me["energy"] == 2 and me["hand"] == ["F1", "W2"] and me["graveyard"] == ["T-I02"]


def test_r2_2_3_a_an_item_needs_enough_energy():
    game = make({**BOARD, "energy": 1, "hand": ["T-I03", "T-I02"]}, BOARD)   # costs 2 and 1
    assert legal(game, "item") == [Action("item", 1)]


def test_r2_2_3_b_placing_a_minion_is_free_and_it_sleeps():
    game = make({**BOARD, "energy": 0, "hand": ["T-M06"]}, BOARD)
    act(game, Action("place", 0, 2))
    placed = view(game, 0)["me"]["minions"][2]
    assert placed["card"] == "T-M06" and not placed["awake"]
    assert view(game, 0)["me"]["energy"] == 0
    assert board(game, 0, viewer=1)[2] == "?"


def test_r2_2_3_c_awakening_costs_the_minions_energy_and_turns_it_face_up():
    game = make({"energy": 5, "minions": ["T-M06", "T-M12"]}, BOARD)     # costs 4 and 5
    assert legal(game, "awaken") == [Action("awaken", 0), Action("awaken", 1)]
    act(game, Action("awaken", 0))
    assert view(game, 0)["me"]["energy"] == 1
    assert board(game, 0, viewer=1) == ["T-M06", "?", None, None, None]
    assert view(game, 1)["enemy"]["minions"][0]["awake"]
    assert legal(game, "awaken") == []                     # 1 energy left: T-M12 costs 5


def test_r2_2_3_d_the_hero_skill_costs_energy_and_is_used_once_per_turn():
    game = make({"hero": "T-H01", "energy": 5, **BOARD}, BOARD)   # 2 energy: 1 damage
    act(game, Action("hero_skill", 0))
    assert hp(game, 1) == 19 and view(game, 0)["me"]["energy"] == 3
    assert legal(game, "hero_skill") == []
    end_turn(game)
    end_turn(game)
    assert legal(game, "hero_skill") == [Action("hero_skill", 0)]


def test_r2_2_3_e_an_awakened_minion_attacks_or_uses_its_skill():
    game = make({"minions": [awake("T-M11"), awake("L1")]}, {"minions": [awake("L1")]})
    assert Action("skill", 0, 0) in legal(game)
    act(game, Action("skill", 0, 0), Action("target", 0, 1))    # +2 this turn to slot 1
    assert view(game, 0)["me"]["minions"][1]["attack"] == 3
    assert Action("attack", 0, HERO) in legal(game)                # the drummer may still attack


def test_r2_2_3_e_a_minion_awakened_this_turn_attacks_minions_but_not_the_hero():
    game = make({"minions": ["F3"]}, {"minions": [awake("L1")]})
    act(game, Action("awaken", 0))
    assert legal(game, "attack") == [Action("attack", 0, 0)]
    end_turn(game)
    end_turn(game)
    assert Action("attack", 0, HERO) in legal(game, "attack")


def test_r2_2_3_f_ending_the_main_phase_goes_to_the_end_phase_and_the_next_turn():
    game = make(BOARD, BOARD)
    assert legal(game)[-1] == END
    end_turn(game)
    assert (game.to_move, game.decision.kind, game.turn) == (1, "main", 4)


def test_r2_2_3_energy_stays_at_or_above_zero_when_choosing_actions():
    game = make({"energy": 2, "hand": ["T-I01"], "minions": ["T-M06", awake("T-M11")]},
                {"minions": [awake("L1")]})
    assert Action("awaken", 0) not in legal(game)          # costs 4 > 2
    for action in legal(game):
        trial = game.copy()
        trial.apply(action)
        assert trial.players[0].energy >= 0


# ---------------------------------------------------------------- R2.2.4 end phase


def test_r2_2_4_a_hand_over_eight_is_discarded_down_to_eight_by_its_owner():
    game = make({**BOARD, "hand": [f"F{n}" for n in range(10)]}, BOARD)
    end_turn(game)
    assert (game.decision.kind, game.to_move) == ("discard", 0)
    act(game, Action("discard", 9))
    assert game.decision.kind == "discard"
    act(game, Action("discard", 0))
    assert hand(game, 0) == [f"F{n}" for n in range(1, 9)]
    assert view(game, 0)["me"]["graveyard"] == ["F9", "F0"]
    assert (game.decision.kind, game.to_move) == ("main", 1)


def test_r2_2_4_a_display_zone_over_five_is_discarded_down_to_five():
    game = make({**BOARD, "display": ["F1", "F2", "F3", "F4", "F5", "F6", "F7"]}, BOARD)
    end_turn(game)
    assert game.decision.kind == "discard_display"
    act(game, Action("discard_display", 0), Action("discard_display", 0))
    assert view(game, 0)["me"]["display"] == ["F3", "F4", "F5", "F6", "F7"]
    assert game.decision.kind == "main" and game.to_move == 1


def test_r2_2_4_eight_cards_in_hand_and_five_on_display_are_kept():
    game = make({**BOARD, "hand": ["F1"] * 8, "display": ["W1"] * 5}, BOARD)
    end_turn(game)
    assert (game.decision.kind, game.to_move) == ("main", 1)


# ---------------------------------------------------------------- R2.2.5 alternation


def test_r2_2_5_players_alternate_turns_starting_with_the_first_player():
    game = make(BOARD, BOARD, turn=1, phase="turn_start", first_player=1, active=1)
    seen = []
    for _ in range(5):
        seen.append((game.turn, game.to_move))
        end_turn(game)
    assert seen == [(1, 1), (2, 0), (3, 1), (4, 0), (5, 1)]


# ---------------------------------------------------------------- R2.4.3 empty deck


def test_r2_4_3_drawing_from_an_empty_deck_costs_one_hp():
    game = at_turn_start({"deck": []})
    assert hp(game, 0) == 19 and hand(game, 0) == []


def test_r2_4_3_each_missing_card_costs_one_hp():
    game = make({**BOARD, "hand": ["T-I02"], "deck": ["F1"]}, BOARD)     # draw 2, 1 in deck
    act(game, Action("item", 0))
    assert hand(game, 0) == ["F1"] and hp(game, 0) == 19


@pytest.mark.parametrize("amount", [3, 5])
def test_r2_4_3_an_effect_drawing_many_from_an_empty_deck(amount):
    dig = item("DIG", [{"do": "draw", "count": amount}])
    game = make({**BOARD, "hand": ["DIG"], "deck": []}, BOARD, dig)
    act(game, Action("item", 0))
    assert hp(game, 0) == 20 - amount


def test_r2_2_1_a_turn_start_skill_comes_after_the_draw_and_energy_phases():
    beacon = hero("BEACON", abilities=[ability("turn_start",
                                               {"do": "energy", "amount": 1},
                                               {"do": "draw", "count": 1})])
    game = at_turn_start({"hero": "BEACON", "deck": ["F1", "W2"]}, {}, beacon)
    assert view(game, 0)["me"]["energy"] == 6
    assert hand(game, 0) == ["F1", "W2"]


def test_r2_2_3_e_attacking_spends_the_minions_attack_for_the_turn():
    game = make({"minions": [awake("F3")]}, {"minions": [awake("L1"), awake("L1")]})
    attack(game, 0, 0)
    assert legal(game, "attack") == []
