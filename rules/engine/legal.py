"""Legal actions for each kind of decision.

Invariants: the lists are built only from what the deciding player may know (their own hand,
public board facts, and chosen-target candidates filtered by what they can see); identical
hand cards give one action, not one per copy, so agents are not biased towards duplicates.
"""

from __future__ import annotations

from typing import Final

from rules.engine.actions import END, HERO, KEEP, PASS, READY, Action
from rules.engine.cards import CardDef
from rules.engine.core import Decision, GameCore
from rules.engine.state import Minion, Player

_new = tuple.__new__  # builds an Action without NamedTuple's Python-level __new__

# The main phase's place, awaken and attack actions, built once: legal actions are listed after
# every action of a game, and a shared immutable Action costs nothing to hand out again.
_TABLE_SIZE: Final = 32     # hand positions and slots covered; larger ones are built when needed
_PLACE: Final[list[list[Action]]] = [
    [_new(Action, ("place", i, s)) for s in range(_TABLE_SIZE)] for i in range(_TABLE_SIZE)]
_AWAKEN: Final[list[Action]] = [_new(Action, ("awaken", s, -1)) for s in range(_TABLE_SIZE)]
_ATTACK: Final[list[list[Action]]] = [
    [_new(Action, ("attack", s, t)) for t in range(_TABLE_SIZE)] for s in range(_TABLE_SIZE)]
_ATTACK_HERO: Final[list[Action]] = [
    _new(Action, ("attack", s, HERO)) for s in range(_TABLE_SIZE)]


def _pair_action(table: list[list[Action]], kind: str, a: int, b: int) -> Action:
    """The prebuilt ``(kind, a, b)`` of a two-argument table, or a new one beyond it."""
    if a < _TABLE_SIZE and b < _TABLE_SIZE:
        return table[a][b]
    return _new(Action, (kind, a, b))


def _slot_action(table: list[Action], kind: str, slot: int, target: int) -> Action:
    """The prebuilt ``(kind, slot, target)`` of a one-slot table, or a new one beyond it."""
    return table[slot] if slot < _TABLE_SIZE else _new(Action, (kind, slot, target))


def unique_cards(cards: list[CardDef], kind: str | None = None) -> list[tuple[int, CardDef]]:
    """(position, card) for the first copy of each card code, optionally of one kind."""
    seen: set[str] = set()
    out = []
    for i, card in enumerate(cards):
        if (kind is None or card.kind == kind) and card.code not in seen:
            seen.add(card.code)
            out.append((i, card))
    return out


class LegalMixin(GameCore):
    def _legal_for(self, decision: Decision) -> list[Action]:
        kind = decision.kind
        if kind == "main":
            return self._legal_main(decision)
        if kind == "target":
            return self._legal_target(decision)
        if kind == "replenish":
            return self._legal_replenish(decision)
        if kind == "mulligan":
            return self._legal_mulligan(decision)
        if kind == "setup":
            return self._legal_setup(decision)
        if kind == "discard":
            return self._legal_discard(decision)
        if kind == "discard_display":
            return self._legal_discard_display(decision)
        if kind == "choose":
            return self._legal_choose(decision)
        if kind == "pick":
            return self._legal_pick(decision)
        raise ValueError(f"unknown decision {kind!r}")

    def _legal_mulligan(self, decision: Decision) -> list[Action]:
        player = self.players[decision.player]
        marked = set(player.marked)
        return [_new(Action, ("mulligan", i, -1)) for i in range(len(player.hand))
                if i not in marked] \
            + [KEEP]

    def _legal_setup(self, decision: Decision) -> list[Action]:
        return self._place_actions(self.players[decision.player]) + [READY]

    def _place_actions(self, player: Player) -> list[Action]:
        empties = player.empty_slots()
        if not empties:
            return []
        return [_pair_action(_PLACE, "place", i, slot)
                for i, _ in unique_cards(player.hand, "minion")
                for slot in empties]

    def _legal_main(self, decision: Decision) -> list[Action]:
        # The hottest function of a simulation: plain loops, prebuilt actions.
        index = decision.player
        if self.main_actions >= self.ruleset.action_limit:
            return [END]                           # [ruling] see Ruleset.action_limit
        player, foe = self.players[index], self.players[1 - index]
        energy = player.energy
        empties = [s for s, m in enumerate(player.minions) if m is None]
        actions: list[Action] = []
        items = []
        seen: set[str] = set()
        for i, card in enumerate(player.hand):
            if card.code in seen:
                continue
            seen.add(card.code)
            if card.kind == "minion":
                for slot in empties:
                    actions.append(_pair_action(_PLACE, "place", i, slot))
            elif card.cost <= energy:
                items.append((i, card))
        enemy_slots = [s for s, m in enumerate(foe.minions) if m is not None]
        exclusive = self.ruleset.attack_or_skill
        for slot, minion in enumerate(player.minions):
            if minion is None:
                continue
            if not minion.awake:
                if minion.card.cost <= energy:
                    actions.append(_slot_action(_AWAKEN, "awaken", slot, -1))
                continue
            if minion.attacks_left > 0 and not (exclusive and minion.skill_used):
                for target in enemy_slots:
                    actions.append(_pair_action(_ATTACK, "attack", slot, target))
                if self._may_attack_hero(minion):
                    actions.append(_slot_action(_ATTACK_HERO, "attack", slot, HERO))
            actives = minion.card.by_trigger.get("active")
            if actives and not minion.skill_used and not (exclusive and minion.attacked):
                for i, ability in enumerate(actives):
                    if ability["cost"] <= energy and self._usable(index, minion.uid, ability):
                        actions.append(_new(Action, ("skill", slot, i)))
        for i, card in items:
            if any(self._usable(index, -1, ability) for ability in card.by_trigger.get("use", ())):
                actions.append(_new(Action, ("item", i, -1)))
        if not player.hero_skill_used:
            for i, ability in enumerate(player.hero.by_trigger.get("active", ())):
                if ability["cost"] <= energy and self._usable(index, 0, ability):
                    actions.append(_new(Action, ("hero_skill", i, -1)))
        actions.append(END)
        return actions

    def _may_attack_hero(self, minion: Minion) -> bool:
        """R4.2: not on the turn it was awakened (R4.9 option for a re-act attack)."""
        if minion.awake_turn != self.turn:
            return True
        return self.ruleset.react_ignores_awaken_turn and minion.reacted

    def _legal_discard(self, decision: Decision) -> list[Action]:
        hand = self.players[decision.player].hand
        return [_new(Action, ("discard", i, -1)) for i, _ in unique_cards(hand)]

    def _legal_discard_display(self, decision: Decision) -> list[Action]:
        display = self.players[decision.player].display
        return [_new(Action, ("discard_display", i, -1)) for i, _ in unique_cards(display)]

    def _legal_replenish(self, decision: Decision) -> list[Action]:
        hand = self.players[decision.player].hand
        return [_new(Action, ("replenish", i, -1)) for i, _ in unique_cards(hand, "minion")] \
            + [PASS]

    def _legal_target(self, decision: Decision) -> list[Action]:
        return [_new(Action, ("target", p, s)) for p, s in decision.data]

    def _legal_choose(self, decision: Decision) -> list[Action]:
        return [_new(Action, ("choose", i, -1)) for i in range(len(decision.data))]

    def _legal_pick(self, decision: Decision) -> list[Action]:
        hand = self.players[decision.player].hand
        allowed = set(decision.data)
        seen: set[str] = set()
        actions = []
        for i in decision.data:
            if i in allowed and hand[i].code not in seen:
                seen.add(hand[i].code)
                actions.append(_new(Action, ("pick", i, -1)))
        return actions
