"""Determinization: a full game consistent with what one player can see.

Search agents plan by sampling the cards they cannot see. ``determinize(view, rng)`` copies the
game behind a view and replaces *every* hidden part — the enemy hand, both decks' order, the
enemy deck's contents, the identity of unrevealed face-down enemy minions, and the game's own
RNG state — with samples drawn from the viewer's RNG. The unknown enemy cards are drawn from the
cards the enemy has shown so far and the card pool.

Invariant: the returned game depends only on the view's visible information and ``rng``; two
games that differ only in hidden parts give identical determinizations for the same rng state.
"""

from __future__ import annotations

import random

from rules.engine.cards import CardDef
from rules.engine.core import board_changed


def _pool(game, kind: str | None) -> list[CardDef]:
    cards = [c for c in game.cards.values() if c.kind != "hero"
             and (kind is None or c.kind == kind)]
    cards.sort(key=lambda c: c.code)            # mapping order must not matter
    return cards


def _seen_enemy_cards(game, enemy: int) -> list[CardDef]:
    player = game.players[enemy]
    seen = list(player.graveyard) + list(player.display)
    seen += [m.card for m in player.minions if m is not None and m.public]
    seen.sort(key=lambda c: c.code)
    return seen


def determinize(view, rng: random.Random):
    """A copy of the viewed game with every hidden part resampled (see the module docstring)."""
    game = view._game.copy()
    me, enemy = view.player, 1 - view.player
    game.actions = []
    game.start = {}
    game.seed = 0
    game.rng = random.Random(rng.getrandbits(64))
    mine = game.players[me]
    mine.deck.sort(key=lambda c: c.code)        # the true order is hidden: forget it
    rng.shuffle(mine.deck)
    foe = game.players[enemy]
    seen = _seen_enemy_cards(game, enemy)
    pool, minions = _pool(game, None), _pool(game, "minion")
    seen_minions = [c for c in seen if c.kind == "minion"]

    def guess(candidates_seen: list[CardDef], candidates_pool: list[CardDef]) -> CardDef:
        if candidates_seen and rng.random() < 0.5:
            return rng.choice(candidates_seen)
        return rng.choice(candidates_pool)

    foe.hand = [guess(seen, pool) for _ in foe.hand]
    foe.deck = [guess(seen, pool) for _ in foe.deck]
    foe.marked = []
    for minion in foe.minions:
        if minion is not None and not minion.public:
            minion.card = guess(seen_minions, minions)
            minion.keywords = set(minion.card.keywords)
    game._auras = game._auras or any("aura" in c.by_trigger for c in pool)
    board_changed(game)
    return game
