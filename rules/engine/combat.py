"""Combat (R2.3): attacking a minion or the enemy hero, the combat itself and re-act (R4.9).

Invariants: a combat is one ``combat`` task (reveal, combat-start skills) followed by one
``combat_resolve`` task; ``game.combat`` is set only between the two. Attack values, keywords
and auras are ``values``'; deaths and what follows them are ``moves``'.
"""

from __future__ import annotations

from typing import Any

from rules.engine.actions import HERO, Action
from rules.engine.cards import AFTER_WIN_BIT, COMBAT_START_BIT
from rules.engine.core import Combat, GameState, event, locate, push, push_list, spot
from rules.engine.moves import Death, after_deaths, dying
from rules.engine.state import Minion
from rules.engine.values import final_attack, has_keyword

# ------------------------------------------------------------ attacking

def do_attack(game: GameState, index: int, action: Action) -> None:
    player, foe = game.players[index], game.players[1 - index]
    attacker = player.minions[action.a]
    assert attacker is not None                    # a legal attack is made by a minion
    attacker.attacks_left -= 1
    attacker.attacked = True
    if action.b == HERO:                                                  # R2.3.10
        against = foe.hero.attribute if game.ruleset.hero_advantage else None
        damage = final_attack(game, attacker, against, False)
        foe.hp -= damage
        if game.events is not None:
            event(game, "attack_hero", player=index, card=attacker.card.code, damage=damage,
                  hp=foe.hp, at=[index, action.a])
        return
    defender = foe.minions[action.b]
    assert defender is not None                    # ... on a minion or the hero
    push(game, ("combat", attacker.uid, defender.uid))


def t_combat(game: GameState, attacker_uid: int, defender_uid: int) -> None:
    a_spot, d_spot = locate(game, attacker_uid), locate(game, defender_uid)
    assert a_spot is not None and d_spot is not None      # a combat starts on the board
    a_side, d_side = a_spot[0], d_spot[0]
    attacker = game.players[a_side].minions[a_spot[1]]
    defender = game.players[d_side].minions[d_spot[1]]
    assert attacker is not None and defender is not None
    if not defender.awake:                                                # R2.3.2
        defender.public = True
    if game.events is not None:
        event(game, "combat", player=a_side, attacker=attacker.card.code, slot=a_spot[1],
              defender=defender.card.code, target=d_spot[1], revealed=not defender.awake,
              at=[a_side, a_spot[1]], defender_at=[d_side, d_spot[1]])
    tasks: list[tuple[Any, ...]] = []                                               # R2.3.5
    if attacker.card.triggers & COMBAT_START_BIT:
        for ability in attacker.card.by_trigger["combat_start"]:
            if attacker.awake or ability["sleeping"]:                     # R2.3.2
                tasks.append(("ability", a_side, attacker_uid, ability, defender_uid))
    if defender.card.triggers & COMBAT_START_BIT:
        for ability in defender.card.by_trigger["combat_start"]:
            if defender.awake or ability["sleeping"]:
                tasks.append(("ability", d_side, defender_uid, ability, attacker_uid))
    # What regenerate restores (R4.10) is taken before the combat-start skills; with none
    # to run, nothing changes the two minions before they are judged, so nothing is kept.
    restore = {attacker_uid: _before_combat(attacker),
               defender_uid: _before_combat(defender)} if tasks else {}
    game.combat = Combat(attacker_uid, defender_uid, restore)
    tasks.append(("combat_resolve",))
    push_list(game, tasks)


def t_combat_resolve(game: GameState) -> None:
    combat = game.combat
    assert combat is not None                      # set by the combat task just before
    game.combat = None
    attacker_uid = combat.attacker
    defender_uid = combat.defender
    a_spot, d_spot = locate(game, attacker_uid), locate(game, defender_uid)
    if combat.skipped or a_spot is None or d_spot is None or a_spot[0] == d_spot[0]:
        if game.events is not None:
            event(game, "combat_unresolved")                                  # R2.3.6
        return
    a_side, a_slot = a_spot
    d_side, d_slot = d_spot
    attacker = game.players[a_side].minions[a_slot]
    defender = game.players[d_side].minions[d_slot]
    assert attacker is not None and defender is not None
    a_final = final_attack(game, attacker, defender.card.attribute,
                           has_keyword(game, defender, "shield"))          # R2.3.3, R4.8
    d_final = final_attack(game, defender, attacker.card.attribute,
                           has_keyword(game, attacker, "shield"))
    a_loses, d_loses = a_final <= d_final, d_final <= a_final             # R2.3.7
    if game.events is not None:
        losers = [m.card.code for m, lost in ((attacker, a_loses), (defender, d_loses))
                  if lost]
        event(game, "combat_result", attack=a_final, defense=d_final, losers=losers)
    restore = combat.restore
    a_dead = dying(game, a_side, a_slot, restore.get(attacker_uid)) if a_loses else None
    d_dead = dying(game, d_side, d_slot, restore.get(defender_uid)) if d_loses else None
    if d_dead is not None and a_dead is None:
        _react(game, attacker)                                                # R4.9
    first: list[tuple[Any, ...]] = []
    if (a_dead is None) != (d_dead is None):                              # R2.3.9
        if a_dead is None:
            _after_win(game, attacker, a_side, defender_uid, first)
        else:
            _after_win(game, defender, d_side, attacker_uid, first)
    # Effects in the order the minions were judged; replenish chances (R2.4.1) defender's
    # side first. (Plain appends: a comprehension over a tuple iterates it generically.)
    destroyed: list[Death] = []
    replenish_order: list[Death] = []
    if a_dead is not None:
        destroyed.append(a_dead)
    if d_dead is not None:
        destroyed.append(d_dead)
        replenish_order.append(d_dead)
    if a_dead is not None:
        replenish_order.append(a_dead)
    after_deaths(game, destroyed, replenish_order, first)


def _after_win(game: GameState, winner: Minion, w_side: int, loser_uid: int,
               first: list[tuple[Any, ...]]) -> None:
    """The winner's after-combat skills (R2.3.9), into ``first``."""
    if winner.card.triggers & AFTER_WIN_BIT:
        for ability in winner.card.by_trigger["after_win"]:
            if winner.awake or ability["sleeping"]:
                first.append(("ability", w_side, winner.uid, ability, loser_uid))


def _react(game: GameState, attacker: Minion) -> None:
    if has_keyword(game, attacker, "react") and not attacker.reacted:
        attacker.reacted = True
        attacker.attacks_left += 1
        if game.events is not None:
            event(game, "react", card=attacker.card.code, at=spot(game, attacker.uid))


def _before_combat(minion: Minion) -> tuple[Any, ...]:
    """What regenerate restores (R4.10): every buff and debuff from before the combat —
    attack changes and keyword grants or removals alike."""
    return (minion.perm_attack, minion.turn_attack, minion.keywords, minion.turn_granted,
            minion.turn_removed)             # frozensets: kept as they are
