"""Combat (R2.3), keywords (R4.8–R4.10) and attack values, auras included.

Invariants: a combat is one ``combat`` task (reveal, combat-start skills) followed by one
``combat_resolve`` task; ``self.combat`` is set only between the two. Final attack is never
below 0 (R2.3.4 ruling). Aura bonuses are worked out when asked (memoised only while nothing they
depend on can have changed), never stored on the minions, so an aura ends the moment its
source sleeps, leaves or its condition fails.
"""

from __future__ import annotations

from typing import Final

from rules.engine.actions import HERO, Action
from rules.engine.advantage import has_advantage
from rules.engine.cards import CardDef
from rules.engine.effects import EffectsMixin
from rules.engine.filters import card_matches
from rules.engine.state import Minion

_NOTHING: Final[list] = []
_NO_KEYWORDS: Final[frozenset[str]] = frozenset()


class CombatMixin(EffectsMixin):
    # ------------------------------------------------------------ attack values

    def _keywords(self, minion: Minion) -> set[str] | frozenset[str]:
        """The keywords a minion has now: printed and granted, less removed, plus auras.

        [ruling R6.3] Keywords work while the minion sleeps: they are glossary terms of their
        own, not passive skills (R4.1) — R4.10 regenerate explicitly keeps a sleeping minion
        sleeping, and shield (R4.8) is read the same way for a face-down defender. Ruleset
        option sleeping_keywords off: a sleeping minion has none."""
        if not minion.awake and not self.ruleset.sleeping_keywords:
            return _NO_KEYWORDS
        have = minion.keywords
        if minion.turn_granted or minion.turn_removed:
            have = (have | minion.turn_granted) - minion.turn_removed
        if self._auras:
            granted = self._aura_keywords(minion)
            if granted:
                have = have | set(granted)
        return have

    def _attack_mod(self, minion: Minion) -> int:
        """Buffs minus debuffs (R2.3.4): permanent, this turn, and auras."""
        mod = minion.perm_attack + minion.turn_attack
        if self._auras:
            mod += self._aura_attack(minion)
        return mod

    def _current_attack(self, minion: Minion) -> int:
        return max(0, minion.card.attack + self._attack_mod(minion))

    def _final_attack(self, minion: Minion, against: str | None, against_shield: bool) -> int:
        """R2.3.3–R2.3.4: printed × advantage multiplier + buffs − debuffs, at least 0."""
        advantage = has_advantage(minion.card.attribute, against) and not against_shield
        return max(0, minion.card.attack * (2 if advantage else 1) + self._attack_mod(minion))

    # ------------------------------------------------------------ auras (R4.7)
    #
    # What the auras reaching a minion give it (attack amounts, keywords granted: the only aura
    # effects) is worked out for the whole board at once and memoised, because agents and combat
    # ask about the same minions many times between changes. An aura whose effect depends on
    # the board alone (which minions, where, awake or not, their printed properties) keeps its
    # part until the board changes (``_board_changed``); the other auras' part is kept for one
    # state step (``_tick`` moves with every action and task).

    def _aura_attack(self, minion: Minion) -> int:
        """The attack the auras in force give ``minion`` now."""
        if not self._auras_in_force():
            return 0
        bonus = self._board_attack.get(minion.uid, 0)
        if self._dynamic_auras:
            self._refresh_dynamic_part()
            bonus += self._step_attack.get(minion.uid, 0)
        return bonus

    def _aura_keywords(self, minion: Minion) -> list[str]:
        """The keywords the auras in force grant ``minion`` now (repeats possible)."""
        if not self._auras_in_force():
            return _NOTHING
        granted = self._board_keywords.get(minion.uid, _NOTHING)
        if self._dynamic_auras:
            self._refresh_dynamic_part()
            more = self._step_keywords.get(minion.uid)
            if more:
                granted = granted + more
        return granted

    def _auras_in_force(self) -> bool:
        """Bring the board-only part up to date; False when no aura is in force — or while an
        aura's own condition or amount is being worked out and asks about attack values: the
        answer then comes from the cards alone instead of recursing forever."""
        if self._aura_busy:
            return False
        if self._aura_key != self._board_version:
            self._aura_key = self._board_version
            if self._sources_key != self._aura_sources:
                self._sources_key = self._aura_sources
                self._collect_auras()
            self._board_attack, self._board_keywords = {}, {}
            if self._static_auras:
                self._aura_table(self._static_auras, self._board_attack, self._board_keywords)
        return bool(self._static_auras) or bool(self._dynamic_auras)

    def _refresh_dynamic_part(self) -> None:
        if self._aura_tick != self._tick:
            self._aura_tick = self._tick
            self._step_attack, self._step_keywords = {}, {}
            self._aura_table(self._dynamic_auras, self._step_attack, self._step_keywords)

    def _collect_auras(self) -> None:
        """The auras in force, as (controller, source uid, ability), split into those whose
        effect depends on the board alone and the others."""
        static: list[tuple[int, int, dict]] = []
        dynamic: list[tuple[int, int, dict]] = []
        for index, player in enumerate(self.players):
            for ability in player.hero.by_trigger.get("aura", ()):
                (static if _depends_on_board_only(ability) else dynamic).append(
                    (index, 0, ability))
            for minion in player.minions:
                if minion is not None:
                    for ability in minion.card.by_trigger.get("aura", ()):
                        if minion.awake or ability["sleeping"]:
                            (static if _depends_on_board_only(ability) else dynamic).append(
                                (index, minion.uid, ability))
        self._static_auras, self._dynamic_auras = static, dynamic

    def _aura_table(self, auras: list[tuple[int, int, dict]], attack: dict[int, int],
                    keywords: dict[int, list[str]]) -> None:
        """Add what these auras give to ``attack`` and ``keywords`` (by minion uid). Each
        aura's condition, reach and amount are worked out once, not per minion."""
        self._aura_busy = True
        try:
            for index, source, ability in auras:
                if ability["if"] is not None and not self._condition(index, ability["if"]):
                    continue
                for effect in ability["effects"]:
                    target = effect["target"]
                    reached = [source] if target["pick"] == "self" \
                        else self._aura_reach(index, source, target)
                    if effect["do"] == "attack":
                        # Counted here, still busy: a count that filters on attack must not
                        # ask the auras again (that recursed without end).
                        amount = self._amount(index, effect["amount"])
                        for uid in reached:
                            attack[uid] = attack.get(uid, 0) + amount
                    else:
                        keyword = effect["keyword"]
                        for uid in reached:
                            have = keywords.get(uid)
                            if have is None:
                                keywords[uid] = [keyword]
                            else:
                                have.append(keyword)
        finally:
            self._aura_busy = False

    def _board_changed(self, card: CardDef | None = None) -> None:
        """A minion entered, left, woke or changed sides (``card``: its card; None when anything
        may have changed): what the auras give is worked out afresh when next asked, and the
        auras in force are collected again if that minion has one."""
        self._tick += 1
        self._board_version += 1
        if card is None or "aura" in card.by_trigger:
            self._aura_sources += 1

    def _aura_reach(self, controller: int, source: int, target: dict) -> list[int]:
        """The uids of the minions an aura's target reaches (its filter read on the card:
        a filter on attack would recurse into the auras)."""
        flt, pick, other = target["filter"], target["pick"], target["other"]
        out: list[int] = []
        if pick == "adjacent":
            anchor = self._locate(source)
            if anchor is None:
                return out
            p, s = anchor
            minions = self.players[p].minions
            for t in (s - 1, s + 1):
                if 0 <= t < self.ruleset.slots:
                    minion = minions[t]
                    if minion is not None and _reached(minion, source, other, flt):
                        out.append(minion.uid)
            return out
        leftmost, rightmost = pick == "leftmost", pick == "rightmost"
        for p in self._sides(controller, target["side"]):
            found = -1
            for minion in self.players[p].minions:
                if minion is not None and _reached(minion, source, other, flt):
                    found = minion.uid
                    if leftmost:
                        break
                    if not rightmost:
                        out.append(found)
            if (leftmost or rightmost) and found != -1:
                out.append(found)
        return out

    # ------------------------------------------------------------ attacking

    def _do_attack(self, index: int, action: Action) -> None:
        player, foe = self.players[index], self.players[1 - index]
        attacker = player.minions[action.a]
        attacker.attacks_left -= 1
        attacker.attacked = True
        if action.b == HERO:                                                  # R2.3.10
            against = foe.hero.attribute if self.ruleset.hero_advantage else None
            damage = self._final_attack(attacker, against, False)
            foe.hp -= damage
            if self.events is not None:
                self._event("attack_hero", player=index, card=attacker.card.code, damage=damage,
                            hp=foe.hp)
            return
        self._push(("combat", attacker.uid, foe.minions[action.b].uid))

    def _t_combat(self, attacker_uid: int, defender_uid: int) -> None:
        a_spot, d_spot = self._locate(attacker_uid), self._locate(defender_uid)
        assert a_spot is not None and d_spot is not None      # a combat starts on the board
        a_side, d_side = a_spot[0], d_spot[0]
        attacker = self.players[a_side].minions[a_spot[1]]
        defender = self.players[d_side].minions[d_spot[1]]
        assert attacker is not None and defender is not None
        if not defender.awake:                                                # R2.3.2
            defender.public = True
        if self.events is not None:
            self._event("combat", player=a_side, attacker=attacker.card.code, slot=a_spot[1],
                        defender=defender.card.code, target=d_spot[1],
                        revealed=not defender.awake)
        tasks: list[tuple] = []                                               # R2.3.5
        for ability in attacker.card.by_trigger.get("combat_start", ()):
            if attacker.awake or ability["sleeping"]:                         # R2.3.2
                tasks.append(("ability", a_side, attacker_uid, ability, defender_uid))
        for ability in defender.card.by_trigger.get("combat_start", ()):
            if defender.awake or ability["sleeping"]:
                tasks.append(("ability", d_side, defender_uid, ability, attacker_uid))
        # What regenerate restores (R4.10) is taken before the combat-start skills; with none
        # to run, nothing changes the two minions before they are judged, so nothing is kept.
        restore = {attacker_uid: _before_combat(attacker),
                   defender_uid: _before_combat(defender)} if tasks else {}
        self.combat = {"attacker": attacker_uid, "defender": defender_uid, "skipped": False,
                       "restore": restore}
        tasks.append(("combat_resolve",))
        self._push_list(tasks)

    def _t_combat_resolve(self) -> None:
        combat = self.combat
        assert combat is not None                      # set by the combat task just before
        self.combat = None
        attacker_uid: int = combat["attacker"]
        defender_uid: int = combat["defender"]
        a_spot, d_spot = self._locate(attacker_uid), self._locate(defender_uid)
        if combat["skipped"] or a_spot is None or d_spot is None or a_spot[0] == d_spot[0]:
            if self.events is not None:
                self._event("combat_unresolved")                                  # R2.3.6
            return
        a_side, a_slot = a_spot
        d_side, d_slot = d_spot
        attacker = self.players[a_side].minions[a_slot]
        defender = self.players[d_side].minions[d_slot]
        assert attacker is not None and defender is not None
        a_final = self._final_attack(attacker, defender.card.attribute,
                                     "shield" in self._keywords(defender))   # R2.3.3, R4.8
        d_final = self._final_attack(defender, attacker.card.attribute,
                                     "shield" in self._keywords(attacker))
        a_loses, d_loses = a_final <= d_final, d_final <= a_final             # R2.3.7
        if self.events is not None:
            losers = [m.card.code for m, lost in ((attacker, a_loses), (defender, d_loses))
                      if lost]
            self._event("combat_result", attack=a_final, defense=d_final, losers=losers)
        restore: dict[int, tuple] = combat["restore"]
        a_dead = self._dying(a_side, a_slot, restore.get(attacker_uid)) if a_loses else None
        d_dead = self._dying(d_side, d_slot, restore.get(defender_uid)) if d_loses else None
        if d_dead is not None and a_dead is None:
            self._react(attacker)                                             # R4.9
        first: list[tuple] = []
        if (a_dead is None) != (d_dead is None):                              # R2.3.9
            winner, w_side, loser_uid = (attacker, a_side, defender_uid) if a_dead is None \
                else (defender, d_side, attacker_uid)
            for ability in winner.card.by_trigger.get("after_win", ()):
                if winner.awake or ability["sleeping"]:
                    first.append(("ability", w_side, winner.uid, ability, loser_uid))
        # Effects in the order the minions were judged; replenish chances (R2.4.1) defender's
        # side first.
        destroyed = [d for d in (a_dead, d_dead) if d is not None]
        replenish_order = [d for d in (d_dead, a_dead) if d is not None]
        self._after_deaths(destroyed, replenish_order, first)

    def _react(self, attacker: Minion) -> None:
        if "react" in self._keywords(attacker) and not attacker.reacted:
            attacker.reacted = True
            attacker.attacks_left += 1
            if self.events is not None:
                self._event("react", card=attacker.card.code)


def _reached(minion: Minion, source: int, other: bool, flt: dict | None) -> bool:
    """Does an aura from ``source`` reach this minion (its filter read on the card)?"""
    return not (other and minion.uid == source) \
        and (flt is None or card_matches(minion.card, flt, minion))


# Filter keys answered by the card or by ``awake`` alone: a count of minions filtered on these
# changes only when the board does.
_BOARD_FILTER_KEYS: Final = frozenset(
    {"attribute", "rarity", "kind", "faction", "race", "cost_min", "cost_max", "awake"})


def _depends_on_board_only(ability: dict) -> bool:
    """Does what this aura gives depend on the board alone? True when its condition and
    amounts are fixed or count minions by printed properties and ``awake``."""
    condition = ability["if"]
    if condition is not None and ("count" not in condition
                                  or not _counts_the_board(condition["count"])):
        return False
    for effect in ability["effects"]:
        amount = effect.get("amount", 0)
        if not isinstance(amount, int) and not _counts_the_board(amount["count"]):
            return False
    return True


def _counts_the_board(count: dict) -> bool:
    flt = count["filter"]
    return count["zone"] == "minions" and (flt is None or _BOARD_FILTER_KEYS.issuperset(flt))


def _before_combat(minion) -> tuple:
    """What regenerate restores (R4.10): every buff and debuff from before the combat —
    attack changes and keyword grants or removals alike."""
    return (minion.perm_attack, minion.turn_attack, frozenset(minion.keywords),
            frozenset(minion.turn_granted), frozenset(minion.turn_removed))
