"""The omniscient planner: the planner's play with every hidden card known — a measuring
device for how much of a target win rate is out of reach of any guess at hidden cards."""

from __future__ import annotations

import random

import pytest

from rules.ai.agents import AGENT_NAMES
from rules.decks.cardset import TEST_SET, load_card_set
from rules.engine import Game
from rules.engine.determinize import determinize
from rules.lab import ceiling
from tests.rules.test_agents import TRUTH_A

CARDS = load_card_set(TEST_SET)


def _hidden(game, player: int) -> tuple:
    enemy = game.players[1 - player]
    return ([c.code for c in enemy.hand], [c.code for c in enemy.deck],
            [m.card.code for m in enemy.minions if m is not None],
            [c.code for c in game.players[player].deck])


def test_its_worlds_are_the_true_game_where_the_planners_are_guesses():
    game = Game.from_snapshot(TRUTH_A, CARDS.cards, seed=3)
    view = game.view(0)
    worlds = ceiling.OmniscientPlanner(worlds=3)._sample_worlds(view, random.Random(1))
    assert len(worlds) == 3
    assert all(_hidden(world, 0) == _hidden(game, 0) for world in worlds)
    guesses = [determinize(view, random.Random(seed)) for seed in range(3)]
    assert any(_hidden(world, 0) != _hidden(game, 0) for world in guesses)


def test_knowing_only_the_board_or_the_hand_makes_only_that_part_true():
    game = Game.from_snapshot(TRUTH_A, CARDS.cards, seed=3)
    view = game.view(0)
    true_hand, _, true_board, _ = _hidden(game, 0)
    board = ceiling.OmniscientPlanner(know="board", worlds=4)._sample_worlds(
        view, random.Random(5))
    hand = ceiling.OmniscientPlanner(know="hand", worlds=4)._sample_worlds(
        view, random.Random(5))
    assert all(_hidden(world, 0)[2] == true_board for world in board)
    assert any(_hidden(world, 0)[0] != true_hand for world in board)
    assert all(_hidden(world, 0)[0] == true_hand for world in hand)
    assert any(_hidden(world, 0)[2] != true_board for world in hand)
    assert all(world.view(0).to_dict() == view.to_dict() for world in board + hand)
    with pytest.raises(ValueError, match="know must be one of all, board, hand"):
        ceiling.OmniscientPlanner(know="deck")


def test_it_is_not_an_agent_the_site_or_the_ladder_offers():
    assert ceiling.NAME not in AGENT_NAMES
    assert isinstance(ceiling.make(ceiling.NAME), ceiling.OmniscientPlanner)
    assert type(ceiling.make("greedy")).__name__ == "GreedyAgent"


def test_it_meets_every_agent_the_planner_meets_and_reports_the_same_games_for_a_rerun(
        capsys):
    argv = ["--games", "2", "--processes", "1", "--set", str(TEST_SET), "--json"]
    first = ceiling.main(argv)
    assert set(first) == {"omniscient-vs-greedy", "omniscient-vs-search"}
    pairings = len(CARDS.decks) * (len(CARDS.decks) - 1)
    for entry in first.values():
        assert entry["games"] == 2 * pairings and entry["errors"] == 0
        assert entry["wins"] + entry["losses"] + entry["draws"] == entry["games"]
        assert 0 <= entry["win_rate"]["low"] <= entry["win_rate"]["rate"] <= 1
        assert "planner_win_rate" in entry
    second = ceiling.main(argv)
    for key, entry in first.items():
        assert {k: v for k, v in entry.items() if k != "cpu_seconds_per_game"} == \
            {k: v for k, v in second[key].items() if k != "cpu_seconds_per_game"}
    printed = capsys.readouterr().out
    assert '"omniscient-vs-search"' in printed


def test_the_text_report_names_both_win_rates(capsys):
    ceiling.main(["--games", "2", "--processes", "1", "--set", str(TEST_SET),
                  "--worlds", "1"])
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert all("omniscient planner (knows all, worlds 1, horizon 1)" in line
               and "the planner on the ladder" in line for line in lines)
