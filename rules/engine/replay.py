"""Replays: rebuild every state of a finished game from its event log.

A log (``Game.log()``) records how the game started (decks, seed, ruleset and first player, or
a scenario snapshot and seed) and every action. Because every random choice comes from the
game's one seeded RNG, applying the same actions to the same start reproduces the same game,
state for state and event for event.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules.engine.actions import Action
from rules.engine.cards import CardDef, DeckList, Ruleset
from rules.engine.game import Game


def start_game(log: Mapping[str, Any], cards: Mapping[str, CardDef], events: bool = True) -> Game:
    start = log["start"]
    if "snapshot" in start:
        return Game.from_snapshot(start["snapshot"], cards, seed=start["seed"], log=events)
    decks = [DeckList.from_dict(d) for d in start["decks"]]
    return Game(cards, decks, seed=start["seed"], ruleset=Ruleset.from_dict(start["ruleset"]),
                log=events, first_player=start.get("first_player"))


def replay(log: Mapping[str, Any], cards: Mapping[str, CardDef]) -> Iterator[dict[str, Any]]:
    """Yield the snapshot before the first action and after every action of the log."""
    game = start_game(log, cards)
    yield game.snapshot()
    for action in log["actions"]:
        game.apply(Action.from_dict(action))
        yield game.snapshot()


def replay_game(log: Mapping[str, Any], cards: Mapping[str, CardDef]) -> Game:
    """The finished game rebuilt from its log (its ``events`` equal the original's)."""
    game = start_game(log, cards)
    for action in log["actions"]:
        game.apply(Action.from_dict(action))
    return game
