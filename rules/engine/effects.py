"""The effect interpreter: triggered abilities and the main-phase plays that start them
(place, awaken, item, skill, hero skill).

Invariants: an ability runs as tasks (``ability`` → ``effects`` → ``effect``) so a choice in the
middle of one (a chosen target, R4.11 choose, a hand card to pick) pauses the game and resumes
exactly where it stopped. Targets are chosen by ``targets.select``; each effect term is run by
``effect_handlers.do_effect``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.engine.actions import Action
from rules.engine.cards import CardDef
from rules.engine.core import (
    HERO_UID,
    Decision,
    GameState,
    ask,
    event,
    minion_by_uid,
    place,
    push,
    push_list,
    push_one,
    spot,
)
from rules.engine.effect_handlers import do_effect
from rules.engine.moves import awaken
from rules.engine.targets import select, usable
from rules.engine.values import condition


def t_ability(game: GameState, controller: int, source: int, ability: dict[str, Any],
              other: int) -> None:
    cond = ability["if"]
    if cond is not None and not condition(game, controller, cond):
        return
    if game.events is not None:
        code = _source_code(game, controller, source)
        where = None if source == HERO_UID else spot(game, source)
        if where is None:                 # a hero's, an item's or a fallen minion's ability
            event(game, "ability", player=controller, source=code, trigger=ability["trigger"])
        else:                             # a minion's on the board: which one (R4.1)
            event(game, "ability", player=controller, source=code, at=where,
                  trigger=ability["trigger"])
    push(game, ("effects", controller, source, ability["effects"], 0, other))


def _source_code(game: GameState, controller: int, source: int) -> str | None:
    if source == HERO_UID:
        return game.players[controller].hero.code
    minion = minion_by_uid(game, source)
    if minion is not None:
        return minion.card.code
    fallen = game._fallen.get(source)       # last words: the minion has already gone
    return fallen.code if fallen is not None else None


def t_effects(game: GameState, controller: int, source: int,
              effects: Sequence[dict[str, Any]], index: int, other: int) -> None:
    if index + 1 < len(effects):
        push_one(game, ("effects", controller, source, effects, index + 1, other))
    t_effect(game, controller, source, effects[index], other, None)


def t_effect(game: GameState, controller: int, source: int, effect: dict[str, Any], other: int,
             targets: list[int] | None) -> None:
    if targets is None and "target" in effect:
        targets = select(game, controller, source, effect, other)
        if targets is None:        # a decision was asked; the answer resumes this effect
            return
    do_effect(game, effect["do"], controller, source, effect, other, targets)


# ------------------------------------------------------------ optional skills (R6.1)

def t_offer(game: GameState, controller: int, source: int, ability: dict[str, Any]) -> None:
    """R4.4, R4.5: an awaken skill or last words *may* be used, so its controller is asked
    (decision ``optional``: ``use`` or ``decline``). [ruling R6.1] Asked only when it could do
    something, by the test an item or active skill passes to be offered (``targets.usable``,
    from what the controller can see); otherwise, or under the ruleset's
    ``always_use_optional_skills``, it resolves unasked."""
    if game.ruleset.always_use_optional_skills \
            or not usable(game, controller, source, ability):
        t_ability(game, controller, source, ability, -1)
        return
    ask(game, "optional", controller, (_source_code(game, controller, source), ability),
        resume=("ability", controller, source, ability, -1))


def answer_optional(game: GameState, decision: Decision, action: Action) -> None:
    if action.kind == "use":
        assert decision.resume is not None         # an optional skill resumes its ability
        push(game, decision.resume)
    elif game.events is not None:
        event(game, "declined", player=decision.player, source=decision.data[0],
              trigger=decision.data[1]["trigger"])


# ------------------------------------------------------------ main-phase plays (R2.2.3)

def do_place(game: GameState, index: int, action: Action) -> None:
    place(game, index, action.a, action.b)


def do_awaken(game: GameState, index: int, action: Action) -> None:
    player = game.players[index]
    minion = player.minions[action.a]
    assert minion is not None                      # a legal awakening names a minion
    player.energy -= minion.card.cost                                     # R2.2.3 c
    awaken(game, index, minion)


def do_item(game: GameState, index: int, action: Action) -> None:
    player = game.players[index]
    card = player.hand.pop(action.a)
    player.energy -= card.cost                                            # R2.2.3 a
    game.played[index][card.code] = game.played[index].get(card.code, 0) + 1
    if game.events is not None:
        event(game, "item", player=index, card=card.code)
    # The item's abilities get a source id of their own (no minion has it) so the event log
    # can name the item that resolved them, as it names a fallen minion's last words.
    source = -game._next_uid
    game._next_uid += 1
    game._fallen[source] = card
    tasks: list[tuple[Any, ...]] = [("ability", index, source, a, -1)
                          for a in card.by_trigger.get("use", ())]
    tasks.append(("to_graveyard", index, card))
    push_list(game, tasks)


def t_to_graveyard(game: GameState, index: int, card: CardDef) -> None:
    game.players[index].graveyard.append(card)


def do_skill(game: GameState, index: int, action: Action) -> None:
    player = game.players[index]
    minion = player.minions[action.a]
    assert minion is not None                      # a legal skill is a minion's
    ability = minion.card.by_trigger["active"][action.b]
    player.energy -= ability["cost"]
    minion.skill_used = True                                              # R4.6
    push(game, ("ability", index, minion.uid, ability, -1))


def do_hero_skill(game: GameState, index: int, action: Action) -> None:
    player = game.players[index]
    ability = player.hero.by_trigger["active"][action.a]
    player.energy -= ability["cost"]
    player.hero_skill_used = True                                         # R4.6
    push(game, ("ability", index, HERO_UID, ability, -1))
