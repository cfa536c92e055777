"""Hidden information: a player's view holds no face-down enemy identity, no enemy hand, no
deck order — two games that differ only in those give equal views, before and after play."""

from __future__ import annotations

import json

from rules.engine import Action, Game
from rules.engine.actions import KEEP, PASS, READY
from tests.rules.helpers import act, attack, awake, cards, deck, item, make, view

BOARD = {"minions": [awake("L1")]}
ENEMY_HIDDEN = ("T-M12", "T-M06", "T-M05", "T-M09", "T-M13")


def dump(game, seat: int) -> str:
    return json.dumps(view(game, seat), sort_keys=True)


def scenario(enemy_hand, enemy_deck, face_down, my_deck, seed=0):
    return make({"hand": ["T-I01", "T-I02"], "deck": my_deck, "minions": [awake("L3")]},
                {"hand": enemy_hand, "deck": enemy_deck,
                 "minions": [awake("D2"), face_down, awake("W2")]}, seed=seed)


def test_r1_1_a_face_down_enemy_minion_is_hidden_in_the_view():
    """Rule: R2.1.5 — placed face down: its identity is not in the enemy's view."""
    game = scenario(["T-M06"], ["T-M05"], "T-M12", ["F1", "F2"])
    seen = view(game, 0)
    assert seen["enemy"]["minions"][1] == {"slot": 1, "hidden": True, "awake": False}
    text = dump(game, 0)
    for code in ENEMY_HIDDEN:
        assert f'"{code}"' not in text
    assert seen["enemy"]["hand_size"] == 1 and seen["enemy"]["deck_size"] == 1
    assert "hand" not in seen["enemy"] and "deck_contents" not in seen["enemy"]
    mine = game.view(1).minions[1]
    assert mine.card.code == "T-M12"                     # its owner does see it
    theirs = game.view(0).enemy_minions[1]
    assert theirs.card is None and theirs.attack is None and not theirs.keywords


def test_r1_1_the_own_deck_is_known_as_contents_not_order():
    game = scenario(["T-M06"], ["T-M05"], "T-M12", ["F1", "F2", "F1"])
    seen = view(game, 0)["me"]
    assert seen["deck_contents"] == {"F1": 2, "F2": 1} and seen["deck_size"] == 3
    assert "deck" not in seen


def test_r2_3_2_games_differing_only_in_hidden_parts_give_equal_views():
    first = scenario(["T-M06", "T-M05"], ["T-M09", "T-M13"], "T-M12", ["F1", "F2", "F3"])
    second = scenario(["D7", "D8"], ["W5", "W6"], "D0", ["F3", "F1", "F2"])
    assert dump(first, 0) == dump(second, 0)
    # Fire Bolt (the face-down card never qualifies), the enemy declines to replenish, attack.
    for action in (Action("item", 0), Action("target", 1, 0), PASS, Action("attack", 0, 2),
                   PASS):
        act(first, action)
        act(second, action)
        assert dump(first, 0) == dump(second, 0)
    assert first.view(0).legal_actions() == second.view(0).legal_actions()
    assert dump(first, 1) != dump(second, 1)                 # the enemy's own view differs


def test_r2_3_2_a_revealed_minion_is_known_to_both_players_afterwards():
    game = make({"minions": [awake("L1"), awake("L1")]}, {"minions": ["T-M09"]})
    attack(game, 0, 0)                                     # 1 vs 3: the caller survives
    assert view(game, 0)["enemy"]["minions"][0]["card"] == "T-M09"


def test_r2_1_5_after_a_real_setup_no_enemy_card_leaks():
    mine = deck(*(f"F{n % 10}" for n in range(30)))
    theirs = deck(*(f"W{n % 10}" for n in range(30)))
    game = Game(cards(), [mine, theirs], seed=11, first_player=0)
    act(game, KEEP, KEEP, Action("place", 0, 0), READY, Action("place", 0, 2),
        Action("place", 0, 3), READY)
    text = dump(game, 0)
    assert not any(f'"W{n}"' in text for n in range(10))
    assert view(game, 0)["enemy"]["minions"][2] == {"slot": 2, "hidden": True, "awake": False}
    text = dump(game, 1)
    assert not any(f'"F{n}"' in text for n in range(10))


def test_r2_1_4_the_mulligan_decision_shows_only_the_deciders_hand():
    mine = deck(*(f"F{n % 10}" for n in range(30)))
    theirs = deck(*(f"W{n % 10}" for n in range(30)))
    game = Game(cards(), [mine, theirs], seed=12, first_player=0)
    seen = view(game, 1)
    assert seen["legal_actions"] == []                     # not their decision
    assert not any(f'"F{n}"' in dump(game, 1) for n in range(10))


def test_r2_4_1_a_replenish_question_does_not_reveal_a_minion_in_hand():
    """Rule: R2.4.1 — the replenish chance is offered whether or not the hand holds a minion,
    so the question itself tells the enemy nothing (passing and having none look alike)."""
    games = [make({"minions": [awake("L5")]},
                  {"hand": [card], "minions": [awake("D1"), awake("D2")]})
             for card in ("T-M06", "T-I02")]
    for game in games:
        game.apply(Action("attack", 0, 0))
        assert (game.decision.kind, game.to_move) == ("replenish", 1)
    assert dump(games[0], 0) == dump(games[1], 0)
    assert games[1].legal_actions() == [PASS]
    for game in games:
        game.apply(PASS)
    assert dump(games[0], 0) == dump(games[1], 0)


def test_r2_2_3_an_items_condition_on_hidden_cards_does_not_decide_its_legality():
    """Rule: R2.2.3 — an item whose `if` looks at the enemy's hand is offered either way (its
    condition is checked when it resolves), so its legality tells nothing about that hand."""
    spy = item("SPY", [{"do": "draw", "count": 1}], ability={"if": {
        "count": {"zone": "hand", "side": "enemy", "filter": {"kind": "minion"}}, "min": 1}})
    games = [make({"hand": ["SPY"], "deck": ["F1"], **BOARD}, {"hand": [card], **BOARD}, spy)
             for card in ("D1", "T-I02")]
    assert dump(games[0], 0) == dump(games[1], 0)
    for game in games:
        act(game, Action("item", 0))
    assert view(games[0], 0)["me"]["hand"] == ["F1"]            # the condition held
    assert view(games[1], 0)["me"]["hand"] == []                # spent for nothing
    assert view(games[1], 0)["me"]["graveyard"] == ["SPY"]


def test_r2_3_2_a_condition_on_face_down_enemies_does_not_decide_legality():
    """Rule: R2.3.2 — a filter on unrevealed enemy minions is not judged before use."""
    spy = item("SPY", [{"do": "draw", "count": 1}], ability={"if": {
        "count": {"zone": "minions", "side": "enemy", "filter": {"race": "dragon"}}, "min": 1}})
    games = [make({"hand": ["SPY"], **BOARD}, {"minions": [card]}, spy)
             for card in ("T-M06", "F1")]
    assert dump(games[0], 0) == dump(games[1], 0)
    known = make({"hand": ["SPY"], **BOARD}, {"minions": [awake("F1")]}, spy)
    assert [a for a in known.legal_actions() if a.kind == "item"] == []   # seen: judged


def test_r6_1_an_optional_skill_question_shows_nothing_hidden():
    """Rule: R6.1, R4.5 — last words are offered to their controller alone; the card is in the
    graveyard (public) and the enemy's view says only that a question stands, so two games
    that differ in hidden cards give equal views while it is asked and after it is answered."""
    games = [make({"minions": [awake("L3")], "hand": mine},
                  {"hand": theirs, "deck": deck_, "minions": [awake("T-M07"), face_down]})
             for mine, theirs, deck_, face_down in ((["F1"], ["T-M06"], ["W1"], "T-M12"),
                                                    (["F1"], ["D7"], ["F5"], "D0"))]
    for game in games:
        game.apply(Action("attack", 0, 0))
        game.apply(PASS)                                 # not act(): it would use the skill
        assert (game.decision.kind, game.to_move) == ("optional", 1)
    assert dump(games[0], 0) == dump(games[1], 0)
    assert view(games[0], 0)["offer"] is None and view(games[0], 1)["offer"] == {
        "card": "T-M07", "trigger": "last_words"}
    for game in games:
        game.apply(Action("decline"))
    assert dump(games[0], 0) == dump(games[1], 0)


def test_r2_3_2_the_planner_decides_the_same_on_games_differing_only_in_hidden_parts():
    """Rule: R2.3.2 — the planner agent searches worlds sampled from its view, never the
    game: the same view and seed give the same choice however the hidden cards lie."""
    import random

    from rules.ai.agents import make_agent

    first = scenario(["T-M06", "T-M05"], ["T-M09", "T-M13"], "T-M12", ["F1", "F2", "F3"])
    second = scenario(["D7", "D8"], ["W5", "W6"], "D0", ["F3", "F1", "F2"], seed=99)
    assert dump(first, 0) == dump(second, 0)
    choices = []
    for game in (first, second):
        agent = make_agent("planner")
        choices.append(agent.choose(game.view(0), game.legal_actions(), random.Random(4)))
    assert choices[0] == choices[1]
    assert choices[0] in first.legal_actions()
