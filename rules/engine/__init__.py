"""The rules engine: a complete, deterministic implementation of RULES.md.

Public API (see README.md beside this file for a worked scenario example)::

    Game(cards, [deck_a, deck_b], seed=1)       # a new game, setup (R2.1) under way
    Game.from_snapshot(snapshot, cards)         # a game from a JSON scenario
    game.legal_actions(); game.apply(action)    # play
    game.snapshot(); game.log(); game.view(p)   # read back: true state, event log, player view
"""

from rules.engine.actions import HERO, Action
from rules.engine.cards import (
    ATTRIBUTES,
    KEYWORDS,
    KINDS,
    RARITIES,
    STANDARD,
    CardDataError,
    CardDef,
    DeckList,
    Ruleset,
    card_index,
    has_advantage,
)
from rules.engine.game import Decision, Game, IllegalAction
from rules.engine.replay import replay, replay_game
from rules.engine.view import PlayerView

__all__ = ["ATTRIBUTES", "HERO", "KEYWORDS", "KINDS", "RARITIES", "STANDARD", "Action",
           "CardDataError", "CardDef", "Decision", "DeckList", "Game", "IllegalAction",
           "PlayerView", "Ruleset", "card_index", "has_advantage", "replay", "replay_game"]
