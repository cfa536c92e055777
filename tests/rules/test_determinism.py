"""Determinism: one seeded RNG per game, so the same decks, seed and agents give the same game
event for event; a log replays every state; a snapshot reads back as the same state.

Rule: R2.1.2 and R2.1.3 rest on this — turn order and shuffles come from the game's seed.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from rules.ai.agents import make_agent
from rules.engine import Game, replay_game, replay_states
from tests.rules.helpers import TEST, awake, make

DECKS = list(TEST.decks.values())
ROOT = Path(__file__).resolve().parents[2]


def play(seed: int, agents=("random", "random"), first=None, snapshots=None) -> Game:
    """A whole game between two agents, each with its own seeded RNG."""
    game = Game(TEST.cards, DECKS, seed=seed, first_player=first)
    players = [make_agent(name) for name in agents]
    rngs = [random.Random(seed * 2 + 1), random.Random(seed * 2 + 2)]
    if snapshots is not None:
        snapshots.append(game.snapshot())
    while not game.over:
        seat = game.to_move
        agent = players[seat]
        seen = game.view(seat) if agent.needs_view else None
        game.apply(agent.choose(seen, game.legal_actions(), rngs[seat]))
        if snapshots is not None:
            snapshots.append(game.snapshot())
    return game


@pytest.mark.parametrize("agents", [("random", "random"), ("greedy", "random")])
def test_r2_1_2_same_decks_seed_and_agents_give_identical_event_logs(agents):
    for seed in (1, 2, 3):
        first, second = play(seed, agents), play(seed, agents)
        assert first.log() == second.log()
        assert first.result == second.result


def test_r2_1_3_different_seeds_give_different_games():
    logs = {json.dumps(play(seed).log()["events"][:40]) for seed in range(6)}
    assert len(logs) == 6


def test_r2_1_2_replaying_a_log_reproduces_every_snapshot():
    for seed in (4, 5):
        captured: list[dict] = []
        game = play(seed, ("greedy", "random"), snapshots=captured)
        log = json.loads(json.dumps(game.log()))          # through JSON, as stored
        assert list(replay_states(log, TEST.cards)) == captured
        again = replay_game(log, TEST.cards)
        assert again.events == game.events and again.result == game.result


def test_r2_1_2_a_scenario_game_replays_from_its_snapshot():
    game = make({"hand": ["T-I02", "T-I05"], "minions": [awake("T-M05"), "T-M04"],
                 "deck": ["F1", "F2", "F3"]},
                {"minions": [awake("D1"), "T-M10", awake("D2")]}, seed=9)
    captured = [game.snapshot()]
    rng = random.Random(9)
    for _ in range(30):
        if game.over:
            break
        choices = game.legal_actions()
        game.apply(choices[int(rng.random() * len(choices))])
        captured.append(game.snapshot())
    assert list(replay_states(game.log(), game.cards)) == captured


def test_r2_2_3_snapshots_round_trip_at_every_main_phase_decision():
    for seed in (6, 7, 8):
        game = Game(TEST.cards, DECKS, seed=seed)
        rng = random.Random(seed)
        checked = 0
        while not game.over:
            if game.decision.kind == "main":
                state = game.snapshot()
                rebuilt = Game.from_snapshot(json.loads(json.dumps(state)), TEST.cards)
                assert rebuilt.snapshot() == state
                assert rebuilt.legal_actions() == game.legal_actions()
                checked += 1
            choices = game.legal_actions()
            game.apply(choices[int(rng.random() * len(choices))])
        assert checked > 3


def test_r2_1_3_games_do_not_depend_on_the_interpreters_hash_seed():
    """Set iteration order changes with PYTHONHASHSEED; the game must not."""
    program = (
        "import hashlib, json, random, sys\n"
        "from rules.decks.cardset import TEST_SET, load_card_set\n"
        "from rules.engine import Game\n"
        "s = load_card_set(TEST_SET)\n"
        "out = []\n"
        "for seed in range(5):\n"
        "    g = Game(s.cards, list(s.decks.values()), seed=seed)\n"
        "    r = random.Random(seed)\n"
        "    while not g.over:\n"
        "        legal = g.legal_actions()\n"
        "        g.apply(legal[int(r.random() * len(legal))])\n"
        "    out.append(json.dumps(g.log(), sort_keys=True))\n"
        "print(hashlib.sha256('|'.join(out).encode()).hexdigest())\n")
    digests = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", program], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=120, check=True)
        digests.add(done.stdout.strip())
    assert len(digests) == 1


def test_r2_1_2_a_search_agents_game_replays_exactly():
    """Search agents play on copies of the game; the copies must leave the real game as it
    was, so the log of a searched game replays event for event without the agent."""
    game = play(3, ("search", "greedy"))
    again = replay_game(json.loads(json.dumps(game.log())), TEST.cards)
    assert again.events == game.events and again.result == game.result


def test_r2_2_3_a_copy_played_on_leaves_the_original_untouched():
    game = make({"hand": ["T-I01", "F2"], "minions": [awake("T-M05"), "T-M04"]},
                {"minions": [awake("T-M07"), awake("D1")]})
    before = game.snapshot()
    clone = game.copy()
    rng = random.Random(1)
    while not clone.over and clone.turn < 8:
        choices = clone.legal_actions()
        clone.apply(choices[int(rng.random() * len(choices))])
    assert game.snapshot() == before
    assert game.legal_actions() == Game.from_snapshot(before, game.cards).legal_actions()


def test_r2_1_2_the_planner_plays_the_same_game_for_the_same_seed():
    """The planner's budget is counted in rollouts, not time, and its only randomness is its
    own seeded RNG: the same seed plays the same game, action for action."""
    first, second = play(5, ("planner", "greedy")), play(5, ("planner", "greedy"))
    assert first.log() == second.log() and first.result == second.result
    again = replay_game(json.loads(json.dumps(first.log())), TEST.cards)
    assert again.events == first.events
