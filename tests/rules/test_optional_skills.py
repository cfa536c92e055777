"""Optional skills: an awaken skill (R4.4) and last words (R4.5) *may* be used (可选择发动), so
the engine asks the minion's controller to use or decline them (ruling R6.1)."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from rules.ai.agents import make_agent
from rules.ai.greedy import GreedyAgent
from rules.ai.random_agent import RandomAgent
from rules.ai.search import SearchAgent
from rules.decks.cardset import CORE_SET, load_card_set
from rules.engine import Action, Ruleset
from rules.engine.actions import DECLINE, PASS, USE
from rules.engine.replay import replay_game
from rules.lab.match import game_seed, play_game
from tests.rules.helpers import (
    ability,
    ability_sources,
    act,
    awake,
    events,
    hand,
    hp,
    make,
    minion,
    view,
)

BOARD = {"minions": [awake("L1")]}
ALWAYS = {"always_use_optional_skills": True}


def awaken_squire(**top):
    """Dawn Squire (T-M04, awaken: draw 1) is awakened: the question stands."""
    game = make({"minions": [awake("L1"), "T-M04"], "deck": ["F1"]}, BOARD, **top)
    game.apply(Action("awaken", 1))
    return game


def kill_grave_whisper(**top):
    """P1 destroys the enemy's Grave Whisper (T-M07, last words: 2 damage)."""
    game = make({"minions": [awake("L3")]}, {"minions": [awake("T-M07"), awake("D1")]}, **top)
    game.apply(Action("attack", 0, 0))
    game.apply(PASS)                                         # R2.4.1 comes first
    return game


def test_r4_4_an_awaken_skill_is_offered_and_resolves_when_used():
    game = awaken_squire()
    assert (game.decision.kind, game.to_move) == ("optional", 0)
    assert game.legal_actions() == [USE, DECLINE]
    assert hand(game, 0) == []                              # nothing has resolved yet
    game.apply(USE)
    assert hand(game, 0) == ["F1"] and ability_sources(game) == ["T-M04"]
    assert game.decision.kind == "main"


def test_r4_4_a_declined_awaken_skill_does_not_resolve():
    game = awaken_squire()
    game.apply(DECLINE)
    assert hand(game, 0) == [] and ability_sources(game) == []
    assert events(game, "declined") == [{"t": "declined", "player": 0, "source": "T-M04",
                                         "trigger": "awaken"}]
    assert view(game, 0)["me"]["minions"][1]["awake"]        # the minion is awake all the same


def test_r4_5_last_words_are_offered_to_their_controller_on_the_enemys_turn():
    game = kill_grave_whisper()
    assert (game.decision.kind, game.to_move, game.active) == ("optional", 1, 0)
    game.apply(DECLINE)
    assert hp(game, 0) == 20
    game = kill_grave_whisper()
    game.apply(USE)
    assert hp(game, 0) == 18


def test_r6_1_each_skill_is_its_own_question_in_rule_order():
    """Rule: R6.1, R2.4.4 — BOOM's awaken skill destroys two Grave Whispers: BOOM's skill is
    one question, then each last words is one, left to right."""
    boom = minion("BOOM", 1, abilities=[ability("awaken", {"do": "destroy", "target": {
        "pick": "all", "side": "ally", "other": True}})])
    game = make({"minions": [awake("T-M07"), awake("T-M07"), "BOOM"]}, BOARD, boom)
    game.apply(Action("awaken", 2))
    assert game.snapshot()["decision"]["card"] == "BOOM"
    game.apply(USE)
    offers = []
    while game.decision.kind in ("optional", "replenish"):
        if game.decision.kind == "replenish":
            game.apply(PASS)
            continue
        offers.append(game.snapshot()["decision"])
        game.apply(USE if offers[1:] else DECLINE)
    assert [(o["card"], o["trigger"]) for o in offers] == [("T-M07", "last_words")] * 2
    assert hp(game, 1) == 18                                 # only the second was used


def test_r6_1_no_question_when_the_skill_could_do_nothing():
    """Rule: R6.1 — the test an item or active skill passes to be offered (R2.2.3)."""
    tide = minion("TIDE", 2, abilities=[ability("awaken", {"do": "return_to_hand", "target": {
        "pick": "chosen", "side": "enemy", "filter": {"attack_min": 9}}})])
    gated = minion("GATED", 2, abilities=[ability("awaken", {"do": "draw", "count": 1},
                                                  **{"if": {"hero_hp": "own", "max": 10}})])
    for card in ("TIDE", "GATED"):
        game = make({"minions": [awake("L1"), card], "deck": ["F1"]}, BOARD, tide, gated)
        game.apply(Action("awaken", 1))
        assert game.decision.kind == "main", card            # no chosen target, condition off
        assert hand(game, 0) == []


def test_r6_1_a_condition_on_hidden_cards_is_asked_either_way():
    """Rule: R6.1 — whether it is asked must not tell what the enemy's hand holds."""
    spy = minion("SPY", 2, abilities=[ability("awaken", {"do": "draw", "count": 1}, **{"if": {
        "count": {"zone": "hand", "side": "enemy", "filter": {"kind": "minion"}}, "min": 1}})])
    for card in ("D1", "T-I02"):
        game = make({"minions": [awake("L1"), "SPY"], "deck": ["F1"]},
                    {"hand": [card], **BOARD}, spy)
        game.apply(Action("awaken", 1))
        assert game.decision.kind == "optional"


def test_r6_1_always_use_optional_skills_resolves_them_unasked():
    game = awaken_squire(ruleset=ALWAYS)
    assert game.decision.kind == "main" and hand(game, 0) == ["F1"]
    game = kill_grave_whisper(ruleset=ALWAYS)
    assert hp(game, 0) == 18


def test_r6_1_the_offer_is_in_the_deciders_view_and_the_snapshot():
    game = kill_grave_whisper()
    seen = game.view(1)
    assert seen.offer[0].code == "T-M07" and seen.offer[1]["trigger"] == "last_words"
    assert view(game, 1)["offer"] == {"card": "T-M07", "trigger": "last_words"}
    assert view(game, 1)["legal_actions"] == [{"kind": "use"}, {"kind": "decline"}]
    assert game.view(0).offer is None and view(game, 0)["legal_actions"] == []
    assert game.snapshot()["decision"] == {"kind": "optional", "player": 1, "card": "T-M07",
                                           "trigger": "last_words"}
    game.apply({"kind": "decline"})                            # the JSON form works too
    assert hp(game, 0) == 20


def test_r6_1_a_declined_skill_replays_to_the_same_game():
    game = awaken_squire()
    act(game, DECLINE, Action("end"))
    again = replay_game(game.log(), game.cards)
    assert again.events == game.events and hand(again, 0) == []


# ------------------------------------------------------------------ the agents


def test_r6_1_greedy_uses_a_skill_unless_it_can_tell_it_is_harmful():
    agent, rng = GreedyAgent(), random.Random(1)
    game = awaken_squire()
    assert agent.choose(game.view(0), game.legal_actions(), rng) == USE
    empty = make({"minions": [awake("L1"), "T-M04"], "deck": []}, BOARD)
    empty.apply(Action("awaken", 1))                         # a draw from an empty deck
    assert agent.choose(empty.view(0), empty.legal_actions(), rng) == DECLINE
    game = kill_grave_whisper()
    assert agent.choose(game.view(1), game.legal_actions(), rng) == USE
    state = rng.getstate()
    agent.choose(game.view(1), game.legal_actions(), rng)
    assert rng.getstate() == state                           # no tie-break drawn


@pytest.mark.parametrize(("effect", "my_hp", "answer"), [
    ({"do": "damage_hero", "amount": 2}, 20, USE),
    ({"do": "damage_hero", "amount": 2, "hero": "own"}, 20, DECLINE),
    ({"do": "damage_hero", "amount": 2, "hero": "both"}, 20, USE),      # even
    ({"do": "damage_hero", "amount": 2, "hero": "both"}, 2, DECLINE),   # but it kills us
    ({"do": "heal_hero", "amount": 3, "hero": "enemy"}, 20, DECLINE),
    ({"do": "discard", "count": 1, "player": "own"}, 20, DECLINE),
    ({"do": "draw", "count": 2, "player": "enemy"}, 20, DECLINE),       # feeds the enemy
    ({"do": "draw", "count": 4, "player": "enemy"}, 20, USE),           # 2 cards, 2 HP: even
])
def test_r6_1_what_greedy_can_tell_is_harmful(effect, my_hp, answer):
    card = minion("SKILL", 2, abilities=[ability("awaken", effect)])
    game = make({"minions": [awake("L1"), "SKILL"], "hp": my_hp, "hand": ["F1"]},
                {"hp": 15, "deck": ["F1", "F2"], **BOARD}, card)
    game.apply(Action("awaken", 1))
    assert GreedyAgent().choose(game.view(0), game.legal_actions(), random.Random(0)) == answer


def test_r6_1_search_answers_with_the_greedy_policy_and_random_picks_either():
    empty = make({"minions": [awake("L1"), "T-M04"], "deck": []}, BOARD)
    empty.apply(Action("awaken", 1))
    assert SearchAgent().choose(empty.view(0), empty.legal_actions(), random.Random(2)) \
        == DECLINE
    picks = {RandomAgent().choose(None, [USE, DECLINE], random.Random(s)) for s in range(20)}
    assert picks == {USE, DECLINE}


def test_r6_1_greedy_plays_the_games_it_played_before_skills_were_asked():
    """Rule: R6.1 — greedy-vs-greedy under the standard rules plays, action for action, the
    game it plays when every optional skill is used unasked, but for the questions themselves
    (answered "use", with no draw of its RNG) and what follows a decline."""
    card_set = load_card_set(CORE_SET)
    decks = list(card_set.decks.values())
    agent = make_agent("greedy")
    pairings = list(itertools.permutations(decks, 2))
    asked = declined = 0
    for index in range(24):
        deck_a, deck_b = pairings[index % len(pairings)]
        games = [play_game(card_set.cards, deck_a, deck_b, seed=game_seed(5, index),
                           a_first=index % 2 == 0, agent_a=agent, agent_b=agent, log=True,
                           ruleset=Ruleset.from_dict(rules))
                 for rules in ({}, ALWAYS)]
        asked_actions = [a for a in games[0].log["actions"] if a["kind"] in ("use", "decline")]
        asked += len(asked_actions)
        if any(a["kind"] == "decline" for a in asked_actions):
            declined += 1
            continue
        plain = [a for a in games[0].log["actions"] if a["kind"] != "use"]
        assert plain == games[1].log["actions"]
        unasked = [e for e in games[0].log["events"] if e != {"t": "action", "player": e.get(
            "player"), "kind": "use"}]
        assert json.dumps(unasked) == json.dumps(games[1].log["events"])
        assert (games[0].winner, games[0].turns) == (games[1].winner, games[1].turns)
    assert asked > 0 and declined < 24


def test_r6_1_a_log_from_before_skills_were_asked_replays_as_played():
    """A version-1 log (every optional skill used unasked) replays to the same game."""
    card_set = load_card_set(CORE_SET)
    decks = list(card_set.decks.values())
    old = play_game(card_set.cards, decks[2], decks[1], seed=11, a_first=True,
                    agent_a=GreedyAgent(), agent_b=GreedyAgent(), log=True,
                    ruleset=Ruleset.from_dict(ALWAYS)).log
    assert any(e["t"] == "ability" and e["trigger"] in ("awaken", "last_words")
               for e in old["events"])
    old["version"] = 1
    del old["start"]["ruleset"]["always_use_optional_skills"]   # the option did not exist
    assert replay_game(old, card_set.cards).events == old["events"]
