"""The effect vocabulary: every effect term, trigger, target pick, condition and amount behaves
as its doc in ability_language.py says. One scenario per term; each names the rule it serves."""

from __future__ import annotations

import pytest

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


def use(effects: list, me: dict | None = None, foe: dict | None = None, *extra, **fields):
    """A game where player 0 has just used an item doing ``effects`` (answer nothing yet)."""
    thing = item("THING", effects, **fields)
    me = {**BOARD, **(me or {})}
    me["hand"] = ["THING", *me.get("hand", [])]
    game = make(me, {**BOARD, **(foe or {})}, thing, *extra)
    act(game, Action("item", 0))
    return game


def attacks(game, seat: int) -> list[int | None]:
    return [None if m is None else m.get("attack") for m in view(game, seat)["me"]["minions"]]


def keywords(game, seat: int, slot: int) -> list[str]:
    return view(game, seat)["me"]["minions"][slot]["keywords"]


# ---------------------------------------------------------------- hero and energy terms


def test_damage_hero_hits_the_enemy_hero_by_default():
    """Rule: R3.1 — effect damage_hero."""
    game = use([{"do": "damage_hero", "amount": 3}])
    assert hp(game, 1) == 17 and hp(game, 0) == 20


def test_damage_hero_can_hit_its_own_or_both_heroes():
    """Rule: R3.1 — effect damage_hero, hero: own / both."""
    assert hp(use([{"do": "damage_hero", "amount": 2, "hero": "own"}]), 0) == 18
    game = use([{"do": "damage_hero", "amount": 2, "hero": "both"}])
    assert (hp(game, 0), hp(game, 1)) == (18, 18)


def test_heal_hero_restores_hp_but_never_above_the_cards_hp():
    """Rule: R1.1 — effect heal_hero (the hero's HP counter)."""
    assert hp(use([{"do": "heal_hero", "amount": 3}], {"hp": 12}), 0) == 15
    assert hp(use([{"do": "heal_hero", "amount": 3}], {"hp": 19}), 0) == 20
    assert hp(use([{"do": "heal_hero", "amount": 3, "hero": "enemy"}], {}, {"hp": 5}), 1) == 8


def test_energy_changes_this_turns_energy():
    """Rule: R2.2.2 — effect energy."""
    game = use([{"do": "energy", "amount": 2}], {"energy": 3})
    assert view(game, 0)["me"]["energy"] == 5
    end_turn(game)
    end_turn(game)
    assert view(game, 0)["me"]["energy"] == 5             # refilled, not 7


# ---------------------------------------------------------------- minion terms


def test_destroy_offers_only_the_minions_that_match_its_filter():
    """Rule: R4.3 — effect destroy (Fire Bolt: attack 3 or less)."""
    game = make({"hand": ["T-I01"], **BOARD},
                {"minions": [awake("D3"), awake("D4"), awake("D1")]})
    act(game, Action("item", 0))
    assert legal(game) == [Action("target", 1, 0), Action("target", 1, 2)]
    act(game, Action("target", 1, 2))
    assert board(game, 1) == ["D3", "D4", None, None, None]


def test_attack_this_turn_ends_with_the_turn():
    """Rule: R2.3.4 — effect attack, duration turn (Battle Cry: +2 to all allies)."""
    game = make({"hand": ["T-I03"], "minions": [awake("L1"), "L2"]}, BOARD)
    act(game, Action("item", 0))
    assert attacks(game, 0)[:2] == [3, 4]
    assert attacks(game, 1)[0] == 1                        # allies only
    end_turn(game)
    assert attacks(game, 0)[:2] == [1, 2]


def test_attack_permanent_lasts():
    """Rule: R2.3.4 — effect attack, duration permanent (the default)."""
    game = use([{"do": "attack", "amount": -1, "target": {"pick": "all", "side": "enemy"}}],
               {}, {"minions": [awake("D3")]})
    end_turn(game)
    end_turn(game)
    assert attacks(game, 1)[0] == 2


def test_attack_in_an_aura_holds_while_its_source_is_awake():
    """Rule: R4.7 — effect attack in an aura (Banner Knight: +1 to other allies)."""
    game = make({"hand": ["T-I01"], "minions": [awake("T-M08"), awake("L1")]},
                {"hand": ["T-I01"], "minions": [awake("D1"), awake("D5")]})
    assert attacks(game, 0)[:2] == [2, 2] and attacks(game, 1)[:2] == [1, 5]
    end_turn(game)
    act(game, Action("item", 0), Action("target", 0, 0))    # Fire Bolt the knight
    assert attacks(game, 0)[:2] == [None, 1]


def test_grant_keyword_for_this_turn_or_for_good():
    """Rule: R4.8 — effect grant_keyword."""
    game = use([{"do": "grant_keyword", "keyword": "shield", "target": "chosen",
                 "duration": "turn"},
                {"do": "grant_keyword", "keyword": "react", "target": {"pick": "chosen",
                                                                      "side": "ally"}}],
               {}, {"minions": [awake("D1")]})
    assert keywords(game, 1, 0) == ["shield"]
    assert keywords(game, 0, 0) == ["react"]
    end_turn(game)
    assert keywords(game, 1, 0) == [] and keywords(game, 0, 0) == ["react"]


def test_keywords_granted_and_removed_on_a_copy_leave_the_original_as_it_was():
    """Rule: R4.8 — a search plays on copies, whose minions share their keyword sets with the
    original's until one changes: a grant or removal on the copy changes the copy alone."""
    effects = [{"do": "grant_keyword", "keyword": "react", "target": {"pick": "all",
                                                                      "side": "ally"}},
               {"do": "grant_keyword", "keyword": "shield", "target": {"pick": "all",
                                                                       "side": "ally"},
                "duration": "turn"},
               {"do": "remove_keyword", "keyword": "shield", "target": {"pick": "all",
                                                                        "side": "enemy"}}]
    game = make({"hand": ["GIFT"], **BOARD}, {"minions": [awake("T-M03")]},
                item("GIFT", effects))
    clone = game.copy()
    act(clone, Action("item", 0))
    assert keywords(clone, 0, 0) == ["react", "shield"] and keywords(clone, 1, 0) == []
    assert keywords(game, 0, 0) == [] and keywords(game, 1, 0) == ["shield"]
    act(game, Action("item", 0))
    assert keywords(game, 0, 0) == ["react", "shield"] and keywords(game, 1, 0) == []


def test_remove_keyword_takes_a_printed_keyword_away():
    """Rule: R4.10 — effect remove_keyword (then the phoenix cannot regenerate)."""
    game = make({"hand": ["STRIP", "SNIPE"], **BOARD}, {"minions": [awake("T-M06"),
                                                                    awake("D1")]},
                item("STRIP", [{"do": "remove_keyword", "keyword": "regenerate",
                                "target": "leftmost"}]),
                item("SNIPE", [{"do": "destroy", "target": "leftmost"}]))
    act(game, Action("item", 0))
    assert keywords(game, 1, 0) == []
    act(game, Action("item", 0))
    assert board(game, 1)[0] is None


def test_remove_keyword_for_this_turn_comes_back():
    """Rule: R4.8 — effect remove_keyword, duration turn."""
    game = use([{"do": "remove_keyword", "keyword": "shield", "target": "leftmost",
                 "duration": "turn"}], {}, {"minions": [awake("T-M03")]})
    assert keywords(game, 1, 0) == []
    end_turn(game)
    assert keywords(game, 1, 0) == ["shield"]


def test_return_to_hand_sends_a_minion_to_its_controllers_hand_without_its_buffs():
    """Rule: R2.4.2 — effect return_to_hand."""
    game = use([{"do": "return_to_hand", "target": "chosen"}], {},
               {"minions": [awake("D2", attack_buff=3), awake("D1")]})
    act(game, Action("target", 1, 0))
    assert hand(game, 1) == ["D2"] and board(game, 1)[0] is None
    assert view(game, 1)["me"]["graveyard"] == [] and events(game, "ability") != []


def test_summon_from_hand_puts_a_chosen_minion_into_the_leftmost_empty_slot():
    """Rule: R2.2.3 — effect summon, from hand (sleeping unless awake)."""
    game = use([{"do": "summon", "from": "hand"}], {"hand": ["T-I02", "F3", "W2"]})
    assert game.decision.kind == "pick"
    assert legal(game) == [Action("pick", 1), Action("pick", 2)]     # minions only
    act(game, Action("pick", 2))
    assert board(game, 0)[:2] == ["L1", "W2"]
    assert not view(game, 0)["me"]["minions"][1]["awake"]
    assert board(game, 0, viewer=1)[1] == "?"


def test_summon_awake_is_not_awakening():
    """Rule: R4.4 — a minion summoned awake skips its awaken skill and the hero that turn."""
    game = use([{"do": "summon", "from": "hand", "awake": True}], {"hand": ["T-M04"]})
    act(game, Action("pick", 0))
    assert view(game, 0)["me"]["minions"][1]["awake"]
    assert events(game, "draw") == []                     # Dawn Squire's awaken skill
    assert legal(game, "attack") == [Action("attack", 0, 0), Action("attack", 0, HERO),
                                     Action("attack", 1, 0)]


def test_summon_from_deck_takes_matching_minions_while_slots_are_free():
    """Rule: R2.2.3 — effect summon, from deck, with a filter and a count."""
    game = use([{"do": "summon", "from": "deck", "filter": {"race": "dragon"}, "count": 3}],
               {"deck": ["F1", "T-M06", "T-M01", "T-M12", "T-M06"],
                "minions": [awake("L1"), "L1", "L1"]})
    me = view(game, 0)["me"]
    placed = sorted(board(game, 0)[3:])
    assert len(placed) == 2 and set(placed) <= {"T-M06", "T-M12"}    # only 2 free slots
    assert me["deck_size"] == 3 and "T-M01" in me["deck_contents"]


def test_awaken_effect_is_free_and_triggers_the_awaken_skill():
    """Rule: R4.4 — effect awaken."""
    game = use([{"do": "awaken", "target": {"pick": "chosen", "side": "ally",
                                            "filter": {"awake": False}}}],
               {"energy": 2, "minions": [awake("L1"), "T-M04"], "deck": ["F1"]})
    assert view(game, 0)["me"]["minions"][1]["awake"]
    assert view(game, 0)["me"]["energy"] == 2 and hand(game, 0) == ["F1"]


def test_mind_control_takes_an_enemy_minion_into_the_leftmost_empty_slot():
    """Rule: R2.4.2 — effect mind_control (Dark Pact: an awakened enemy)."""
    game = make({"hand": ["T-I04"], "minions": [awake("L1"), None, awake("L1")]},
                {"minions": [awake("D3"), awake("D1")]})
    act(game, Action("item", 0), Action("target", 1, 0))
    assert board(game, 0)[:3] == ["L1", "D3", "L1"] and board(game, 1)[0] is None
    assert {a.a for a in legal(game, "attack")} == {0, 2}  # [ruling] not on the turn it came


def test_mind_control_is_for_the_rest_of_the_game():
    """Rule: R2.4.2 — its last words now hurt its old owner; its death is its new side's."""
    grave = minion("GRAVE", 1, abilities=[ability("last_words",
                                                  {"do": "damage_hero", "amount": 3})])
    sacrifice = item("SAC", [{"do": "destroy", "target": {"pick": "chosen", "side": "ally"}}])
    game = make({"hand": ["T-I04", "SAC", "W1"], **BOARD},
                {"minions": [awake("GRAVE"), awake("D1")]}, grave, sacrifice)
    act(game, Action("item", 0), Action("target", 1, 0))
    act(game, Action("item", 0), Action("target", 0, 1))     # sacrifice our own GRAVE
    assert (game.decision.kind, game.to_move) == ("replenish", 0)
    act(game, PASS)
    assert hp(game, 1) == 17 and hp(game, 0) == 20
    assert view(game, 0)["me"]["graveyard"] == ["T-I04", "GRAVE", "SAC"]


def test_mind_control_without_an_empty_slot_does_nothing():
    """Rule: R2.4.2 — [ruling] no room: the minion stays where it is."""
    full = {"hand": ["T-I04"], "minions": [awake("L1")] * 5}
    game = make(full, {"minions": [awake("D3")]})
    act(game, Action("item", 0))
    assert board(game, 1)[0] == "D3" and not game.over


def test_mind_control_taken_sleeping_and_awakened_still_cannot_attack_that_turn():
    """Rule: R2.4.2 — [ruling] a minion cannot attack on the turn it changes sides."""
    take = item("TAKE", [{"do": "mind_control", "target": "leftmost"}])
    game = make({"hand": ["TAKE"], **BOARD}, {"minions": ["F1", awake("D1")]}, take)
    act(game, Action("item", 0), Action("awaken", 1))
    assert board(game, 0)[1] == "F1" and view(game, 0)["me"]["minions"][1]["awake"]
    assert {a.a for a in legal(game, "attack")} == {0}


def test_mind_control_a_minion_that_used_its_skill_last_turn_may_use_it_now():
    """Rule: R4.6 — once per turn: what it did on its old controller's turn does not count."""
    game = make({"hand": ["T-I04"], **BOARD}, {"minions": [awake("T-M11"), awake("D1")]},
                active=1, turn=4)
    act(game, Action("skill", 0, 0), Action("target", 1, 1))   # the drummer's own turn
    end_turn(game)
    act(game, Action("item", 0), Action("target", 1, 0))         # Dark Pact takes it
    assert board(game, 0)[1] == "T-M11"
    assert legal(game, "skill") == [Action("skill", 1, 0)]


def test_skip_combat_resolves_its_text_instead_of_the_combat():
    """Rule: R2.3.6 — effect skip_combat (Vine Trapper, here awake and defending)."""
    game = make({"minions": [awake("F9"), awake("L1")]}, {"minions": [awake("T-M10")]})
    attack(game, 0, 0)
    assert hand(game, 0) == ["F9"] and board(game, 1)[0] == "T-M10"
    assert events(game, "combat_skipped") and events(game, "combat_result") == []


def test_choose_asks_for_one_option_and_resolves_only_it():
    """Rule: R4.11 — effect choose (Crossroads: draw 1 or heal 3)."""
    game = make({"hand": ["T-I05"], "hp": 10, "deck": ["F1"], **BOARD}, BOARD)
    act(game, Action("item", 0))
    assert game.decision.kind == "choose" and legal(game) == [Action("choose", 0),
                                                              Action("choose", 1)]
    act(game, Action("choose", 1))
    assert hp(game, 0) == 13 and hand(game, 0) == []


# ---------------------------------------------------------------- hand terms


def test_draw_can_make_the_enemy_draw():
    """Rule: R2.4.3 — effect draw, player enemy."""
    game = use([{"do": "draw", "count": 2, "player": "enemy"}], {}, {"deck": ["D1", "D2"]})
    assert hand(game, 1) == ["D1", "D2"] and view(game, 0)["enemy"]["hand_size"] == 2


def test_discard_at_random_from_the_enemy_hand():
    """Rule: R1.3 — effect discard, random (the default), enemy (the default)."""
    game = use([{"do": "discard", "count": 2}], {}, {"hand": ["D1", "D2", "D3"]})
    assert len(hand(game, 1)) == 1
    assert sorted(hand(game, 1) + view(game, 1)["me"]["graveyard"]) == ["D1", "D2", "D3"]


def test_discard_chosen_lets_the_discarding_player_pick():
    """Rule: R1.3 — effect discard, pick chosen."""
    game = use([{"do": "discard", "count": 1, "pick": "chosen"}], {},
               {"hand": ["D1", "D2", "D3"]})
    assert (game.decision.kind, game.to_move) == ("pick", 1)
    act(game, Action("pick", 1))
    assert hand(game, 1) == ["D1", "D3"] and view(game, 0)["enemy"]["graveyard"] == ["D2"]


def test_display_at_random_takes_only_matching_cards():
    """Rule: R1.2 — effect display, pick random, with a filter."""
    game = use([{"do": "display", "count": 3, "pick": "random", "filter": {"kind": "minion"}}],
               {"hand": ["T-I02", "F1", "T-I03", "W2"]})
    assert sorted(view(game, 0)["me"]["display"]) == ["F1", "W2"]
    assert hand(game, 0) == ["T-I02", "T-I03"]


def test_skip_draw_skips_the_enemys_next_draw_phase():
    """Rule: R1.2 — effect skip_draw (enemy by default)."""
    game = use([{"do": "skip_draw"}], {}, {"deck": ["D1", "D2"], "display": ["D3"]})
    end_turn(game)
    enemy = view(game, 1)["me"]
    assert enemy["hand"] == [] and enemy["deck_size"] == 2 and enemy["graveyard"] == ["D3"]
    end_turn(game)
    end_turn(game)
    assert hand(game, 1) == ["D1"]                        # only the next one


# ---------------------------------------------------------------- triggers


def test_trigger_awaken_fires_when_awakened_by_energy():
    """Rule: R4.4 — trigger awaken (Dawn Squire draws 1)."""
    game = make({"minions": [awake("L1"), "T-M04"], "deck": ["F1"]}, BOARD)
    act(game, Action("awaken", 1))
    assert hand(game, 0) == ["F1"] and ability_sources(game) == ["T-M04"]


def test_trigger_last_words_fires_when_destroyed_but_not_when_returned():
    """Rule: R4.5 — trigger last_words (Grave Whisper: 2 damage)."""
    game = make({"minions": [awake("L3")]}, {"minions": [awake("T-M07"), awake("D1")]})
    attack(game, 0, 0)
    assert hp(game, 0) == 18
    game = use([{"do": "return_to_hand", "target": "leftmost"}], {},
               {"minions": [awake("T-M07"), awake("D1")]})
    assert hp(game, 0) == 20 and hand(game, 1) == ["T-M07"]


def test_trigger_last_words_of_a_sleeping_minion():
    """Rule: R4.5 — [ruling] last words are not a passive: they work face down too."""
    game = make({"minions": [awake("L3")]}, {"minions": ["T-M07", awake("D1")]})
    attack(game, 0, 0)
    assert hp(game, 0) == 18


def test_trigger_active_once_per_turn_also_on_the_awaken_turn():
    """Rule: R4.6 — trigger active (War Drummer: +2 this turn to a chosen ally)."""
    game = make({"minions": ["T-M11", awake("L1")]}, BOARD)
    assert legal(game, "skill") == []
    act(game, Action("awaken", 0))
    assert legal(game, "skill") == [Action("skill", 0, 0)]
    act(game, Action("skill", 0, 0), Action("target", 0, 1))
    assert attacks(game, 0)[:2] == [2, 3] and legal(game, "skill") == []
    end_turn(game)
    end_turn(game)
    assert legal(game, "skill") == [Action("skill", 0, 0)]


def test_trigger_active_costs_its_energy():
    """Rule: R4.6 — an active skill's cost is paid in energy (R2.2.3 energy ≥ 0)."""
    sage = minion("SAGE", 1, abilities=[ability("active", {"do": "draw", "count": 1},
                                                cost=3)])
    game = make({"energy": 2, "minions": [awake("SAGE")]}, BOARD, sage)
    assert legal(game, "skill") == []
    game = make({"energy": 4, "minions": [awake("SAGE")], "deck": ["F1"]}, BOARD, sage)
    act(game, Action("skill", 0, 0))
    assert view(game, 0)["me"]["energy"] == 1 and hand(game, 0) == ["F1"]


def test_trigger_aura_with_a_condition_and_on_a_hero():
    """Rule: R4.7 — trigger aura: on while its `if` holds; a hero's aura is always on."""
    banner = hero("BANNER", abilities=[ability(
        "aura", {"do": "grant_keyword", "keyword": "shield",
                 "target": {"pick": "all", "side": "ally"}},
        **{"if": {"count": {"zone": "minions", "side": "ally"}, "min": 2}})])
    game = make({"hero": "BANNER", "hand": ["F1"], **BOARD}, BOARD, banner)
    assert keywords(game, 0, 0) == []
    act(game, Action("place", 0, 1))
    assert keywords(game, 0, 0) == ["shield"]


def test_trigger_aura_amount_may_count_minions_by_a_filter():
    """Rule: R4.7 — an aura's amount counting minions (this once recursed without end)."""
    pack = minion("PACK", 1, race="beast", abilities=[ability(
        "aura", {"do": "attack", "amount": {"count": {"zone": "minions",
                                                      "filter": {"race": "beast"}}},
                 "target": {"pick": "all", "side": "ally", "other": True}})])
    game = make({"minions": [awake("PACK"), awake("T-M01"), awake("L1")]}, BOARD, pack)
    assert attacks(game, 0)[:3] == [1, 4, 3]


def test_aura_counting_awake_minions_follows_each_board_change():
    """Rule: R4.7 — an aura whose condition counts the board turns on the moment a minion
    wakes and off the moment one dies (what it gives is worked out afresh per board)."""
    rally = hero("RALLY", abilities=[ability(
        "aura", {"do": "attack", "amount": 1, "target": {"pick": "all", "side": "ally"}},
        **{"if": {"count": {"zone": "minions", "side": "ally", "filter": {"awake": True}},
                  "min": 2}})])
    game = make({"hero": "RALLY", "minions": [awake("L1"), {"card": "L2"}]},
                {"minions": [awake("D5")]}, rally)
    assert attacks(game, 0)[:2] == [1, 2]
    act(game, Action("awaken", 1))
    assert attacks(game, 0)[:2] == [2, 3]
    attack(game, 0, 0)                                      # 2 against 5: the L1 dies
    assert attacks(game, 0)[:2] == [None, 2]


def test_aura_counting_keywords_follows_a_keyword_granted_mid_turn():
    """Rule: R4.7 — an aura counting minions by keyword turns on when an effect grants the
    keyword, though no minion entered, left or woke."""
    guard = minion("GUARD", 1, abilities=[ability(
        "aura", {"do": "attack", "amount": 2, "target": "self"},
        **{"if": {"count": {"zone": "minions", "side": "ally", "filter": {"keyword": "shield"}},
                  "min": 1}})])
    shine = item("SHINE", [{"do": "grant_keyword", "keyword": "shield", "duration": "turn",
                            "target": {"pick": "all", "side": "ally"}}])
    game = make({"minions": [awake("GUARD")], "hand": ["SHINE"]}, BOARD, guard, shine)
    assert attacks(game, 0)[0] == 1
    act(game, Action("item", 0))
    assert keywords(game, 0, 0) == ["shield"] and attacks(game, 0)[0] == 3
    end_turn(game)
    assert attacks(game, 0)[0] == 1


def test_a_simple_aura_follows_a_minion_that_changes_sides_or_wakes():
    """Rule: R4.7, R2.4.2 — what an aura with no condition gives a minion is kept between
    board changes that cannot change it, and worked out again when the minion changes sides
    or wakes (or the auras in force change), though the auras in force stay the same."""
    horn = minion("HORN", 1, abilities=[ability(
        "aura", {"do": "attack", "amount": 1, "target": {"pick": "all", "side": "ally",
                                                         "other": True}},
        {"do": "grant_keyword", "keyword": "react",
         "target": {"pick": "all", "side": "ally", "filter": {"awake": True}}})])
    game = make({"hand": ["T-I04"], "minions": [awake("HORN"), "L2"]},
                {"minions": [awake("D3"), awake("D1")]}, horn)
    assert attacks(game, 0)[:2] == [1, 3] and attacks(game, 1)[:2] == [3, 1]
    assert keywords(game, 0, 1) == [] and keywords(game, 1, 0) == []
    act(game, Action("item", 0), Action("target", 1, 0))     # Dark Pact takes the D3
    assert attacks(game, 0)[:3] == [1, 3, 4] and keywords(game, 0, 2) == ["react"]
    act(game, Action("awaken", 1))
    assert keywords(game, 0, 1) == ["react"] and attacks(game, 0)[1] == 3


def test_trigger_turn_start_own_enemy_and_each():
    """Rule: R4.7 — trigger turn_start with whose own / enemy / each."""
    def watcher(code, whose):
        return minion(code, 1, abilities=[ability("turn_start", {"do": "damage_hero",
                                                                 "amount": 1}, whose=whose)])
    cards = [watcher("OWN", "own"), watcher("FOE", "enemy"), watcher("EACH", "each")]
    game = make({"minions": [awake("OWN"), awake("FOE"), awake("EACH")]}, BOARD, *cards,
                phase="turn_start")
    assert ability_sources(game) == ["OWN", "EACH"] and hp(game, 1) == 18
    end_turn(game)
    assert ability_sources(game)[2:] == ["FOE", "EACH"] and hp(game, 1) == 16


def test_trigger_turn_end_fires_when_the_main_phase_ends():
    """Rule: R4.7 — trigger turn_end (Tide Oracle heals 1)."""
    game = make({"hero": "T-H02", "hp": 10, **BOARD}, BOARD)
    end_turn(game)
    assert hp(game, 0) == 11
    end_turn(game)
    assert hp(game, 0) == 11                                # own turns only


def test_trigger_combat_start_as_defender():
    """Rule: R2.3.5 — trigger combat_start on an awakened defender (Tide Caller +2)."""
    game = make({"minions": [awake("L4")]}, {"minions": [awake("T-M09")]})
    attack(game, 0, 0)
    assert board(game, 0)[0] is None and board(game, 1)[0] == "T-M09"


def test_trigger_after_win_only_when_the_other_side_was_destroyed():
    """Rule: R2.3.9 — trigger after_win (Night Wyrm: 2 damage)."""
    game = make({"minions": [awake("T-M12"), awake("T-M12")]},
                {"minions": [awake("D1"), awake("T-M06")]})
    attack(game, 0, 0)
    assert hp(game, 1) == 18
    attack(game, 1, 1)                                      # the phoenix regenerates
    assert hp(game, 1) == 18
    end_turn(game)
    end_turn(game)
    attack(game, 0, "hero")                                 # no combat, no win
    assert hp(game, 1) == 12


def test_trigger_ally_dies_for_other_allies_only():
    """Rule: R2.3.9 — trigger ally_dies (Mourning Wolf: +1 permanently)."""
    game = make({"hand": ["T-I01", "T-I01"], "minions": [awake("L5"), awake("D1")]},
                {"minions": [awake("T-M13"), awake("D0"), awake("L0")]})
    attack(game, 0, 1)                                      # its ally D0 dies
    assert attacks(game, 1)[0] == 3
    act(game, Action("item", 0))                           # Fire Bolt: wolf 3 or L0
    act(game, Action("target", 1, 2))
    assert attacks(game, 1)[0] == 4
    game = make({"minions": [awake("L1"), awake("L5")]},
                {"minions": [awake("T-M13"), awake("D3")]})
    attack(game, 0, 1)                                      # an enemy of the wolf dies
    assert board(game, 0)[0] is None and attacks(game, 1)[0] == 2


def test_trigger_use_is_an_items_and_it_goes_to_the_graveyard_after():
    """Rule: R2.2.3 — trigger use."""
    game = use([{"do": "draw", "count": 1}], {"deck": ["F1"]})
    assert view(game, 0)["me"]["graveyard"] == ["THING"] and hand(game, 0) == ["F1"]


# ---------------------------------------------------------------- targets


def test_target_self_is_the_abilitys_own_minion():
    """Rule: R2.3.5 — pick self."""
    game = make({"minions": [awake("T-M09"), awake("L1")]}, {"minions": [awake("L4"),
                                                                         awake("D1")]})
    attack(game, 0, 0)
    assert events(game, "combat_result")[0]["attack"] == 5


def test_target_chosen_offers_every_candidate_and_other_excludes_the_source():
    """Rule: R4.6 — pick chosen with other."""
    healer = minion("HEAL", 1, abilities=[ability(
        "active", {"do": "attack", "amount": 1, "target": {"pick": "chosen", "side": "ally",
                                                           "other": True}})])
    game = make({"minions": [awake("HEAL"), awake("L1"), None, "L2"]}, BOARD, healer)
    act(game, Action("skill", 0, 0))
    assert legal(game) == [Action("target", 0, 1), Action("target", 0, 3)]


def test_target_chosen_with_a_single_candidate_needs_no_question():
    """Rule: R4.6 — pick chosen with one candidate."""
    game = use([{"do": "attack", "amount": 2, "target": "chosen"}], {}, {})
    assert game.decision.kind == "main" and attacks(game, 1)[0] == 3


def test_target_random_picks_count_distinct_minions_from_the_seed():
    """Rule: R2.1.2 — pick random uses the game's seeded RNG."""
    effect = [{"do": "attack", "amount": -1, "target": {"pick": "random", "count": 2}}]
    foe = {"minions": [awake("D5"), awake("D5"), awake("D5")]}
    outcomes = set()
    for seed in range(8):
        thing = item("THING", effect)
        game = make({**BOARD, "hand": ["THING"]}, foe, thing, seed=seed)
        act(game, Action("item", 0))
        hit = tuple(a == 4 for a in attacks(game, 1)[:3])
        assert sum(hit) == 2
        outcomes.add(hit)
    assert len(outcomes) > 1


def test_target_all_leftmost_and_rightmost():
    """Rule: R2.4.4 — picks all / leftmost / rightmost (with a filter)."""
    foe = {"minions": [None, awake("D1"), awake("D5"), awake("D2"), None]}
    game = use([{"do": "attack", "amount": 1, "target": "all"}], {}, foe)
    assert attacks(game, 1) == [None, 2, 6, 3, None]
    game = use([{"do": "attack", "amount": 1, "target": "leftmost"}], {}, foe)
    assert attacks(game, 1) == [None, 2, 5, 2, None]
    game = use([{"do": "attack", "amount": 1, "target": {"pick": "rightmost",
                                                         "filter": {"attack_min": 3}}}],
               {}, foe)
    assert attacks(game, 1) == [None, 1, 6, 2, None]


def test_target_adjacent_means_the_slots_beside_the_source():
    """Rule: R1.1 — pick adjacent (slots are ordered left to right)."""
    drummer = minion("DRUM", 1, abilities=[ability(
        "awaken", {"do": "attack", "amount": 2, "target": "adjacent"})])
    game = make({"minions": [awake("L1"), awake("L1"), "DRUM", awake("L1"), awake("L1")]},
                BOARD, drummer)
    act(game, Action("awaken", 2))
    assert attacks(game, 0) == [1, 3, 1, 3, 1]


def test_target_combat_enemy_is_the_other_minion_of_the_combat():
    """Rule: R2.3.5 — pick combat_enemy."""
    sap = minion("SAP", 2, abilities=[ability("combat_start", {
        "do": "attack", "amount": -2, "target": "combat_enemy", "duration": "turn"})])
    game = make({"minions": [awake("SAP")]}, {"minions": [awake("D3"), awake("D3")]}, sap)
    attack(game, 0, 0)
    assert board(game, 1) == [None, "D3", None, None, None]


def test_chosen_targets_do_not_see_a_face_down_enemys_properties():
    """Rule: R2.3.2 — a hidden card matches a chosen filter only on `awake`."""
    game = make({"hand": ["T-I01"], **BOARD}, {"minions": ["D1", awake("D2"), "D9"]})
    act(game, Action("item", 0))                           # only the known D2 qualifies
    assert board(game, 1) == ["D1", None, "D9", None, None]


# ---------------------------------------------------------------- conditions and amounts


def test_condition_count_gates_an_item():
    """Rule: R2.2.3 — an ability's `if` (count) must hold for an item to be usable."""
    rally = item("RALLY", [{"do": "draw", "count": 1}],
                 ability={"if": {"count": {"zone": "minions", "side": "ally"}, "min": 2}})
    game = make({"hand": ["RALLY", "F1"], **BOARD}, BOARD, rally)
    assert legal(game, "item") == []
    act(game, Action("place", 1, 1))
    assert legal(game, "item") == [Action("item", 0)]


def test_condition_hero_hp_gates_a_triggered_ability():
    """Rule: R4.5 — a last words with `if` hero_hp does nothing when it fails."""
    desperate = minion("DESP", 1, abilities=[ability(
        "last_words", {"do": "heal_hero", "amount": 5}, **{"if": {"hero_hp": "own",
                                                                  "max": 10}})])
    for own_hp, healed in ((10, 15), (11, 11)):
        game = make({"minions": [awake("L3")]}, {"hp": own_hp, "minions": [awake("DESP"),
                                                                           awake("D1")]},
                    desperate)
        attack(game, 0, 0)
        assert hp(game, 1) == healed


@pytest.mark.parametrize(("amount", "expected"), [
    ({"count": {"zone": "hand"}}, 3),
    ({"count": {"zone": "hand"}, "times": 2, "plus": 1}, 7),
    ({"count": {"zone": "hand"}, "times": 2, "max": 4}, 4),
    ({"count": {"zone": "minions", "side": "enemy", "filter": {"awake": True}}}, 2),
    ({"count": {"zone": "minions", "side": "any"}}, 4),
    ({"count": {"zone": "graveyard", "side": "enemy"}}, 1),
    ({"count": {"zone": "deck"}}, 5),
    ({"count": {"zone": "display", "filter": {"kind": "item"}}}, 1),
])
def test_count_amounts(amount, expected):
    """Rule: R1.1 — an amount may count cards in a zone (times, plus, max)."""
    game = use([{"do": "damage_hero", "amount": amount}],
               {"hand": ["F1", "F2", "F3"], "display": ["T-I02", "F4"]},
               {"graveyard": ["D1"], "minions": [awake("D1"), awake("D2"), "D3"]})
    assert hp(game, 1) == 20 - expected


def test_effects_resolve_in_order_and_an_unmet_target_is_skipped():
    """Rule: R2.2.3 — an item's effects resolve in the order written."""
    game = use([{"do": "destroy", "target": {"pick": "all", "filter": {"attack_min": 9}}},
                {"do": "draw", "count": 1}], {"deck": ["F1"]})
    assert hand(game, 0) == ["F1"] and board(game, 1)[0] == "L1"
    assert END in legal(game)
