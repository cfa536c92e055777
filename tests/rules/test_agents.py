"""Agents decide from what their seat can see: hidden parts of the state never matter."""

import random

import pytest

from rules.ai.agents import make_agent
from rules.decks.cardset import TEST_SET, load_card_set
from rules.engine import Game
from rules.engine.determinize import determinize


@pytest.fixture(scope="module")
def cards():
    return load_card_set(TEST_SET).cards


def scenario(enemy_hand, enemy_deck, enemy_hidden, my_deck):
    return {
        "turn": 4, "active": 0, "first_player": 1,
        "players": [
            {"hero": "T-H01", "hp": 14, "energy": 4, "hand": ["T-M01", "T-I01", "T-I03"],
             "deck": my_deck,
             "minions": [{"slot": 0, "card": "T-M02", "awake": True},
                         {"slot": 2, "card": "T-M06", "awake": True},
                         {"slot": 3, "card": "T-M04"}]},
            {"hero": "T-H02", "hp": 9, "hand": enemy_hand, "deck": enemy_deck,
             "minions": [{"slot": 0, "card": "T-M05", "awake": True},
                         {"slot": 1, "card": enemy_hidden},
                         {"slot": 4, "card": "T-M03", "public": True}]},
        ],
    }


TRUTH_A = scenario(["T-M12", "T-I04"], ["T-M07", "T-M09", "T-M10"], "T-M10",
                   ["T-M01", "T-M02", "T-I02"])
TRUTH_B = scenario(["T-M01", "T-I02"], ["T-I06", "T-M13", "T-M05"], "T-M07",
                   ["T-I02", "T-M01", "T-M02"])


def test_the_two_truths_look_the_same_from_seat_0(cards):
    """Rule: R2.3.2 — the unrevealed face-down minion, the enemy hand and deck are hidden."""
    a, b = Game.from_snapshot(TRUTH_A, cards, seed=1), Game.from_snapshot(TRUTH_B, cards, seed=2)
    assert a.snapshot() != b.snapshot()
    assert a.view(0).to_dict() == b.view(0).to_dict()


@pytest.mark.parametrize("agent", ["random", "greedy", "search", "planner", "lean"])
def test_choice_ignores_hidden_parts_of_the_true_state(cards, agent):
    """Rule: R1.1 — zones the player cannot see do not change what the agent does."""
    choices = []
    for truth, seed in ((TRUTH_A, 1), (TRUTH_B, 99)):
        game = Game.from_snapshot(truth, cards, seed=seed)
        player = make_agent(agent)
        view = game.view(0)
        choices.append(player.choose(view, game.legal_actions(), random.Random(5)))
    assert choices[0] == choices[1]


def test_determinized_worlds_agree_with_the_view_and_not_the_truth(cards):
    worlds = []
    for truth, seed in ((TRUTH_A, 1), (TRUTH_B, 99)):
        game = Game.from_snapshot(truth, cards, seed=seed)
        world = determinize(game.view(0), random.Random(3))
        assert world.view(0).to_dict() == game.view(0).to_dict()
        worlds.append(world.snapshot())
    assert worlds[0] == worlds[1]


def test_greedy_wins_a_lethal_attack_when_it_sees_one(cards):
    truth = scenario([], [], "T-M10", [])
    truth["players"][1]["hp"] = 3
    game = Game.from_snapshot(truth, cards)
    action = make_agent("greedy").choose(game.view(0), game.legal_actions(), random.Random(0))
    assert action.kind == "attack" and action.b == -1


def test_greedy_plays_by_its_heuristic_constants(cards):
    """The greedy agent's constants are a parameter: another set makes another player of the
    same shape (the planner's policy), and a name it does not know is refused."""
    from rules.ai.greedy import HEURISTIC, GreedyAgent

    game = Game.from_snapshot(TRUTH_A, cards)
    legal = game.legal_actions()
    plain = GreedyAgent().choose(game.view(0), legal, random.Random(0))
    assert GreedyAgent(HEURISTIC).choose(game.view(0), legal, random.Random(0)) == plain
    assert plain.kind != "end"
    eager_to_end = GreedyAgent({"end": 1000})
    assert eager_to_end.choose(game.view(0), legal, random.Random(0)).kind == "end"
    with pytest.raises(ValueError, match="unknown heuristic constants: speed"):
        GreedyAgent({"speed": 1})
