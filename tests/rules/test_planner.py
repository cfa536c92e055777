"""The planner agent: determinized Monte Carlo at every decision kind but the mulligan and
setup, within a fixed budget, from its own view and RNG."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.ai.greedy import GreedyAgent
from rules.ai.planner import (
    ENEMY_MINION_SHARE,
    GREEDY_KINDS,
    PlannerAgent,
    _faction_pools,
    evaluate,
)
from rules.decks.cardset import CORE_SET, TEST_SET, load_card_set
from rules.engine import Game
from rules.engine.determinize import determinize
from tests.rules.test_agents import TRUTH_A, TRUTH_B

CARDS = load_card_set(TEST_SET)


class CountingPlanner(PlannerAgent):
    """Counts the decision kinds it searched and the rollouts it played."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.searched: Counter = Counter()
        self.rollouts = 0

    def choose(self, view, legal, rng):
        before = self.rollouts
        action = super().choose(view, legal, rng)
        if self.rollouts > before:
            self.searched[view.decision] += 1
        assert action in legal
        return action

    def _rollout(self, game, action, player, rng):
        self.rollouts += 1
        return super()._rollout(game, action, player, rng)


def test_it_searches_every_decision_kind_it_meets_within_its_budget():
    """Any decision with a choice is searched — kinds the planner was never told about too —
    except the mulligan and setup, and never with more rollouts than worlds × candidates
    (plus "end"/"pass")."""
    planner = CountingPlanner(worlds=2, candidates=3)
    decks = list(CARDS.decks.values())
    kinds: Counter = Counter()
    for seed in range(6):
        game = Game(CARDS.cards, decks[:2], seed=seed, first_player=seed % 2)
        rngs = (random.Random(seed), random.Random(seed + 100))
        agents = (planner, GreedyAgent())
        while not game.over:
            seat = game.to_move
            legal = game.legal_actions()
            if seat == 0 and len(legal) > 1:
                kinds[game.decision.kind] += 1
                before = planner.rollouts
                game.apply(planner.choose(game.view(0), legal, rngs[0]))
                assert planner.rollouts - before <= 2 * (3 + 2)
            else:
                game.apply(agents[seat].choose(game.view(seat), legal, rngs[seat]))
    assert not set(planner.searched) & GREEDY_KINDS
    assert "main" in planner.searched and len(set(kinds) - GREEDY_KINDS) > 1
    assert set(kinds) - GREEDY_KINDS <= set(planner.searched)


def test_a_sure_lethal_attack_is_taken_without_searching():
    truth = {**TRUTH_A, "players": [TRUTH_A["players"][0], {**TRUTH_A["players"][1], "hp": 3}]}
    game = Game.from_snapshot(truth, CARDS.cards)
    planner = CountingPlanner()
    action = planner.choose(game.view(0), game.legal_actions(), random.Random(0))
    assert action.kind == "attack" and action.b == -1 and planner.rollouts == 0


@pytest.mark.parametrize("truth", [TRUTH_A, TRUTH_B])
def test_the_faction_prior_keeps_what_the_player_sees(truth):
    """Worlds drawn with the faction prior redraw only the enemy's hidden cards, from its
    hero's faction and the faction-free items: the view is unchanged."""
    game = Game.from_snapshot(truth, CARDS.cards, seed=1)
    hero = game.players[1].hero
    pools = _faction_pools(CARDS.cards, hero)
    world = determinize(game.view(0), random.Random(2), pools)
    assert world.view(0).to_dict() == game.view(0).to_dict()
    assert world.players[1].hand and all(c in pools[0] for c in world.players[1].hand)
    assert all(c.faction in (hero.faction, None) for c in world.players[1].hand)


def test_the_enemys_guessed_cards_are_mostly_minions_as_decks_are():
    """A faction's pool in the core set holds more items than minions; a deck holds mostly
    minions (R3.2 makes it need them), so the planner's guesses draw minions at about
    ENEMY_MINION_SHARE, and every guess is still a card of the faction or a free item."""
    core = load_card_set(CORE_SET)
    deck = core.deck("Ember Rush")
    game = Game(core.cards, [deck, deck], seed=4, first_player=0)
    hero = game.players[1].hero
    pool, minions = _faction_pools(core.cards, hero)
    assert {c.code for c in pool} == {c.code for c in core.cards.values() if c.kind != "hero"
                                      and (c.faction == hero.faction
                                           or (c.kind == "item" and c.faction is None))}
    assert [c.code for c in minions] == sorted({c.code for c in pool if c.kind == "minion"})
    unweighted = len(minions) / len({c.code for c in pool})
    share = sum(c.kind == "minion" for c in pool) / len(pool)
    assert unweighted < 0.5 and share == pytest.approx(ENEMY_MINION_SHARE, abs=0.03)
    guessed = [card for seed in range(50)
               for card in determinize(game.view(0), random.Random(seed), (pool, minions))
               .players[1].deck]
    assert sum(c.kind == "minion" for c in guessed) / len(guessed) > 0.75


def test_the_evaluation_prefers_the_side_with_more_hp_and_scores_a_won_game_highest():
    game = Game.from_snapshot(TRUTH_A, CARDS.cards)
    mine = evaluate(game, 0)
    assert evaluate(game, 1) == pytest.approx(-mine)
    game.players[1].hp -= 5
    assert evaluate(game, 0) > mine
    game.result = {"winner": 0, "reason": "hero_hp"}
    assert evaluate(game, 0) == 1000.0 and evaluate(game, 1) == -1000.0
