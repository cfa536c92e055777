"""R2.3 Combat, R2.4.1 replenish, R2.4.4 many deaths, and the glossary terms of a fight (R4.0–R4.3,
R4.8 shield, R4.9 re-act, R4.10 regenerate)."""

from __future__ import annotations

from rules.engine import HERO, Action
from rules.engine.actions import END, PASS
from tests.rules.helpers import (
    ability,
    ability_sources,
    act,
    attack,
    awake,
    board,
    end_turn,
    events,
    hand,
    hero,
    hp,
    item,
    legal,
    make,
    minion,
    view,
)

BOARD = {"minions": [awake("L1")]}


def result(game) -> tuple[int, int]:
    """(attacker's, defender's) final attack of the last combat, from the event log."""
    last = events(game, "combat_result")[-1]
    return last["attack"], last["defense"]


def destroyed(game) -> list[str]:
    return [e["card"] for e in events(game, "destroyed")]


def last_words(code: str, amount: int = 1, attack_: int = 1, **fields) -> object:
    return minion(code, attack_, abilities=[ability("last_words",
                                                    {"do": "damage_hero", "amount": amount})],
                  **fields)


def combat_start(code: str, *effects: dict, attack_: int = 2, **fields) -> object:
    return minion(code, attack_, abilities=[ability("combat_start", *effects)], **fields)


# ---------------------------------------------------------------- R2.3.1 declaration


def test_r2_3_1_an_awakened_minion_may_attack_any_enemy_minion_or_the_hero():
    game = make({"minions": [awake("F3"), "F4"]}, {"minions": [awake("L1"), None, "L2"]})
    assert legal(game, "attack") == [Action("attack", 0, 0), Action("attack", 0, 2),
                                     Action("attack", 0, HERO)]


def test_r2_3_1_each_awakened_minion_attacks_at_most_once_per_turn():
    game = make({"minions": [awake("F3"), awake("F4")]}, {"minions": [awake("L1"), "L2"]})
    attack(game, 0, "hero")
    assert {a.a for a in legal(game, "attack")} == {1}
    attack(game, 1, "hero")
    assert legal(game, "attack") == []
    end_turn(game)
    end_turn(game)
    assert {a.a for a in legal(game, "attack")} == {0, 1}


# ---------------------------------------------------------------- R2.3.2 reveal


def test_r2_3_2_a_face_down_defender_is_revealed_but_still_sleeping():
    # Tide Caller gains +2 at combat start — but only while awake: sleeping, it fights with 3.
    game = make({"minions": [awake("L2")]}, {"minions": ["T-M09"]})
    assert board(game, 1, viewer=0) == ["?", None, None, None, None]
    attack(game, 0, 0)
    assert result(game) == (2, 3)
    assert board(game, 0) == [None] * 5 and destroyed(game) == ["L2"]
    seen = view(game, 0)["enemy"]["minions"][0]
    assert seen["card"] == "T-M09" and not seen["awake"]     # known, and face down again
    assert not view(game, 1)["me"]["minions"][0]["awake"]


def test_r2_3_2_a_revealed_defender_that_dies_goes_to_the_graveyard_face_up():
    game = make({"minions": [awake("L5")]}, {"minions": ["T-M09", "L1"]})
    attack(game, 0, 0)
    assert view(game, 0)["enemy"]["graveyard"] == ["T-M09"]


# ---------------------------------------------------------------- R2.3.3 advantage


def test_r1_5_the_advantage_cycle_is_the_table_of_what_beats_what():
    """Rule: R1.5 — fire > grass > water > fire; light and dark beat nothing and lose to
    nothing. has_advantage answers exactly as BEATS reads, for every pair (none included)."""
    from rules.engine.advantage import BEATS, has_advantage

    attributes = [None, "fire", "grass", "water", "light", "dark"]
    for a in attributes:
        for b in attributes:
            assert has_advantage(a, b) == (a is not None and BEATS.get(a) == b), (a, b)
    assert [b for b in attributes if has_advantage("fire", b)] == ["grass"]
    assert not any(has_advantage("light", b) for b in attributes[1:])


def test_r2_3_3_the_advantaged_side_doubles_its_printed_attack():
    game = make({"minions": [awake("F2")]}, {"minions": [awake("G3"), awake("L1")]})
    attack(game, 0, 0)
    assert result(game) == (4, 3) and destroyed(game) == ["G3"]


def test_r2_3_3_the_defender_can_hold_the_advantage():
    game = make({"minions": [awake("G3"), awake("L1")]}, {"minions": [awake("F2")]})
    attack(game, 0, 0)
    assert result(game) == (3, 4) and destroyed(game) == ["G3"]


def test_r2_3_3_without_a_relation_both_multipliers_are_one():
    game = make({"minions": [awake("D4")]}, {"minions": [awake("F3"), awake("L1")]})
    attack(game, 0, 0)
    assert result(game) == (4, 3)


def test_r2_3_3_shield_on_the_disadvantaged_side_cancels_the_doubling():
    """Rule: R4.8"""
    game = make({"minions": [awake("G3")]}, {"minions": [awake("T-M03"), awake("L1")]})
    attack(game, 0, 0)                                    # grass 3 vs shielded water 2
    assert result(game) == (3, 2)


# ---------------------------------------------------------------- R2.3.4 final attack


def test_r2_3_4_buffs_are_added_after_the_multiplier():
    game = make({"minions": [awake("F2", attack_buff=2, turn_attack_buff=1)]},
                {"minions": [awake("G7"), awake("L1")]})
    attack(game, 0, 0)
    assert result(game) == (2 * 2 + 3, 7)                 # not (2 + 3) * 2


def test_r2_3_4_debuffs_are_subtracted_and_final_attack_is_never_below_zero():
    game = make({"minions": [awake("L2", attack_buff=-5)]}, {"minions": [awake("D0")]})
    assert view(game, 0)["me"]["minions"][0]["attack"] == 0
    attack(game, 0, 0)
    assert result(game) == (0, 0)


def test_r2_3_4_combat_start_buffs_count_in_the_final_attack():
    caller = {"minions": [awake("T-M09")]}                 # water 3, +2 at combat start
    game = make(caller, {"minions": [awake("L4"), awake("L1")]})
    attack(game, 0, 0)
    assert result(game) == (5, 4) and destroyed(game) == ["L4"]
    end_turn(game)
    assert view(game, 0)["me"]["minions"][0]["attack"] == 3   # a this-turn buff ends


# ---------------------------------------------------------------- R2.3.5 combat start


def test_r2_3_5_the_attackers_combat_start_skills_resolve_before_the_defenders():
    hot = combat_start("HOT", {"do": "damage_hero", "amount": 1})
    cold = combat_start("COLD", {"do": "damage_hero", "amount": 2})
    game = make({"minions": [awake("HOT")]}, {"minions": [awake("COLD"), awake("L1")]},
                hot, cold)
    attack(game, 0, 0)
    assert ability_sources(game) == ["HOT", "COLD"]
    damage = [(e["player"], e["amount"]) for e in events(game, "hero_damage")]
    assert damage == [(1, 1), (0, 2)]
    assert events(game, "ability")[0]["trigger"] == "combat_start"


def test_r2_3_5_a_defenders_combat_start_sees_the_attackers_buff():
    """The defender's skill resolves after the attacker's, so it can answer it."""
    pump = combat_start("PUMP", {"do": "attack", "amount": 3, "target": "self",
                                 "duration": "turn"})
    sap = combat_start("SAP", {"do": "attack", "amount": -3, "target": "combat_enemy",
                               "duration": "turn"}, attack_=3)
    game = make({"minions": [awake("PUMP")]}, {"minions": [awake("SAP"), awake("L1")]},
                pump, sap)
    attack(game, 0, 0)
    assert result(game) == (2, 3)


# ---------------------------------------------------------------- R2.3.6 skipped resolution


def test_r2_3_6_a_skip_combat_effect_replaces_resolution():
    game = make({"minions": [awake("D9"), awake("L1")]}, {"minions": ["T-M10"]})
    attack(game, 0, 0)                                     # Vine Trapper: sleeping skill
    assert events(game, "combat_result") == [] and destroyed(game) == []
    assert hand(game, 0) == ["D9"]                        # the attacker went back to hand
    assert board(game, 1, viewer=0)[0] == "T-M10"


# ---------------------------------------------------------------- R2.3.7 resolution


def test_r2_3_7_the_higher_final_attack_wins():
    game = make({"minions": [awake("L3")]}, {"minions": [awake("D2"), awake("D1")]})
    attack(game, 0, 0)
    assert destroyed(game) == ["D2"] and board(game, 0)[0] == "L3"


def test_r2_3_7_on_a_tie_both_die_attacker_first():
    game = make({"minions": [awake("L3"), awake("L1")]}, {"minions": [awake("D3"), awake("D1")]})
    attack(game, 0, 0)
    assert destroyed(game) == ["L3", "D3"]
    assert [e["player"] for e in events(game, "destroyed")] == [0, 1]


# ---------------------------------------------------------------- R2.3.8 dying


def test_r2_3_8_a_dying_minion_without_regenerate_goes_to_the_graveyard():
    game = make({"minions": [awake("L3")]}, {"minions": [awake("D2"), awake("D1")]})
    attack(game, 0, 0)
    assert view(game, 1)["me"]["graveyard"] == ["D2"]


def test_r2_3_8_a_dying_minion_with_regenerate_revives_and_is_not_destroyed():
    phoenix = last_words("PHX", attack_=2, keywords=["regenerate"])
    game = make({"minions": [awake("L5")]}, {"minions": [awake("PHX")]}, phoenix)
    attack(game, 0, 0)
    assert board(game, 1) == ["PHX", None, None, None, None]
    assert destroyed(game) == [] and events(game, "regenerate")
    assert view(game, 1)["me"]["graveyard"] == [] and hp(game, 0) == 20   # no last words


# ---------------------------------------------------------------- R2.3.9 after combat


def test_r2_3_9_the_winners_effects_resolve_before_the_destroyed_sides():
    winner = minion("WIN", 5, abilities=[ability("after_win",
                                                 {"do": "damage_hero", "amount": 1})])
    loser = last_words("LOSE")
    game = make({"minions": [awake("WIN")]}, {"minions": [awake("LOSE"), awake("L1")]},
                winner, loser)
    attack(game, 0, 0)
    assert ability_sources(game) == ["WIN", "LOSE"]


def test_r2_3_9_a_winning_defender_also_resolves_first():
    winner = minion("WIN", 5, abilities=[ability("after_win",
                                                 {"do": "damage_hero", "amount": 1})])
    loser = last_words("LOSE")
    game = make({"minions": [awake("LOSE"), awake("L1")]}, {"minions": [awake("WIN")]},
                winner, loser)
    attack(game, 0, 0)
    assert ability_sources(game) == ["WIN", "LOSE"]


def test_r2_3_9_when_both_die_the_attackers_effects_resolve_first():
    a, d = last_words("ATK", attack_=2), last_words("DEF", attack_=2)
    game = make({"minions": [awake("ATK"), awake("L1")]}, {"minions": [awake("DEF"),
                                                                       awake("L1")]}, a, d)
    attack(game, 0, 0)
    assert ability_sources(game) == ["ATK", "DEF"]


def test_r2_3_9_passive_then_last_words_then_hero_then_item():
    mourner = minion("MOURN", 1, abilities=[ability("ally_dies",
                                                    {"do": "damage_hero", "amount": 1})])
    widow = hero("WIDOW", abilities=[ability("ally_dies", {"do": "damage_hero", "amount": 1})])
    purge = item("PURGE", [{"do": "destroy", "target": {"pick": "chosen", "side": "ally"}},
                           {"do": "damage_hero", "amount": 1}])
    game = make({"hero": "WIDOW", "hand": ["PURGE"],
                 "minions": [awake("MOURN"), awake("GONE")]}, BOARD,
                mourner, widow, purge, last_words("GONE"))
    act(game, Action("item", 0), Action("target", 0, 1))
    assert ability_sources(game) == ["PURGE", "MOURN", "GONE", "WIDOW"]
    assert events(game)[-1]["t"] == "hero_damage"       # the item's own damage comes last
    assert hp(game, 1) == 16


# ---------------------------------------------------------------- R2.3.10 the hero


def test_r2_3_10_the_hero_loses_hp_equal_to_final_attack_with_its_attribute():
    game = make({"minions": [awake("F3")]}, {"hero": "HERO-GRASS", **BOARD})
    attack(game, 0, "hero")
    assert hp(game, 1) == 14                               # fire beats the grass hero: 6


def test_r2_3_10_the_hero_does_not_strike_back():
    game = make({"minions": [awake("F3")]}, {"hero": "HERO-WATER", **BOARD})
    attack(game, 0, "hero")
    assert hp(game, 1) == 17 and board(game, 0)[0] == "F3"
    assert events(game, "combat", "combat_result") == []


def test_r2_3_10_buffs_count_against_the_hero():
    game = make({"minions": [awake("L2", attack_buff=2)]}, BOARD)
    attack(game, 0, "hero")
    assert hp(game, 1) == 16


# ---------------------------------------------------------------- R2.4.1 replenish


def test_r2_4_1_an_awakened_minions_controller_may_replenish_its_slot():
    game = make({"hand": ["F2", "T-I02", "W3", "F2"], "minions": [awake("L1"), awake("L1"),
                                                                  awake("L2")]},
                {"hand": ["D1"], "minions": [awake("L1"), awake("L1")]})
    attack(game, 1, 0)                                     # a tie: both L1 die
    assert (game.decision.kind, game.to_move, game.decision.data) == ("replenish", 1, (0,))
    act(game, PASS)                                        # the defender first
    assert (game.decision.kind, game.to_move, game.decision.data) == ("replenish", 0, (1,))
    assert legal(game) == [Action("replenish", 0), Action("replenish", 2), PASS]
    act(game, Action("replenish", 2))
    assert board(game, 0) == ["L1", "W3", "L2", None, None]
    assert not view(game, 0)["me"]["minions"][1]["awake"]
    assert board(game, 0, viewer=1)[1] == "?"


def test_r2_4_1_a_sleeping_minions_death_gives_no_replenish():
    game = make({"minions": [awake("L5")]}, {"hand": ["F2"], "minions": ["L1", "L1"]})
    attack(game, 0, 0)
    assert game.decision.kind == "main" and game.to_move == 0


def test_r2_4_1_the_defending_player_replenishes_first():
    game = make({"hand": ["F2"], "minions": [awake("L3")]},
                {"hand": ["W2"], "minions": [awake("D3")]})
    attack(game, 0, 0)
    assert game.to_move == 1 and game.decision.kind == "replenish"
    act(game, Action("replenish", 0))
    assert game.to_move == 0 and game.decision.kind == "replenish"
    act(game, Action("replenish", 0))
    assert board(game, 0)[0] == "F2" and board(game, 1)[0] == "W2"
    assert not game.over


def test_r2_4_1_replenish_comes_right_after_the_death_before_after_combat_effects():
    game = make({"minions": [awake("L5")]},
                {"hand": ["W2"], "minions": [awake("LW"), awake("L1")]}, last_words("LW"))
    attack(game, 0, 0)
    assert game.decision.kind == "replenish" and events(game, "ability") == []
    act(game, PASS)
    assert ability_sources(game) == ["LW"] and hp(game, 0) == 19


def test_r2_4_1_a_death_by_an_effect_also_gives_a_replenish():
    game = make({"hand": ["T-I01"], "minions": [awake("L1")]},
                {"hand": ["W2"], "minions": [awake("D2"), "D1"]})
    act(game, Action("item", 0))     # Fire Bolt: the only known target of attack 3 or less
    assert (game.decision.kind, game.to_move) == ("replenish", 1)


# ---------------------------------------------------------------- R2.4.4 many deaths


def _doomsday(active: int):
    lws = [last_words(f"LW{i}") for i in range(4)]
    doom = item("DOOM", [{"do": "destroy", "target": {"pick": "all", "side": "any"}}])
    first = {"hand": ["DOOM", "F1", "F1"], "minions": [awake("LW0"), awake("LW1")]}
    second = {"hand": ["DOOM", "W1", "W1"], "minions": [awake("LW2"), None, awake("LW3")]}
    game = make(first, second, doom, *lws, active=active)
    act(game, Action("item", 0))
    replenished = []
    while game.decision.kind == "replenish":
        replenished.append((game.to_move, game.decision.data[0]))
        act(game, legal(game, "replenish")[0])
    return game, replenished


def test_r2_4_4_the_defenders_minions_resolve_first_each_side_left_to_right():
    game, replenished = _doomsday(active=0)
    assert replenished == [(1, 0), (1, 2), (0, 0), (0, 1)]         # R2.4.1 as well
    assert ability_sources(game) == ["DOOM", "LW2", "LW3", "LW0", "LW1"]


def test_r4_0_the_defending_player_is_the_one_whose_turn_it_is_not():
    game, replenished = _doomsday(active=1)
    assert replenished == [(0, 0), (0, 1), (1, 0), (1, 2)]
    assert ability_sources(game) == ["DOOM", "LW0", "LW1", "LW2", "LW3"]


# ---------------------------------------------------------------- R4.1 sleeping, R4.2 awake


def test_r4_1_a_sleeping_minion_cannot_attack_or_use_its_active_skill():
    game = make({"energy": 0, "minions": ["T-M11", awake("L1")]}, BOARD)
    assert {a.a for a in legal(game, "attack")} == {1}
    assert legal(game, "skill") == []


def test_r4_1_a_sleeping_minions_passives_do_not_apply():
    game = make({"minions": ["T-M08", awake("L1")]}, BOARD, phase="turn_start")
    assert view(game, 0)["me"]["minions"][1]["attack"] == 1       # no Banner Knight aura
    act(game, Action("awaken", 0))
    assert view(game, 0)["me"]["minions"][1]["attack"] == 2


def test_r4_1_a_sleeping_minions_turn_start_skill_does_not_fire():
    game = make({"minions": ["T-M14", awake("L1")]}, BOARD, phase="turn_start")
    assert view(game, 0)["me"]["energy"] == 5
    end_turn(game)
    end_turn(game)
    act(game, Action("awaken", 0))
    end_turn(game)
    end_turn(game)
    assert view(game, 0)["me"]["energy"] == 6


def test_r4_1_unless_a_card_says_otherwise():
    guard = minion("WATCH", 1, abilities=[ability("turn_start", {"do": "energy", "amount": 2},
                                                  sleeping=True)])
    game = make({"minions": ["WATCH"]}, BOARD, guard, phase="turn_start")
    assert view(game, 0)["me"]["energy"] == 7


def test_r4_2_an_awakened_minion_attacks_once_per_turn_but_not_the_hero_when_fresh():
    game = make({"minions": ["F3"]}, {"minions": [awake("L1"), awake("L1")]})
    act(game, Action("awaken", 0))
    assert legal(game, "attack") == [Action("attack", 0, 0), Action("attack", 0, 1)]
    attack(game, 0, 0)
    assert legal(game, "attack") == []
    end_turn(game)
    end_turn(game)
    assert Action("attack", 0, HERO) in legal(game)


def test_r4_2_an_awakened_minions_active_and_passive_skills_work():
    game = make({"minions": [awake("T-M08"), awake("T-M11"), awake("L1")]}, BOARD)
    assert view(game, 0)["me"]["minions"][2]["attack"] == 2       # the aura
    assert Action("skill", 1, 0) in legal(game)


# ---------------------------------------------------------------- R4.3 dying


def test_r4_3_an_item_puts_a_minion_into_dying():
    game = make({"hand": ["T-I01", "T-I01"], "minions": [awake("L1")]},
                {"minions": [awake("T-M06"), awake("D2")]})
    act(game, Action("item", 0))                             # D2 dies: the only match
    assert destroyed(game) == ["D2"]
    snipe = item("SNIPE", [{"do": "destroy", "target": "chosen"}])
    game = make({"hand": ["SNIPE"], "minions": [awake("L1")]}, {"minions": [awake("T-M06")]},
                snipe)
    act(game, Action("item", 0))                             # the phoenix regenerates
    assert destroyed(game) == [] and board(game, 1)[0] == "T-M06"


def test_r4_3_a_skill_puts_a_minion_into_dying():
    assassin = minion("ASSASSIN", 1, abilities=[ability("active", {"do": "destroy",
                                                                   "target": "chosen"})])
    game = make({"minions": [awake("ASSASSIN")]}, {"minions": [awake("D5"), awake("D1")]},
                assassin)
    act(game, Action("skill", 0, 0), Action("target", 1, 0))
    assert destroyed(game) == ["D5"] and view(game, 1)["me"]["graveyard"] == ["D5"]


# ---------------------------------------------------------------- R4.8 shield


def test_r4_8_shield_on_a_disadvantaged_attacker():
    game = make({"minions": [awake("T-M03")]}, {"minions": [awake("G2"), awake("L1")]})
    attack(game, 0, 0)                                     # shielded water 2 vs grass 2
    assert result(game) == (2, 2)


def test_r4_8_shield_does_not_help_the_advantaged_side():
    game = make({"minions": [awake("T-M03")]}, {"minions": [awake("F3"), awake("L1")]})
    attack(game, 0, 0)                                     # water beats fire: 4 vs 3
    assert result(game) == (4, 3)


def test_r4_8_shield_works_on_a_face_down_defender():
    """[ruling] keywords are not passives: a sleeping minion keeps its shield."""
    game = make({"minions": [awake("G3")]}, {"minions": ["T-M03", awake("L1")]})
    attack(game, 0, 0)
    assert result(game) == (3, 2)


def test_r4_8_a_granted_shield_works_too():
    game = make({"minions": [awake("F4")]}, {"minions": [awake("G3", keywords=["shield"]),
                                                         awake("L1")]})
    attack(game, 0, 0)
    assert result(game) == (4, 3)


# ---------------------------------------------------------------- R4.9 re-act


def test_r4_9_a_react_minion_that_destroys_its_target_may_attack_again():
    game = make({"minions": [awake("T-M05")]}, {"minions": [awake("L1"), awake("L2")]})
    attack(game, 0, 0)
    assert legal(game, "attack") == [Action("attack", 0, 1), Action("attack", 0, HERO)]
    attack(game, 0, "hero")
    assert hp(game, 1) == 17 and legal(game, "attack") == []


def test_r4_9_re_act_triggers_at_most_once_per_turn():
    game = make({"minions": [awake("T-M05")]},
                {"minions": [awake("L1"), awake("L1"), awake("L1"), awake("L9")]})
    attack(game, 0, 0)
    attack(game, 0, 1)
    assert legal(game, "attack") == []
    end_turn(game)
    end_turn(game)
    attack(game, 0, 2)                                     # a new turn: re-act again
    act(game, PASS)                                        # (the enemy drew a minion)
    assert legal(game, "attack") == [Action("attack", 0, 3), Action("attack", 0, HERO)]


def test_r4_9_no_re_act_without_destroying_the_target():
    game = make({"minions": [awake("T-M05")]}, {"minions": [awake("T-M06", keywords=[
        "regenerate"]), awake("L1")]})
    attack(game, 0, 0)                                     # 3 vs 4: the stalker loses
    assert legal(game, "attack") == []
    game = make({"minions": [awake("T-M05", attack_buff=3)]}, {"minions": [awake("T-M06")]})
    attack(game, 0, 0)                                     # 6 vs 4, but it regenerates
    assert legal(game, "attack") == []
    game = make({"minions": [awake("T-M05")]}, BOARD)
    attack(game, 0, "hero")
    assert legal(game, "attack") == []


def test_r4_9_the_extra_attack_of_a_fresh_minion_may_not_hit_the_hero():
    game = make({"minions": ["T-M05"]}, {"minions": [awake("L1"), awake("L1")]})
    act(game, Action("awaken", 0))
    attack(game, 0, 0)
    assert legal(game, "attack") == [Action("attack", 0, 1)]


def test_r4_9_the_extra_attack_is_optional():
    game = make({"minions": [awake("T-M05")]}, {"minions": [awake("L1"), awake("L1")]})
    attack(game, 0, 0)
    assert END in legal(game)
    end_turn(game)
    assert game.to_move == 1


# ---------------------------------------------------------------- R4.10 regenerate


def test_r4_10_regenerate_keeps_the_awakened_state():
    game = make({"minions": [awake("W5")]}, {"minions": [awake("T-M06")]})
    attack(game, 0, 0)                                     # water beats fire: 10 vs 4
    assert board(game, 1) == ["T-M06", None, None, None, None]
    assert view(game, 1)["me"]["minions"][0]["awake"]


def test_r4_10_regenerate_keeps_the_sleeping_state():
    game = make({"minions": [awake("W5")]}, {"minions": ["T-M06"]})
    attack(game, 0, 0)
    assert not view(game, 1)["me"]["minions"][0]["awake"]
    assert board(game, 1, viewer=0)[0] == "T-M06"


def test_r4_10_regenerate_restores_the_buffs_it_had_before_the_combat():
    pumped = combat_start("PUMPED", {"do": "attack", "amount": 3, "target": "self"},
                          keywords=["regenerate"])             # +3 permanently, in combat
    game = make({"minions": [awake("PUMPED", attack_buff=1)]},
                {"minions": [awake("D9"), awake("L1")]}, pumped)
    attack(game, 0, 0)
    assert result(game) == (6, 9)
    assert view(game, 0)["me"]["minions"][0]["attack"] == 3     # 2 printed + 1, not + 4


def test_r4_10_regenerate_keeps_buffs_from_before_a_combat_without_combat_skills():
    """With no combat-start skill, nothing changes before the judgement: the regenerated
    minion keeps its buffs and granted keywords exactly."""
    game = make({"minions": [awake("W5")]},
                {"minions": [awake("T-M06", attack_buff=2, keywords=["regenerate", "react"])]})
    attack(game, 0, 0)                                     # water beats fire: 10 vs 6
    me = view(game, 1)["me"]["minions"][0]
    assert board(game, 1)[0] == "T-M06" and me["attack"] == 6
    assert me["keywords"] == ["react", "regenerate"]


def test_r4_10_regenerate_drops_keywords_gained_during_the_combat():
    """A keyword granted at combat start is a buff from the combat: it does not survive."""
    eager = combat_start("EAGER", {"do": "grant_keyword", "keyword": "react", "target": "self"},
                         keywords=["regenerate"])
    game = make({"minions": [awake("EAGER", keywords=["regenerate", "shield"])]},
                {"minions": [awake("D9"), awake("L1")]}, eager)
    attack(game, 0, 0)
    assert board(game, 0)[0] == "EAGER"
    assert view(game, 0)["me"]["minions"][0]["keywords"] == ["regenerate", "shield"]


def test_r4_10_regenerate_works_at_most_once_per_turn():
    game = make({"minions": [awake("W5"), awake("W6")]}, {"minions": [awake("T-M06")]})
    attack(game, 0, 0)
    assert board(game, 1)[0] == "T-M06"
    attack(game, 1, 0)
    assert board(game, 1)[0] is None and destroyed(game) == ["T-M06"]


def test_r4_10_regenerate_works_again_on_a_later_turn():
    game = make({"minions": [awake("W5")]}, {"minions": [awake("T-M06")]})
    attack(game, 0, 0)
    end_turn(game)
    end_turn(game)
    attack(game, 0, 0)
    assert board(game, 1)[0] == "T-M06" and len(events(game, "regenerate")) == 2


def test_r4_10_a_regenerating_loser_does_not_stop_the_winner():
    game = make({"minions": [awake("T-M06")]}, {"minions": [awake("L9"), awake("L1")]})
    attack(game, 0, 0)
    assert board(game, 0)[0] == "T-M06" and board(game, 1)[0] == "L9"
    assert view(game, 0)["me"]["minions"][0]["awake"]
    assert hand(game, 0) == []
