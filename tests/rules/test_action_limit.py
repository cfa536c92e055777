"""Every game ends: a turn's main phase has an action limit (a ruleset option)."""

from rules.engine import CardDef, DeckList, Ruleset
from rules.lab.match import run_match


def looping_set() -> dict[str, CardDef]:
    """A free minion that a face-down trap keeps bouncing back to hand: place, awaken and
    attack could go on forever within one turn."""
    cards = [
        {"code": "HERO", "kind": "hero", "name_en": "Hero", "name_zh": "英雄", "hp": 40,
         "attribute": "light"},
        {"code": "M1", "kind": "minion", "name_en": "Pup", "name_zh": "幼犬", "cost": 0,
         "attack": 1, "attribute": "grass"},
        {"code": "M2", "kind": "minion", "name_en": "Trap", "name_zh": "陷阱", "cost": 2,
         "attack": 1, "attribute": "water",
         "abilities": [{"trigger": "combat_start", "sleeping": True, "effects": [
             {"do": "skip_combat", "effects": [
                 {"do": "return_to_hand", "target": "combat_enemy"}]}]}]},
        {"code": "M3", "kind": "minion", "name_en": "Lamp", "name_zh": "灯", "cost": 5,
         "attack": 1, "attribute": "light"},
    ]
    return {c["code"]: CardDef.from_dict(c) for c in cards}


def test_r2_2_3_a_turn_has_an_action_limit_so_loops_end():
    """Rule: R2.2.3 — [ruling] after ruleset.action_limit main-phase actions only "end" is
    legal, so a free minion bounced back to hand cannot loop a turn forever."""
    cards = looping_set()
    bouncer = DeckList.from_counts("HERO", {"M1": 15, "M3": 15})
    traps = DeckList.from_counts("HERO", {"M2": 30})
    stats = run_match(cards, bouncer, traps, games=4, seed=1, agent_a="greedy",
                      agent_b="greedy", ruleset=Ruleset(action_limit=50))
    assert stats.errors == 0
    assert stats.completed == 4


def test_the_event_log_names_the_item_whose_ability_resolves():
    from rules.decks.cardset import TEST_SET, load_card_set
    from rules.engine import Game

    cards = load_card_set(TEST_SET).cards
    game = Game.from_snapshot({"players": [
        {"hero": "T-H01", "hand": ["T-I02"], "minions": [{"card": "T-M01", "awake": True}]},
        {"hero": "T-H02", "minions": [{"card": "T-M02"}]}]}, cards)
    game.apply({"kind": "item", "card": 0})
    used = [e for e in game.events if e["t"] == "ability"]
    assert used == [{"player": 0, "source": "T-I02", "trigger": "use", "t": "ability"}]
