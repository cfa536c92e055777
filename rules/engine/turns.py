"""Setup (R2.1) and the turn cycle (R2.2): mulligan, placing, draw, energy, main and end phases.

Invariants: each step is a task on the game's stack, so setup and turns interleave with
triggered abilities exactly as the rules order them; "this turn" effects end when the turn
finishes; per-turn flags (attacks, skills, re-act) reset on both sides at each turn's start.
"""

from __future__ import annotations

from rules.engine.actions import Action
from rules.engine.cards import CardDef
from rules.engine.combat import CombatMixin
from rules.engine.core import Decision


class TurnsMixin(CombatMixin):
    # ------------------------------------------------------------ R2.1 setup

    def _setup(self, libraries: list[list[CardDef]], first_player: int | None) -> None:
        for player, library in zip(self.players, libraries, strict=True):
            player.deck = list(library)
            self._shuffle(player.deck)                                      # R2.1.3
        # R2.1.2 [ruling]: uniformly at random from the seed unless the caller fixes it.
        first = self._randbelow(2) if first_player is None else first_player
        self.first_player = self.active = first
        if self.events is not None:
            self._event("setup", first_player=first,
                        heroes=[p.hero.code for p in self.players])
        for player in self.players:
            self._draw(player.index, self.ruleset.opening_hand)            # R2.1.3
        second = 1 - first
        self._push(("mulligan", first), ("mulligan", second),             # R2.1.4
                   ("setup_place", first), ("setup_place", second),       # R2.1.5
                   ("setup_end",))                                         # R2.1.6

    def _t_mulligan(self, player: int) -> None:
        self.phase = "mulligan"
        self._ask("mulligan", player)

    def _answer_mulligan(self, decision: Decision, action: Action) -> None:
        player = self.players[decision.player]
        if action.kind == "mulligan":
            player.marked.append(action.a)
            self._ask("mulligan", decision.player)
            return
        chosen = [player.hand[i] for i in sorted(player.marked)]
        player.hand = [c for i, c in enumerate(player.hand) if i not in set(player.marked)]
        player.deck[:0] = chosen                                   # bottom of the deck
        player.marked = []
        self._draw(player.index, self.ruleset.opening_hand - len(player.hand))
        self._shuffle(player.deck)
        opening = self.opening[player.index]
        for card in player.hand:
            opening[card.code] = opening.get(card.code, 0) + 1
        if self.events is not None:
            self._event("mulligan", player=player.index, count=len(chosen))

    def _t_setup_place(self, player: int) -> None:
        self.phase = "setup"
        self._ask("setup", player)

    def _answer_setup(self, decision: Decision, action: Action) -> None:
        if action.kind == "place":
            self._place(decision.player, action.a, action.b)
            self._ask("setup", decision.player)

    def _t_setup_end(self) -> None:
        self._started = True
        if self.events is not None:
            self._event("setup_end")
        self._check_victory()
        if self.result is None:
            self._push(("turn_begin", self.first_player))

    # ------------------------------------------------------------ R2.2 turns

    def _t_turn_begin(self, index: int) -> None:
        self.turn += 1
        self.active = index
        self.phase = "draw"
        player = self.players[index]
        first_turn = index == self.first_player and player.turns_taken == 0
        player.turns_taken += 1
        player.hero_skill_used = False
        self.main_actions = 0
        # "This turn" flags start afresh on both sides: a minion taken by mind control later
        # this turn must not bring along what it did on its old controller's turn (R4.6).
        for side in self.players:
            for minion in side.minions:
                if minion is not None:
                    minion.attacks_left = 1 if minion.awake and side is player else 0
                    minion.attacked = minion.reacted = minion.skill_used = False
        if self.events is not None:
            self._event("turn", turn=self.turn, player=index)
        if player.skip_draw:                                   # R1.2: a skipped draw phase
            player.skip_draw = False
            player.graveyard.extend(player.display)
            if self.events is not None:
                self._event("draw_skipped", player=index, discarded=len(player.display))
            player.display = []
        else:
            if not first_turn:                                 # R2.2.1
                self._draw(index, 1)
            if player.display:                                 # R1.2
                if self.events is not None:
                    self._event("display_returned", player=index, count=len(player.display))
                player.hand.extend(player.display)
                player.display = []
        rules = self.ruleset                                   # R2.2.2
        player.energy = rules.first_turn_energy if first_turn else rules.energy_cap
        self.phase = "main"
        tasks = self._turn_triggers("turn_start", index)
        tasks.append(("main",))
        self._push_list(tasks)

    def _t_main(self) -> None:
        self.phase = "main"
        self._ask("main", self.active)

    def _answer_main(self, decision: Decision, action: Action) -> None:
        player = decision.player
        if action.kind == "end":
            tasks = self._turn_triggers("turn_end", player)
            tasks.append(("end_phase", player))
            self._push_list(tasks)
            return
        self.main_actions += 1
        self._push(("main",))
        kind: str = action.kind
        if kind == "attack":
            self._do_attack(player, action)
        elif kind == "place":
            self._do_place(player, action)
        elif kind == "awaken":
            self._do_awaken(player, action)
        elif kind == "skill":
            self._do_skill(player, action)
        elif kind == "item":
            self._do_item(player, action)
        elif kind == "hero_skill":
            self._do_hero_skill(player, action)
        else:
            raise ValueError(f"unknown main-phase action {kind!r}")

    def _t_end_phase(self, index: int) -> None:
        self.phase = "end"
        player = self.players[index]
        if len(player.hand) > self.ruleset.hand_limit:            # R2.2.4
            self._ask("discard", index, resume=("end_phase", index))
        elif len(player.display) > self.ruleset.display_limit:    # R2.2.4
            self._ask("discard_display", index, resume=("end_phase", index))
        else:
            self._push(("turn_finish", index))

    def _answer_discard(self, decision: Decision, action: Action) -> None:
        player = self.players[decision.player]
        zone = player.hand if action.kind == "discard" else player.display
        card = zone.pop(action.a)
        player.graveyard.append(card)
        if self.events is not None:
            self._event("discard", player=player.index, card=card.code)
        self._push(decision.resume)

    def _t_turn_finish(self, index: int) -> None:
        for player in self.players:                 # "this turn" effects end with the turn
            for minion in player.minions:
                if minion is not None:
                    minion.turn_attack = 0
                    minion.turn_granted.clear()
                    minion.turn_removed.clear()
        limit = self.ruleset.turn_limit                              # R2.2.6
        if all(p.turns_taken >= limit for p in self.players):
            self._finish(None, "turn_limit")
            return
        self._push(("turn_begin", 1 - index))

    def _turn_triggers(self, trigger: str, active: int) -> list[tuple]:
        tasks = []
        for index in (active, 1 - active):
            whose = ("own", "each") if index == active else ("enemy", "each")
            for source, ability in self._passive_sources(index, trigger):
                if ability["whose"] in whose:
                    tasks.append(("ability", index, source, ability, -1))
        return tasks
