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
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, cast

from rules.engine.cards import CardDef
from rules.engine.core import GameState, board_changed

if TYPE_CHECKING:
    from rules.engine.game import Game
    from rules.engine.view import PlayerView

Pools = tuple[list[CardDef], list[CardDef]]     # (every card an unknown card may be, its minions)

_last_pools: tuple[object, Pools] | None = None   # (the card mapping, its pools): one per process


def card_pools(cards: Mapping[str, CardDef]) -> Pools:
    """Every non-hero card of ``cards`` and its minions, in code order (mapping order must not
    matter). Kept for the last mapping asked about: a search asks thousands of times a game."""
    global _last_pools
    if _last_pools is not None and _last_pools[0] is cards:
        return _last_pools[1]
    pool = sorted((c for c in cards.values() if c.kind != "hero"), key=lambda c: c.code)
    pools = (pool, [c for c in pool if c.kind == "minion"])
    _last_pools = (cards, pools)
    return pools


def _seen_enemy_cards(game: GameState, enemy: int) -> list[CardDef]:
    player = game.players[enemy]
    seen = list(player.graveyard) + list(player.display)
    seen += [m.card for m in player.minions if m is not None and m.public]
    seen.sort(key=lambda c: c.code)
    return seen


def _below(rng: random.Random, n: int) -> int:
    """``rng._randbelow(n)`` for n > 0, drawn as the library draws it (compiled here: the
    library's ``choice`` and ``shuffle`` are Python functions)."""
    bits = n.bit_length()
    value: int = rng.getrandbits(bits)
    while value >= n:
        value = rng.getrandbits(bits)
    return value


def _choice(rng: random.Random, cards: list[CardDef]) -> CardDef:
    """``rng.choice(cards)``: the same draw (and the same IndexError for no cards)."""
    if not cards:
        raise IndexError("Cannot choose from an empty sequence")
    return cards[_below(rng, len(cards))]


def _shuffle(rng: random.Random, cards: list[CardDef]) -> None:
    """``rng.shuffle(cards)``: the same draws, the same order."""
    for i in range(len(cards) - 1, 0, -1):
        j = _below(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]


def _guess(rng: random.Random, seen: list[CardDef], pool: list[CardDef]) -> CardDef:
    """An unknown enemy card: one it has shown, half the time when it has shown any, else one
    of the pool."""
    if seen and rng.random() < 0.5:
        return _choice(rng, seen)
    return _choice(rng, pool)


def determinize(view: PlayerView, rng: random.Random, pools: Pools | None = None,
                world_rng: Callable[[int], random.Random] = random.Random) -> Game:
    """A copy of the viewed game with every hidden part resampled (see the module docstring).
    ``pools``: the (cards, minions) unknown enemy cards are drawn from, when the caller knows
    better than every card of the game (e.g. the cards of the enemy hero's faction).
    ``world_rng``: makes the copy's generator from its seed (drawn from ``rng``), seeded by
    the time it first draws; a search that copies the world many times may make one that
    remembers its seed and seeds itself only then (``rules.ai.planner``)."""
    # Every view is made by Game.view; the copy's RNG is a new one, seeded from ``rng``.
    game = cast("Game", view._game).copy(world_rng(rng.getrandbits(64)))
    me, enemy = view.player, 1 - view.player
    game.actions = []
    game.start = {}
    game.seed = 0
    mine = game.players[me]
    mine.deck.sort(key=lambda c: c.code)        # the true order is hidden: forget it
    _shuffle(rng, mine.deck)
    foe = game.players[enemy]
    seen = _seen_enemy_cards(game, enemy)
    pool, minions = card_pools(game.cards) if pools is None else pools
    seen_minions = [c for c in seen if c.kind == "minion"]
    foe.hand = [_guess(rng, seen, pool) for _ in foe.hand]
    foe.deck = [_guess(rng, seen, pool) for _ in foe.deck]
    foe.marked = []
    for minion in foe.minions:
        if minion is not None and not minion.public:
            minion.card = _guess(rng, seen_minions, minions)
            minion.keywords = minion.card.keyword_set
    game._auras = game._auras or any("aura" in c.by_trigger for c in pool) \
        or any("aura" in c.by_trigger for c in seen)
    board_changed(game)
    return game
