"""The lean planner and what makes planning cheap: the planner's search on a smaller budget, and
the common random numbers of its rollouts drawn without reseeding a generator per rollout."""

from __future__ import annotations

import json
import random
from collections import Counter

from rules.ai.greedy import GreedyAgent, ReplayedDraws
from rules.ai.lean import KEEP, POLICY_KINDS, LeanPlannerAgent
from rules.ai.planner import _DeferredRandom, _start
from rules.decks.cardset import TEST_SET, load_card_set
from rules.engine import Game, replay_game
from tests.rules.test_agents import TRUTH_A

CARDS = load_card_set(TEST_SET)


class CountingLean(LeanPlannerAgent):
    """Counts, per searched decision, the worlds it sampled and the rollouts it played."""

    def __init__(self):
        super().__init__()
        self.decisions: list[list[int]] = []        # [worlds, rollouts] per search
        self.kinds: Counter = Counter()

    def _search(self, view, shortlist, rng):
        self.decisions.append([0, 0])
        self.kinds[view.decision] += 1
        self.shortlist = len(shortlist)
        return super()._search(view, shortlist, rng)

    def _worlds(self, view, rng):
        for world in super()._worlds(view, rng):
            self.decisions[-1][0] += 1
            yield world

    def _rollout(self, game, action, player, rng):
        self.decisions[-1][1] += 1
        assert self.decisions[-1][1] <= self.shortlist + KEEP
        return super()._rollout(game, action, player, rng)


def play(seed, agents):
    decks = list(CARDS.decks.values())
    game = Game(CARDS.cards, decks[:2], seed=seed, first_player=seed % 2)
    rngs = (random.Random(seed), random.Random(seed + 100))
    while not game.over:
        seat = game.to_move
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(), rngs[seat]))
    return game


def test_it_searches_main_decisions_only_within_the_shortlist_plus_the_kept_actions():
    """Every other decision kind is its policy's; a search plays the shortlist in the first
    world, at most KEEP actions in the second, and some decisions settle in the first."""
    lean = CountingLean()
    for seed in range(4):
        play(seed, (lean, GreedyAgent()))
    assert set(lean.kinds) == {"main"} and "main" not in POLICY_KINDS
    assert all(worlds in (1, 2) for worlds, _ in lean.decisions)
    assert any(worlds == 1 for worlds, _ in lean.decisions)
    assert any(worlds == 2 for worlds, _ in lean.decisions)


def test_r2_1_2_the_lean_planner_plays_the_same_game_for_the_same_seed():
    first = play(3, (LeanPlannerAgent(), GreedyAgent()))
    second = play(3, (LeanPlannerAgent(), GreedyAgent()))
    assert first.log() == second.log()
    assert replay_game(json.loads(json.dumps(first.log())), CARDS.cards).events == first.events


def test_replayed_draws_give_each_rollout_the_generators_own_draws_from_the_start():
    """Rollouts interleave (one extends the shared list, another reads it): each sees exactly
    what a generator seeded alike would give it."""
    source, drawn = random.Random(7), []
    first, second = ReplayedDraws(source, drawn), ReplayedDraws(source, drawn)
    mine = [first.random() for _ in range(5)] + [second.random() for _ in range(9)]
    mine += [first.random() for _ in range(6)]
    fresh = random.Random(7)
    expected = [fresh.random() for _ in range(11)]
    assert mine[:5] + mine[14:] == expected[:11] and mine[5:14] == expected[:9]


def test_a_deferred_world_rng_draws_as_the_restored_generator_and_only_restores_when_used():
    template = random.Random(11)
    template.random()
    state = template.getstate()
    saved, restored = _DeferredRandom(state), random.Random()
    restored.setstate(state)
    assert saved._start is state
    assert [saved.choice(range(90)) for _ in range(4)] == [restored.choice(range(90))
                                                           for _ in range(4)]
    assert saved.random() == restored.random() and saved.sample(range(40), 3) == \
        restored.sample(range(40), 3)
    assert saved._start is None and saved.getstate() == restored.getstate()


def test_a_deferred_rng_made_from_a_seed_draws_as_a_generator_seeded_alike():
    """A world's generator keeps its seed until something draws: each rollout's copy seeds
    itself only if the rollout draws, and draws what random.Random(seed) would."""
    seed = random.Random(5).getrandbits(64)
    world = _DeferredRandom(seed)
    assert _start(world) == seed                   # nothing drawn: copies start from the seed
    copy, fresh = _DeferredRandom(_start(world)), random.Random(seed)
    assert [copy.random() for _ in range(3)] == [fresh.random() for _ in range(3)]
    assert copy.getrandbits(40) == fresh.getrandbits(40)
    shuffled, expected = list(range(30)), list(range(30))
    copy.shuffle(shuffled)
    fresh.shuffle(expected)
    assert shuffled == expected and copy.getstate() == fresh.getstate()
    assert _start(copy) == fresh.getstate()        # drawn from: copies start from its state
    assert _start(random.Random(seed)) == random.Random(seed).getstate()


def test_a_copy_takes_the_generator_it_is_given_or_copies_the_games_own():
    game = Game.from_snapshot(TRUTH_A, CARDS.cards, seed=5)
    mine = random.Random(3)
    assert game.copy(mine).rng is mine
    clone = game.copy()
    assert clone.rng is not game.rng and clone.rng.getstate() == game.rng.getstate()
    assert [clone.rng.random() for _ in range(3)] == [game.rng.random() for _ in range(3)]
