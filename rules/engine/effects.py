"""The effect interpreter: triggered abilities, target selection and every effect term.

Invariants: an ability runs as tasks (``ability`` → ``effects`` → ``effect``) so a choice in the
middle of one (a chosen target, R4.11 choose, a hand card to pick) pauses the game and resumes
exactly where it stopped. Targets are carried as minion uids, so a minion that moved or left
between selection and resolution is simply skipped. Chosen-target candidates only use card
properties the chooser can see: a face-down enemy minion matches a filter only on ``awake``.
"""

from __future__ import annotations

from typing import Final

from rules.engine.actions import Action
from rules.engine.effect_terms import EffectTermsMixin
from rules.engine.filters import PUBLIC_FILTER_KEYS, card_matches
from rules.engine.state import Minion

HERO_UID: Final = 0

class EffectsMixin(EffectTermsMixin):
    # ------------------------------------------------------------ sources and triggers

    def _passive_sources(self, index: int, trigger: str, minions: bool = True,
                         hero: bool = True) -> list[tuple[int, dict]]:
        """(source uid, ability) in R2.3.9 order: minion passives left to right, then hero."""
        player = self.players[index]
        out = []
        if minions:
            for minion in player.minions:
                if minion is not None:
                    for ability in minion.card.by_trigger.get(trigger, ()):
                        if minion.awake or ability["sleeping"]:          # R4.7, R4.1
                            out.append((minion.uid, ability))
        if hero:
            out.extend((HERO_UID, a) for a in player.hero.by_trigger.get(trigger, ()))
        return out

    def _t_ability(self, controller: int, source: int, ability: dict, other: int) -> None:
        condition = ability["if"]
        if condition is not None and not self._condition(controller, condition):
            return
        if self.events is not None:
            self._event("ability", player=controller, source=self._source_code(controller, source),
                        trigger=ability["trigger"])
        self._push(("effects", controller, source, ability["effects"], 0, other))

    def _source_code(self, controller: int, source: int) -> str | None:
        if source == HERO_UID:
            return self.players[controller].hero.code
        minion = self._minion(source)
        if minion is not None:
            return minion.card.code
        fallen = self._fallen.get(source)       # last words: the minion has already gone
        return fallen.code if fallen is not None else None

    def _t_effects(self, controller, source, effects, index, other) -> None:
        if index + 1 < len(effects):
            self._stack.append(("effects", controller, source, effects, index + 1, other))
        self._t_effect(controller, source, effects[index], other, None)

    def _t_effect(self, controller, source, effect, other, targets) -> None:
        if targets is None and "target" in effect:
            targets = self._select(controller, source, effect, other)
            if targets is None:        # a decision was asked; the answer resumes this effect
                return
        self._do_effect(effect["do"], controller, source, effect, other, targets)

    def _do_effect(self, do: str, controller: int, source: int, effect: dict, other: int,
                   targets: list[int] | None) -> None:
        """Run one effect term: a direct call per term, most used first (compiled, each is a
        native call instead of a method looked up by its built name)."""
        if do == "attack":
            self._e_attack(controller, source, effect, other, targets)
        elif do == "draw":
            self._e_draw(controller, source, effect, other, targets)
        elif do == "damage_hero":
            self._e_damage_hero(controller, source, effect, other, targets)
        elif do == "heal_hero":
            self._e_heal_hero(controller, source, effect, other, targets)
        elif do == "grant_keyword":
            self._e_grant_keyword(controller, source, effect, other, targets)
        elif do == "summon":
            self._e_summon(controller, source, effect, other, targets)
        elif do == "destroy":
            self._e_destroy(controller, source, effect, other, targets)
        elif do == "discard":
            self._e_discard(controller, source, effect, other, targets)
        elif do == "choose":
            self._e_choose(controller, source, effect, other, targets)
        elif do == "return_to_hand":
            self._e_return_to_hand(controller, source, effect, other, targets)
        elif do == "energy":
            self._e_energy(controller, source, effect, other, targets)
        elif do == "skip_draw":
            self._e_skip_draw(controller, source, effect, other, targets)
        elif do == "remove_keyword":
            self._e_remove_keyword(controller, source, effect, other, targets)
        elif do == "mind_control":
            self._e_mind_control(controller, source, effect, other, targets)
        elif do == "awaken":
            self._e_awaken(controller, source, effect, other, targets)
        elif do == "display":
            self._e_display(controller, source, effect, other, targets)
        elif do == "skip_combat":
            self._e_skip_combat(controller, source, effect, other, targets)
        else:
            raise ValueError(f"unknown effect term {do!r}")

    # ------------------------------------------------------------ lookups

    def _locate(self, uid: int) -> tuple[int, int] | None:
        for p, player in enumerate(self.players):
            for s, minion in enumerate(player.minions):
                if minion is not None and minion.uid == uid:
                    return p, s
        return None

    def _minion(self, uid: int):
        loc = self._locate(uid)
        return None if loc is None else self.players[loc[0]].minions[loc[1]]

    def _sides(self, controller: int, side: str) -> tuple[int, ...]:
        if side == "ally":
            return (controller,)
        if side == "enemy":
            return (1 - controller,)
        return (controller, 1 - controller)

    def _minion_matches(self, minion: Minion, flt: dict | None) -> bool:
        if flt is None:
            return True
        # Attack and keywords are worked out (auras included) only when the filter asks.
        attack = self._current_attack(minion) \
            if "attack_min" in flt or "attack_max" in flt else None
        keywords = self._keywords(minion) if "keyword" in flt else None
        return card_matches(minion.card, flt, minion, attack, keywords)

    # ------------------------------------------------------------ targets

    def _candidates(self, controller: int, source: int, target: dict, other: int,
                    first_only: bool = False) -> list[tuple[int, int]]:
        """Every (player, slot) the target selector could mean, before pick narrows it (with
        ``first_only``, just the first: enough to know whether there is any)."""
        pick: str = target["pick"]
        flt: dict | None = target["filter"]
        exclude_source: bool = target["other"]
        # The chooser cannot see what a face-down enemy card is: it matches on awake alone.
        hidden = pick == "chosen" and flt is not None and not PUBLIC_FILTER_KEYS.issuperset(flt)
        out: list[tuple[int, int]] = []
        size = self.ruleset.slots
        sides: tuple[int, ...]
        if pick == "self" or pick == "combat_enemy" or pick == "adjacent":
            anchor = self._locate(source if pick != "combat_enemy" else other)
            if anchor is None:
                return out
            sides = (anchor[0],)
            slots = [anchor[1] - 1, anchor[1] + 1] if pick == "adjacent" else [anchor[1]]
        else:
            sides = self._sides(controller, target["side"])
            slots = list(range(size))
        for p in sides:
            minions = self.players[p].minions
            for t in slots:
                if 0 <= t < size:
                    minion = minions[t]
                    if minion is not None and self._is_candidate(
                            controller, source, p, minion, flt, exclude_source, hidden):
                        out.append((p, t))
                        if first_only:
                            return out
        return out

    def _is_candidate(self, controller: int, source: int, side: int, minion: Minion,
                      flt: dict | None, exclude_source: bool, hidden: bool) -> bool:
        if exclude_source and minion.uid == source:
            return False
        if hidden and side != controller and not minion.public:
            return False
        return self._minion_matches(minion, flt)

    def _select(self, controller, source, effect, other) -> list[int] | None:
        target = effect["target"]
        spots = self._candidates(controller, source, target, other)
        pick = target["pick"]
        if pick in ("leftmost", "rightmost"):
            firsts: dict[int, tuple[int, int]] = {}
            for spot in (spots if pick == "leftmost" else reversed(spots)):
                firsts.setdefault(spot[0], spot)
            spots = list(firsts.values())
        elif pick == "random" and len(spots) > target["count"]:
            spots = self.rng.sample(spots, target["count"])
        elif pick == "chosen" and len(spots) > 1:
            self._ask("target", controller, tuple(spots),
                      resume=("effect", controller, source, effect, other))
            return None
        return [self.players[p].minions[s].uid for p, s in spots]

    def _answer_target(self, decision, action: Action) -> None:
        uid = self.players[action.a].minions[action.b].uid
        self._push(decision.resume + ([uid],))

    def _usable(self, controller: int, source: int, ability: dict) -> bool:
        """An item or active skill is usable if its condition holds and it can do something:
        [ruling] not when every effect needs a chosen target and none exists. A condition on
        cards the user cannot see is not judged here (legal actions use only what the player
        may know): the ability is offered and its condition checked when it resolves."""
        condition = ability["if"]
        if condition is not None and not self._hidden_condition(controller, condition) \
                and not self._condition(controller, condition):
            return False
        for effect in ability["effects"]:
            target = effect.get("target")
            if target is None or target["pick"] != "chosen" \
                    or self._candidates(controller, source, target, -1, True):
                return True
        return False

    def _hidden_condition(self, controller: int, condition: dict) -> bool:
        """Does the condition look at cards ``controller`` cannot see (the enemy's hand or
        deck by a filter, or unrevealed enemy minions by more than ``awake``)?"""
        count = condition.get("count")
        if count is None or count["filter"] is None or count["side"] == "ally":
            return False                  # HP, zone sizes and one's own cards are known
        if count["zone"] in ("hand", "deck"):
            return True
        return count["zone"] == "minions" \
            and not PUBLIC_FILTER_KEYS.issuperset(count["filter"]) \
            and any(m is not None and not m.public for m in self.players[1 - controller].minions)

    # ------------------------------------------------------------ amounts and conditions

    def _amount(self, controller: int, value) -> int:
        if isinstance(value, int):
            return value
        total = self._count(controller, value["count"]) * value["times"] + value["plus"]
        return total if value["max"] is None else min(total, value["max"])

    def _count(self, controller: int, count: dict) -> int:
        zone, flt = count["zone"], count["filter"]
        total = 0
        for p in self._sides(controller, count["side"]):
            if zone == "minions":
                total += sum(1 for m in self.players[p].minions
                             if m is not None and self._minion_matches(m, flt))
            else:
                cards = getattr(self.players[p], zone)
                total += sum(1 for c in cards if card_matches(c, flt))
        return total

    def _condition(self, controller: int, condition: dict) -> bool:
        if "count" in condition:
            value = self._count(controller, condition["count"])
        else:
            who = controller if condition["hero_hp"] == "own" else 1 - controller
            value = self.players[who].hp
        low, high = condition.get("min"), condition.get("max")
        return (low is None or value >= low) and (high is None or value <= high)

    # ------------------------------------------------------------ deaths (R2.3.8, R2.4)

    def _dying(self, p: int, s: int, restore: tuple | None = None):
        """R4.3: a minion enters dying. Returns (player, slot, minion) if it was destroyed."""
        minion = self.players[p].minions[s]
        if "regenerate" in self._keywords(minion) and minion.regen_turn != self.turn:
            minion.regen_turn = self.turn                                     # R4.10
            if restore is not None:                    # R4.10: as before the combat
                minion.perm_attack, minion.turn_attack = restore[0], restore[1]
                minion.keywords, minion.turn_granted, minion.turn_removed = \
                    set(restore[2]), set(restore[3]), set(restore[4])
            if self.events is not None:
                self._event("regenerate", player=p, slot=s, card=minion.card.code)
            return None
        self.players[p].minions[s] = None                                     # R2.3.8
        self.players[p].graveyard.append(minion.card)
        self._fallen[minion.uid] = minion.card
        self._board_changed(minion.card)
        if self.events is not None:
            self._event("destroyed", player=p, slot=s, card=minion.card.code)
        return p, s, minion

    def _death_key(self, spot: tuple[int, int]) -> tuple[int, int]:
        """R2.4.4: the defending player's minions first, each side left to right."""
        return (0 if spot[0] != self.active else 1, spot[1])

    def _after_deaths(self, effect_order, replenish_order, first=()) -> None:
        """Queue R2.4.1 replenish chances (instant), then after-death effects in order."""
        tasks: list[tuple] = []
        for p, s, minion in replenish_order:
            if minion.awake:
                self._owed[p] += 1
                tasks.append(("replenish", p, s))
        tasks.extend(first)
        # [ruling R6.2] last words are not a passive (R2.3.9 lists them apart): a face-down
        # minion's last words resolve too (ruleset option face_down_last_words), whereas its
        # ally_dies passives are off (R4.1).
        face_down = self.ruleset.face_down_last_words
        for p, _s, minion in effect_order:
            tasks.extend(("ability", p, src, a, -1)
                         for src, a in self._passive_sources(p, "ally_dies", hero=False))
            if minion.awake or face_down:
                tasks.extend(("offer", p, minion.uid, a)
                             for a in minion.card.by_trigger.get("last_words", ()))   # R4.5
            tasks.extend(("ability", p, src, a, -1)
                         for src, a in self._passive_sources(p, "ally_dies", minions=False))
        self._push_list(tasks)

    def _t_replenish(self, p: int, s: int) -> None:
        if self.players[p].minions[s] is not None:
            self._owed[p] -= 1
            return
        # Asked even with no minion card in hand (then only "pass" is legal): whether the
        # question comes must not tell the enemy what the hand holds (hidden information).
        self._ask("replenish", p, (s,))

    def _answer_replenish(self, decision, action: Action) -> None:
        self._owed[decision.player] -= 1
        if action.kind == "replenish":
            self._place(decision.player, action.a, decision.data[0])
            if self.events is not None:
                self._event("replenish", player=decision.player, slot=decision.data[0])

    def _awaken(self, index: int, minion: Minion) -> None:
        minion.awake = True
        minion.public = True
        minion.awake_turn = self.turn
        # [ruling R6.5] a minion taken by mind control cannot attack on the turn it changed
        # sides, even if it is awakened after it came over (unless mind_controlled_may_attack).
        minion.attacks_left = 0 if minion.controlled_turn == self.turn \
            and not self.ruleset.mind_controlled_may_attack else 1
        awakened = self.awakened[index]
        awakened[minion.card.code] = awakened.get(minion.card.code, 0) + 1
        self._board_changed(minion.card)
        if self.events is not None:
            self._event("awaken", player=index, card=minion.card.code)
        self._push(*(("offer", index, minion.uid, a)
                     for a in minion.card.by_trigger.get("awaken", ())))       # R4.4

    # ------------------------------------------------------------ optional skills (R6.1)

    def _t_offer(self, controller: int, source: int, ability: dict) -> None:
        """R4.4, R4.5: an awaken skill or last words *may* be used, so its controller is asked
        (decision ``optional``: ``use`` or ``decline``). [ruling R6.1] Asked only when it
        could do something, by the test an item or active skill passes to be offered
        (``_usable``, from what the controller can see); otherwise, or under the ruleset's
        ``always_use_optional_skills``, it resolves unasked."""
        if self.ruleset.always_use_optional_skills \
                or not self._usable(controller, source, ability):
            self._t_ability(controller, source, ability, -1)
            return
        self._ask("optional", controller, (self._source_code(controller, source), ability),
                  resume=("ability", controller, source, ability, -1))

    def _answer_optional(self, decision, action: Action) -> None:
        if action.kind == "use":
            self._push(decision.resume)
        elif self.events is not None:
            self._event("declined", player=decision.player, source=decision.data[0],
                        trigger=decision.data[1]["trigger"])

    # ------------------------------------------------------------ main-phase actions

    def _do_place(self, index: int, action: Action) -> None:
        self._place(index, action.a, action.b)

    def _do_awaken(self, index: int, action: Action) -> None:
        player = self.players[index]
        minion = player.minions[action.a]
        player.energy -= minion.card.cost                                     # R2.2.3 c
        self._awaken(index, minion)

    def _do_item(self, index: int, action: Action) -> None:
        player = self.players[index]
        card = player.hand.pop(action.a)
        player.energy -= card.cost                                            # R2.2.3 a
        self.played[index][card.code] = self.played[index].get(card.code, 0) + 1
        if self.events is not None:
            self._event("item", player=index, card=card.code)
        # The item's abilities get a source id of their own (no minion has it) so the event
        # log can name the item that resolved them, as it names a fallen minion's last words.
        source = -self._next_uid
        self._next_uid += 1
        self._fallen[source] = card
        self._push(*(("ability", index, source, a, -1)
                     for a in card.by_trigger.get("use", ())), ("to_graveyard", index, card))

    def _t_to_graveyard(self, index: int, card) -> None:
        self.players[index].graveyard.append(card)

    def _do_skill(self, index: int, action: Action) -> None:
        player = self.players[index]
        minion = player.minions[action.a]
        ability = minion.card.by_trigger["active"][action.b]
        player.energy -= ability["cost"]
        minion.skill_used = True                                              # R4.6
        self._push(("ability", index, minion.uid, ability, -1))

    def _do_hero_skill(self, index: int, action: Action) -> None:
        player = self.players[index]
        ability = player.hero.by_trigger["active"][action.a]
        player.energy -= ability["cost"]
        player.hero_skill_used = True                                         # R4.6
        self._push(("ability", index, HERO_UID, ability, -1))
