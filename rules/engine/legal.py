"""Legal actions for each kind of decision.

Invariants: the lists are built only from what the deciding player may know (their own hand,
public board facts, and chosen-target candidates filtered by what they can see); identical
hand cards give one action, not one per copy, so agents are not biased towards duplicates.
"""

from __future__ import annotations

from typing import Final

from rules.engine.actions import DECLINE, END, HERO, KEEP, PASS, READY, USE, Action
from rules.engine.cards import ACTIVE_BIT, USE_BIT, CardDef
from rules.engine.core import Decision, GameState
from rules.engine.state import Minion, Player
from rules.engine.targets import usable

_new = tuple.__new__  # builds an Action without NamedTuple's Python-level __new__

# Every action a legal-action list can hold, built once for the hand positions, slots and option
# numbers a game uses: legal actions are listed after every action of a game, and handing out a
# shared immutable Action costs nothing next to building one. Larger numbers are built when met.
_TABLE_SIZE: Final = 32


def _singles(kind: str, b: int = -1) -> list[Action]:
    return [_new(Action, (kind, a, b)) for a in range(_TABLE_SIZE)]


def _pairs(kind: str) -> list[list[Action]]:
    return [[_new(Action, (kind, a, b)) for b in range(_TABLE_SIZE)] for a in range(_TABLE_SIZE)]


_PLACE: Final[list[list[Action]]] = _pairs("place")
_ATTACK: Final[list[list[Action]]] = _pairs("attack")
_SKILL: Final[list[list[Action]]] = _pairs("skill")
_TARGET: Final[list[list[Action]]] = _pairs("target")
_AWAKEN: Final[list[Action]] = _singles("awaken")
_ATTACK_HERO: Final[list[Action]] = _singles("attack", HERO)
_MULLIGAN: Final[list[Action]] = _singles("mulligan")
_ITEM: Final[list[Action]] = _singles("item")
_HERO_SKILL: Final[list[Action]] = _singles("hero_skill")
_REPLENISH: Final[list[Action]] = _singles("replenish")
_DISCARD: Final[list[Action]] = _singles("discard")
_DISCARD_DISPLAY: Final[list[Action]] = _singles("discard_display")
_CHOOSE: Final[list[Action]] = _singles("choose")
_PICK: Final[list[Action]] = _singles("pick")


def _pair_action(table: list[list[Action]], kind: str, a: int, b: int) -> Action:
    """The prebuilt ``(kind, a, b)`` of a two-argument table, or a new one beyond it."""
    if a < _TABLE_SIZE and b < _TABLE_SIZE:
        return table[a][b]
    return _new(Action, (kind, a, b))


def _slot_action(table: list[Action], kind: str, slot: int, target: int = -1) -> Action:
    """The prebuilt ``(kind, slot, target)`` of a one-slot table, or a new one beyond it."""
    return table[slot] if slot < _TABLE_SIZE else _new(Action, (kind, slot, target))


def first_copies(cards: list[CardDef], kind: str | None = None) -> list[int]:
    """The positions of the first copy of each card, optionally of one kind. Every card of a
    game comes from its one ``{code: CardDef}`` mapping, so two copies of a card are the same
    object: comparing identities with the earlier positions (a hand is a few cards) beats
    building a set of codes each time."""
    out: list[int] = []
    for i, card in enumerate(cards):
        if kind is not None and card.kind != kind:
            continue
        for j in range(i):
            if cards[j] is card:
                break
        else:
            out.append(i)
    return out


def legal_actions(game: GameState) -> list[Action]:
    """The legal actions of the player to move (``game.decision``), kept until the game
    moves on."""
    decision = game.decision
    if decision is None:
        return []
    if game._legal is None:
        game._legal = legal_for(game, decision)
    return game._legal


def legal_for(game: GameState, decision: Decision) -> list[Action]:
    kind = decision.kind
    if kind == "main":
        return _legal_main(game, decision)
    if kind == "target":
        return _legal_target(game, decision)
    if kind == "replenish":
        return _legal_replenish(game, decision)
    if kind == "mulligan":
        return _legal_mulligan(game, decision)
    if kind == "setup":
        return _legal_setup(game, decision)
    if kind == "discard":
        return _legal_discard(game, decision)
    if kind == "discard_display":
        return _legal_discard_display(game, decision)
    if kind == "choose":
        return _legal_choose(game, decision)
    if kind == "pick":
        return _legal_pick(game, decision)
    if kind == "optional":
        return [USE, DECLINE]               # R4.4, R4.5: use first, then decline
    raise ValueError(f"unknown decision {kind!r}")


def _legal_mulligan(game: GameState, decision: Decision) -> list[Action]:
    player = game.players[decision.player]
    marked = player.marked
    return [_slot_action(_MULLIGAN, "mulligan", i) for i in range(len(player.hand))
            if i not in marked] + [KEEP]


def _legal_setup(game: GameState, decision: Decision) -> list[Action]:
    return _place_actions(game, game.players[decision.player]) + [READY]


def _place_actions(game: GameState, player: Player) -> list[Action]:
    empties = player.empty_slots()
    if not empties:
        return []
    return [_pair_action(_PLACE, "place", i, slot)
            for i in first_copies(player.hand, "minion")
            for slot in empties]


def _legal_main(game: GameState, decision: Decision) -> list[Action]:
    # The hottest function of a simulation: plain loops, prebuilt actions read straight from
    # their tables (a board of at most _TABLE_SIZE slots, hand positions below it), no list
    # built but the answer.
    index = decision.player
    if game.main_actions >= game.ruleset.action_limit:
        return [END]                           # [ruling] see Ruleset.action_limit
    player, foe = game.players[index], game.players[1 - index]
    energy = player.energy
    own = player.minions
    enemy = foe.minions
    size = len(own)
    tables = size <= _TABLE_SIZE and len(enemy) <= _TABLE_SIZE
    actions: list[Action] = []
    hand = player.hand
    # The empty slots, found once (not once per minion card in hand); None: the board is full.
    empties: list[int] | None = None
    for slot in range(size):
        if own[slot] is None:
            if empties is None:
                empties = []
            empties.append(slot)
    items: list[int] | None = None            # first copies of the items affordable now
    for i in range(len(hand)):
        card = hand[i]
        for j in range(i):                     # only the first copy of a card (first_copies)
            if hand[j] is card:
                break
        else:
            if card.kind == "minion":
                if empties is None:
                    continue
                places = _PLACE[i] if tables and i < _TABLE_SIZE else None
                for slot in empties:
                    actions.append(places[slot] if places is not None
                                   else _new(Action, ("place", i, slot)))
            elif card.cost <= energy and card.triggers & USE_BIT:
                if items is None:
                    items = []
                items.append(i)
    exclusive = game.ruleset.attack_or_skill
    for slot in range(size):
        minion = own[slot]
        if minion is None:
            continue
        if not minion.awake:
            if minion.card.cost <= energy:
                actions.append(_slot_action(_AWAKEN, "awaken", slot))
            continue
        if minion.attacks_left > 0 and not (exclusive and minion.skill_used):
            attacks = _ATTACK[slot] if tables else None
            for target in range(len(enemy)):
                if enemy[target] is not None:
                    actions.append(attacks[target] if attacks is not None
                                   else _new(Action, ("attack", slot, target)))
            if may_attack_hero(game, minion):
                actions.append(_slot_action(_ATTACK_HERO, "attack", slot, HERO))
        if minion.card.triggers & ACTIVE_BIT and not minion.skill_used \
                and not (exclusive and minion.attacked):
            always = minion.card.active_always
            for i, ability in enumerate(minion.card.by_trigger["active"]):
                if ability["cost"] <= energy and (
                        always >> i & 1 or usable(game, index, minion.uid, ability)):
                    actions.append(_pair_action(_SKILL, "skill", slot, i))
    if items is not None:
        for i in items:
            if hand[i].use_always:             # usable whatever the board: no need to look
                actions.append(_slot_action(_ITEM, "item", i))
                continue
            for ability in hand[i].by_trigger["use"]:
                if usable(game, index, -1, ability):
                    actions.append(_slot_action(_ITEM, "item", i))
                    break
    if not player.hero_skill_used and player.hero.triggers & ACTIVE_BIT:
        always = player.hero.active_always
        for i, ability in enumerate(player.hero.by_trigger["active"]):
            if ability["cost"] <= energy and (always >> i & 1 or usable(game, index, 0, ability)):
                actions.append(_slot_action(_HERO_SKILL, "hero_skill", i))
    actions.append(END)
    return actions


def may_attack_hero(game: GameState, minion: Minion) -> bool:
    """R4.2: not on the turn it was awakened (R4.9 option for a re-act attack)."""
    if minion.awake_turn != game.turn:
        return True
    return game.ruleset.react_ignores_awaken_turn and minion.reacted


def _legal_discard(game: GameState, decision: Decision) -> list[Action]:
    hand = game.players[decision.player].hand
    return [_slot_action(_DISCARD, "discard", i) for i in first_copies(hand)]


def _legal_discard_display(game: GameState, decision: Decision) -> list[Action]:
    display = game.players[decision.player].display
    return [_slot_action(_DISCARD_DISPLAY, "discard_display", i)
            for i in first_copies(display)]


def _legal_replenish(game: GameState, decision: Decision) -> list[Action]:
    hand = game.players[decision.player].hand
    return [_slot_action(_REPLENISH, "replenish", i)
            for i in first_copies(hand, "minion")] + [PASS]


def _legal_target(game: GameState, decision: Decision) -> list[Action]:
    return [_pair_action(_TARGET, "target", p, s) for p, s in decision.data]


def _legal_choose(game: GameState, decision: Decision) -> list[Action]:
    return [_slot_action(_CHOOSE, "choose", i) for i in range(len(decision.data))]


def _legal_pick(game: GameState, decision: Decision) -> list[Action]:
    # The positions offered were chosen by card properties, so the copies of a card are
    # all offered or none: the first copies in the hand are the first offered.
    allowed = decision.data
    return [_slot_action(_PICK, "pick", i)
            for i in first_copies(game.players[decision.player].hand) if i in allowed]
