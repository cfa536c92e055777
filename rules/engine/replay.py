"""Replays: rebuild every state of a finished game from its event log.

A log (``Game.log()``) records how the game started (decks, seed, ruleset and first player, or
a scenario snapshot and seed) and every action. Because every random choice comes from the
game's one seeded RNG, applying the same actions to the same start reproduces the same game,
state for state and event for event. A log of an older version is replayed under the rules it
was played by (``LEGACY``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules.engine.actions import Action
from rules.engine.cards import CardDef, DeckList, Ruleset
from rules.engine.game import LOG_VERSION, Game

# What a log older than version 2 was played under: every optional skill used unasked (R6.1).
LEGACY = {"always_use_optional_skills": True}


def start_game(log: Mapping[str, Any], cards: Mapping[str, CardDef], events: bool = True) -> Game:
    start = log["start"]
    legacy = log.get("version", LOG_VERSION) < 2     # played before skills were asked (R6.1)
    if "snapshot" in start:
        snapshot = start["snapshot"]
        if legacy:
            snapshot = {**snapshot, "ruleset": {**(snapshot.get("ruleset") or {}), **LEGACY}}
        return Game.from_snapshot(snapshot, cards, seed=start["seed"], log=events)
    decks = [DeckList.from_dict(d) for d in start["decks"]]
    rules = {**start["ruleset"], **LEGACY} if legacy else start["ruleset"]
    return Game(cards, decks, seed=start["seed"], ruleset=Ruleset.from_dict(rules),
                log=events, first_player=start.get("first_player"))


def replay_states(log: Mapping[str, Any],
                  cards: Mapping[str, CardDef]) -> Iterator[dict[str, Any]]:
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
