"""The rules engine: a complete, deterministic implementation of RULES.md.

Public API (see README.md beside this file for a worked scenario example)::

    Game(cards, [deck_a, deck_b], seed=1)       # a new game, setup (R2.1) under way
    Game.from_snapshot(snapshot, cards)         # a game from a JSON scenario
    game.legal_actions(); game.apply(action)    # play
    game.snapshot(); game.log(); game.view(p)   # read back: true state, event log, player view
"""

from __future__ import annotations

import importlib
from typing import Any

# Where each public name lives. Loaded on first use (PEP 562), so importing a module of the
# engine (``rules.compiled`` above all, which decides how the engine is loaded) does not
# load the whole engine first.
_EXPORTS = {
    "HERO": "actions", "Action": "actions",
    "ATTRIBUTES": "cards", "KEYWORDS": "cards", "KINDS": "cards", "RARITIES": "cards",
    "STANDARD": "cards", "CardDataError": "cards", "CardDef": "cards", "DeckList": "cards",
    "Ruleset": "cards", "has_advantage": "cards",
    "Decision": "game", "Game": "game", "IllegalAction": "game",
    "replay_game": "replay", "replay_states": "replay",
    "PlayerView": "view",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:     # a class, a function or a constant, by name
    if name not in _EXPORTS:
        raise AttributeError(f"module 'rules.engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"rules.engine.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
