"""The engine never raises on a legal action: hundreds of uniformly random games with the test
set's decks, fixed seeds, every action checked, all end with a result.

Rule: R3.3 — every game ends (a win, a loss or a draw) and R2.2.6 bounds its length.
"""

from __future__ import annotations

import random

import pytest

from rules.engine import Game
from tests.rules.helpers import TEST

DECKS = list(TEST.decks.values())
GAMES = 300
MAX_ACTIONS = 20_000


def random_game(seed: int, decks=DECKS, checks: bool = False) -> Game:
    game = Game(TEST.cards, decks, seed=seed)
    rng = random.Random(seed)
    for _ in range(MAX_ACTIONS):
        if game.over:
            return game
        choices = game.legal_actions()
        assert choices, f"seed {seed}: a decision without legal actions: {game.decision}"
        game.apply(choices[int(rng.random() * len(choices))], check=True)
        if checks:
            _invariants(game, seed)
    raise AssertionError(f"seed {seed}: no result after {MAX_ACTIONS} actions")


def _invariants(game: Game, seed: int) -> None:
    for player in game.players:
        assert player.energy >= 0, seed
        assert len(player.minions) == game.ruleset.slots, seed
    for seat in (0, 1):
        game.view(seat).to_dict()


@pytest.mark.parametrize("block", range(6))
def test_r3_3_random_games_all_end_with_a_result(block):
    results = []
    for seed in range(block * GAMES // 6, (block + 1) * GAMES // 6):
        game = random_game(seed)
        assert game.result is not None and game.result["winner"] in (0, 1, None)
        assert game.legal_actions() == []
        results.append(game.result["reason"])
    assert set(results) <= {"hero_hp", "no_minions", "both_lost", "turn_limit"}


def test_r2_2_6_random_games_keep_the_engines_invariants():
    for seed in range(1000, 1030):
        random_game(seed, checks=True)


def test_r3_3_random_mirror_matches_end_too():
    for deck in DECKS:
        for seed in range(2000, 2020):
            assert random_game(seed, [deck, deck]).over
