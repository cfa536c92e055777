"""Moves shared by effects, combat and turns: triggered passives, deaths and what follows them
(R2.3.8, R2.4: last words, ally-dies passives, replenish), and awakening (R4.4).

Invariant: what a move sets off (abilities, replenish chances) is pushed as tasks, in the order
the rules give, never run from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine.actions import Action
from rules.engine.cards import AWAKEN_BIT, LAST_WORDS_BIT, TRIGGER_BIT
from rules.engine.core import (
    HERO_UID,
    Decision,
    GameState,
    ask,
    board_changed,
    event,
    place,
    push_list,
)
from rules.engine.state import Minion
from rules.engine.values import has_keyword

Death = tuple[int, int, Minion]      # (player, slot, the minion) of a destroyed minion


def passive_sources(game: GameState, index: int, trigger: str, minions: bool = True,
                    hero: bool = True) -> list[tuple[int, dict[str, Any]]]:
    """(source uid, ability) in R2.3.9 order: minion passives left to right, then hero."""
    player = game.players[index]
    out: list[tuple[int, dict[str, Any]]] = []
    bit = TRIGGER_BIT[trigger]                  # (a bit test per card, not a dict lookup)
    if minions:
        for minion in player.minions:
            if minion is not None and minion.card.triggers & bit:
                for ability in minion.card.by_trigger[trigger]:
                    if minion.awake or ability["sleeping"]:          # R4.7, R4.1
                        out.append((minion.uid, ability))
    if hero and player.hero.triggers & bit:
        for ability in player.hero.by_trigger[trigger]:
            out.append((HERO_UID, ability))
    return out


# ------------------------------------------------------------ deaths (R2.3.8, R2.4)

def dying(game: GameState, p: int, s: int,
          restore: tuple[Any, ...] | None = None) -> Death | None:
    """R4.3: a minion enters dying. Returns (player, slot, minion) if it was destroyed."""
    minion = game.players[p].minions[s]
    assert minion is not None                      # only a minion on the board dies
    if has_keyword(game, minion, "regenerate") and minion.regen_turn != game.turn:
        minion.regen_turn = game.turn                                     # R4.10
        if restore is not None:                    # R4.10: as before the combat
            minion.perm_attack, minion.turn_attack = restore[0], restore[1]
            minion.keywords, minion.turn_granted, minion.turn_removed = \
                restore[2], restore[3], restore[4]
        if game.events is not None:
            event(game, "regenerate", player=p, slot=s, card=minion.card.code)
        return None
    game.players[p].minions[s] = None                                     # R2.3.8
    game.players[p].graveyard.append(minion.card)
    game._fallen[minion.uid] = minion.card
    board_changed(game, minion.card)
    if game.events is not None:
        event(game, "destroyed", player=p, slot=s, card=minion.card.code)
    return p, s, minion


def death_key(game: GameState, spot: tuple[int, int]) -> tuple[int, int]:
    """R2.4.4: the defending player's minions first, each side left to right."""
    return (0 if spot[0] != game.active else 1, spot[1])


def after_deaths(game: GameState, effect_order: list[Death], replenish_order: list[Death],
                 first: Sequence[tuple[Any, ...]] = ()) -> None:
    """Queue R2.4.1 replenish chances (instant), then after-death effects in order."""
    tasks: list[tuple[Any, ...]] = []
    for p, s, minion in replenish_order:
        if minion.awake:
            game._owed[p] += 1
            tasks.append(("replenish", p, s))
    tasks.extend(first)
    # [ruling R6.2] last words are not a passive (R2.3.9 lists them apart): a face-down
    # minion's last words resolve too (ruleset option face_down_last_words), whereas its
    # ally_dies passives are off (R4.1).
    face_down = game.ruleset.face_down_last_words
    # (Plain loops: a generator per death cost more than the rest of this function.)
    for p, _s, minion in effect_order:
        for src, ability in passive_sources(game, p, "ally_dies", hero=False):
            tasks.append(("ability", p, src, ability, -1))
        if (minion.awake or face_down) and minion.card.triggers & LAST_WORDS_BIT:
            for ability in minion.card.by_trigger["last_words"]:              # R4.5
                tasks.append(("offer", p, minion.uid, ability))
        for src, ability in passive_sources(game, p, "ally_dies", minions=False):
            tasks.append(("ability", p, src, ability, -1))
    push_list(game, tasks)


def t_replenish(game: GameState, p: int, s: int) -> None:
    if game.players[p].minions[s] is not None:
        game._owed[p] -= 1
        return
    # Asked even with no minion card in hand (then only "pass" is legal): whether the question
    # comes must not tell the enemy what the hand holds (hidden information).
    ask(game, "replenish", p, (s,))


def answer_replenish(game: GameState, decision: Decision, action: Action) -> None:
    game._owed[decision.player] -= 1
    if action.kind == "replenish":
        place(game, decision.player, action.a, decision.data[0])
        if game.events is not None:
            event(game, "replenish", player=decision.player, slot=decision.data[0])


# ------------------------------------------------------------ awakening (R4.4)

def awaken(game: GameState, index: int, minion: Minion) -> None:
    minion.awake = True
    minion.public = True
    minion.awake_turn = game.turn
    # [ruling R6.5] a minion taken by mind control cannot attack on the turn it changed sides,
    # even if it is awakened after it came over (unless mind_controlled_may_attack).
    minion.attacks_left = 0 if minion.controlled_turn == game.turn \
        and not game.ruleset.mind_controlled_may_attack else 1
    awakened = game.awakened[index]
    awakened[minion.card.code] = awakened.get(minion.card.code, 0) + 1
    board_changed(game, minion.card)
    if game.events is not None:
        event(game, "awaken", player=index, card=minion.card.code)
    if minion.card.triggers & AWAKEN_BIT:                                     # R4.4
        abilities = minion.card.by_trigger["awaken"]
        push_list(game, [("offer", index, minion.uid, a) for a in abilities])
