"""One handler per effect term of the vocabulary (``_e_<term>``).

Invariants: a handler receives the controller, the source uid, the normalised effect, the uid
of the other minion of the current combat (or -1) and, for targeted terms, the target uids
already selected. Handlers change state only through the shared moves of the game (draw,
place, dying, awaken), so every rule those moves enforce applies to effects too.
"""

from __future__ import annotations

from rules.engine.actions import Action
from rules.engine.filters import card_matches
from rules.engine.legal import LegalMixin


class EffectTermsMixin(LegalMixin):
    # ------------------------------------------------------------ heroes and energy

    def _heroes(self, controller: int, which: str) -> tuple[int, ...]:
        if which == "own":
            return (controller,)
        if which == "enemy":
            return (1 - controller,)
        return (1 - controller, controller)

    def _e_damage_hero(self, controller, source, effect, other, targets) -> None:
        amount = max(0, self._amount(controller, effect["amount"]))
        for index in self._heroes(controller, effect["hero"]):
            self.players[index].hp -= amount
            if self.events is not None:
                self._event("hero_damage", player=index, amount=amount, hp=self.players[index].hp)

    def _e_heal_hero(self, controller, source, effect, other, targets) -> None:
        amount = max(0, self._amount(controller, effect["amount"]))
        for index in self._heroes(controller, effect["hero"]):
            player = self.players[index]
            player.hp = max(player.hp, min(player.hero.hp, player.hp + amount))
            if self.events is not None:
                self._event("hero_heal", player=index, amount=amount, hp=player.hp)

    def _e_energy(self, controller, source, effect, other, targets) -> None:
        player = self.players[controller]
        player.energy = max(0, player.energy + self._amount(controller, effect["amount"]))
        if self.events is not None:
            self._event("energy", player=controller, energy=player.energy)

    # ------------------------------------------------------------ minions

    def _e_destroy(self, controller, source, effect, other, targets) -> None:
        spots = sorted((s for s in map(self._locate, targets) if s is not None),
                       key=self._death_key)
        dead = [d for d in (self._dying(p, s) for p, s in spots) if d is not None]
        self._after_deaths(dead, dead)

    def _e_attack(self, controller, source, effect, other, targets) -> None:
        amount = self._amount(controller, effect["amount"])
        for uid in targets:
            minion = self._minion(uid)
            if minion is None:
                continue
            if effect["duration"] == "turn":
                minion.turn_attack += amount
            else:
                minion.perm_attack += amount
            if self.events is not None:
                self._event("attack_change", card=minion.card.code, amount=amount,
                            duration=effect["duration"])

    def _e_grant_keyword(self, controller, source, effect, other, targets) -> None:
        keyword = effect["keyword"]
        for minion in filter(None, map(self._minion, targets)):
            if effect["duration"] == "turn":
                minion.turn_granted.add(keyword)
                minion.turn_removed.discard(keyword)
            else:
                minion.keywords.add(keyword)
                minion.turn_removed.discard(keyword)
            if self.events is not None:
                self._event("keyword_granted", card=minion.card.code, keyword=keyword)

    def _e_remove_keyword(self, controller, source, effect, other, targets) -> None:
        keyword = effect["keyword"]
        for minion in filter(None, map(self._minion, targets)):
            minion.turn_granted.discard(keyword)
            if effect["duration"] == "turn":
                minion.turn_removed.add(keyword)
            else:
                minion.keywords.discard(keyword)
            if self.events is not None:
                self._event("keyword_removed", card=minion.card.code, keyword=keyword)

    def _e_return_to_hand(self, controller, source, effect, other, targets) -> None:
        for uid in targets:
            spot = self._locate(uid)
            if spot is None:
                continue
            p, s = spot
            minion = self.players[p].minions[s]
            self.players[p].minions[s] = None
            self.players[p].hand.append(minion.card)       # R2.4.2: to its controller's hand
            self._board_changed(minion.card)
            if self.events is not None:
                self._event("returned", player=p, slot=s, card=minion.card.code)

    def _e_awaken(self, controller, source, effect, other, targets) -> None:
        for uid in targets:
            spot = self._locate(uid)
            if spot is not None and not self.players[spot[0]].minions[spot[1]].awake:
                self._awaken(spot[0], self.players[spot[0]].minions[spot[1]])

    def _e_mind_control(self, controller, source, effect, other, targets) -> None:
        for uid in targets:
            spot = self._locate(uid)
            empties = self.players[controller].empty_slots()
            if spot is None or spot[0] == controller or not empties:
                continue                           # [ruling] no empty slot: nothing happens
            p, s = spot
            minion = self.players[p].minions[s]
            self.players[p].minions[s] = None
            self.players[controller].minions[empties[0]] = minion    # R2.4.2, leftmost
            minion.public = True
            # [ruling R6.5] it cannot attack this turn (option mind_controlled_may_attack: an
            # awake one may, on its new controller's turn)
            minion.attacks_left = 1 if self.ruleset.mind_controlled_may_attack \
                and minion.awake and self.active == controller else 0
            minion.controlled_turn = self.turn
            self._board_changed(minion.card)
            if self.events is not None:
                self._event("mind_control", player=controller, slot=empties[0],
                            card=minion.card.code)

    def _e_summon(self, controller, source, effect, other, targets) -> None:
        count = self._amount(controller, effect["count"])
        player = self.players[controller]
        if effect["from"] == "hand":
            self._pick_next("summon", controller, controller, source, effect, other, count)
            return
        for _ in range(count):
            choices = [i for i, c in enumerate(player.deck)
                       if c.kind == "minion" and card_matches(c, effect["filter"])]
            empties = player.empty_slots()
            if not choices or not empties:
                return
            card = player.deck.pop(self.rng.choice(choices))
            self._summon_card(controller, card, empties[0], effect["awake"])

    def _summon_card(self, controller: int, card, slot: int, awake: bool) -> None:
        """[ruling] Summoned (and mind-controlled) minions take their controller's leftmost
        empty slot: the rule book does not say who picks the slot, so nobody is asked."""
        minion = self._new_minion(card)
        self.players[controller].minions[slot] = minion
        self.played[controller][card.code] = self.played[controller].get(card.code, 0) + 1
        if awake:          # [ruling R6.4] put into play awake: not "awakened", so no awaken
            minion.awake = minion.public = True           # skill (R4.4) unless the ruleset's
            minion.awake_turn = self.turn                 # summoned_awake_is_awakened says so
            minion.attacks_left = 1
        self._board_changed(card)
        if self.events is not None:
            self._event("summon", player=controller, slot=slot, card=card.code, awake=awake)
        if awake and self.ruleset.summoned_awake_is_awakened:
            awakened = self.awakened[controller]
            awakened[card.code] = awakened.get(card.code, 0) + 1
            self._push(*(("offer", controller, minion.uid, a)
                         for a in card.by_trigger.get("awaken", ())))          # R4.4

    # ------------------------------------------------------------ cards in hand

    def _e_draw(self, controller, source, effect, other, targets) -> None:
        who = controller if effect["player"] == "own" else 1 - controller
        self._draw(who, max(0, self._amount(controller, effect["count"])))

    def _e_discard(self, controller, source, effect, other, targets) -> None:
        who = controller if effect["player"] == "own" else 1 - controller
        count = self._amount(controller, effect["count"])
        if effect["pick"] == "chosen":
            self._pick_next("discard", who, controller, source, effect, other, count)
            return
        hand = self.players[who].hand
        for _ in range(min(count, len(hand))):
            self._move_from_hand("discard", who, self.rng.randrange(len(hand)))

    def _e_display(self, controller, source, effect, other, targets) -> None:
        count = self._amount(controller, effect["count"])
        if effect["pick"] == "chosen":
            self._pick_next("display", controller, controller, source, effect, other, count)
            return
        hand = self.players[controller].hand
        for _ in range(count):
            choices = [i for i, c in enumerate(hand) if card_matches(c, effect["filter"])]
            if not choices:
                return
            self._move_from_hand("display", controller, self.rng.choice(choices))

    def _e_skip_draw(self, controller, source, effect, other, targets) -> None:
        who = controller if effect["player"] == "own" else 1 - controller
        self.players[who].skip_draw = True
        if self.events is not None:
            self._event("skip_draw", player=who)

    def _pick_next(self, purpose, chooser, controller, source, effect, other, left) -> None:
        """Ask ``chooser`` for one more hand card (of ``left``) for a chosen-card effect."""
        if left <= 0:
            return
        player = self.players[chooser]
        flt = effect.get("filter")
        choices = tuple(i for i, c in enumerate(player.hand) if card_matches(c, flt)
                        and (purpose != "summon" or c.kind == "minion"))
        if not choices or (purpose == "summon" and not player.empty_slots()):
            return
        self._ask("pick", chooser, choices,
                  resume=("picked", purpose, chooser, controller, source, effect, other, left))

    def _answer_pick(self, decision, action: Action) -> None:
        self._push(decision.resume + (action.a,))

    def _t_picked(self, purpose, chooser, controller, source, effect, other, left, position):
        if purpose == "summon":
            card = self.players[chooser].hand.pop(position)
            self._summon_card(chooser, card, self.players[chooser].empty_slots()[0],
                              effect["awake"])
        else:
            self._move_from_hand(purpose, chooser, position)
        self._pick_next(purpose, chooser, controller, source, effect, other, left - 1)

    def _move_from_hand(self, purpose: str, index: int, position: int) -> None:
        player = self.players[index]
        card = player.hand.pop(position)
        (player.graveyard if purpose == "discard" else player.display).append(card)
        if self.events is not None:
            self._event(purpose, player=index, card=card.code)

    # ------------------------------------------------------------ structure

    def _e_skip_combat(self, controller, source, effect, other, targets) -> None:
        if self.combat is not None:                                           # R2.3.6
            self.combat["skipped"] = True
            if self.events is not None:
                self._event("combat_skipped", player=controller)
        self._push(("effects", controller, source, effect["effects"], 0, other))

    def _e_choose(self, controller, source, effect, other, targets) -> None:
        self._ask("choose", controller, tuple(range(len(effect["options"]))),  # R4.11
                  resume=("chose", controller, source, effect, other))

    def _answer_choose(self, decision, action: Action) -> None:
        self._push(decision.resume + (action.a,))

    def _t_chose(self, controller, source, effect, other, option: int) -> None:
        if self.events is not None:
            self._event("chose", player=controller, option=option)
        self._push(("effects", controller, source, effect["options"][option], 0, other))
