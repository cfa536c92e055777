"""A legal action as a button says it, in the imperative: "Attack Ember Hound with Tide
Caller", "Place Reef Guard in slot 3", "End the turn".

Cards are named from the chooser's own snapshot with the other seat's hidden cards removed
(``play.seat.log_text.redact_snapshot``), so a button can never name a card its seat cannot see.
Positions count from 1, as on the board.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _

from cards.game_words import game_word


class ActionWords:
    def __init__(self, names: Mapping[str, str], snapshot: Mapping[str, Any], seat: int):
        self.names, self.snapshot, self.seat = names, snapshot, seat

    def _card(self, code: Any) -> str:
        return self.names.get(code, str(code)) if code else _("an unknown card")

    def _zone(self, zone: str, index: Any) -> str:
        cards = (self.snapshot.get("players") or [{}, {}])[self.seat].get(zone) or []
        if isinstance(index, int) and 0 <= index < len(cards):
            return self._card(cards[index])
        return _("card {n}").format(n=int(index or 0) + 1)

    def _minion(self, player: int, slot: Any) -> str:
        minions = (self.snapshot.get("players") or [{}, {}])[player].get("minions") or []
        if isinstance(slot, int) and 0 <= slot < len(minions) and minions[slot]:
            code = minions[slot].get("card")
            if not code:        # face down and unknown: its slot tells it from the others
                return _("the face-down minion in slot {n}").format(n=slot + 1)
            return self._card(code)
        return _("the minion in slot {n}").format(n=int(slot or 0) + 1)

    def _offer(self) -> dict[str, str]:
        decision = self.snapshot.get("decision") or {}
        trigger = decision.get("trigger")
        return {"card": self._card(decision.get("card")),
                "trigger": game_word("trigger", trigger, prose=True) if trigger
                else _("optional")}

    def short(self, action: Mapping[str, Any]) -> str:
        """A placing's slot alone, for a line of slots beside the card's name."""
        if action.get("kind") == "place":
            return _("slot {n}").format(n=int(action.get("slot", 0)) + 1)
        return self(action)

    def hand_card(self, action: Mapping[str, Any]) -> str:
        """The name of the hand card an action moves ("" for an action that moves none)."""
        return self._zone("hand", action["card"]) if "card" in action else ""

    def __call__(self, action: Mapping[str, Any]) -> str:
        words = self._words(action)
        kind = str(action.get("kind"))
        return words[kind]() if kind in words else kind.replace("_", " ")

    def _words(self, a: Mapping[str, Any]) -> dict[str, Callable[[], str]]:
        me, foe = self.seat, 1 - self.seat

        def hand() -> str:
            return self._zone("hand", a.get("card"))

        def own() -> str:
            return self._minion(me, a.get("slot"))

        slot = int(a.get("slot", 0) or 0) + 1
        return {
            "mulligan": lambda: _("Put back {card}").format(card=hand()),
            "keep": lambda: _("Keep the hand"),
            "place": lambda: _("Place {card} in slot {slot}").format(card=hand(), slot=slot),
            "ready": lambda: _("Ready: end the setup"),
            "awaken": lambda: _("Awaken {card}").format(card=own()),
            "item": lambda: _("Use {card}").format(card=hand()),
            "hero_skill": lambda: _("Use the hero's skill"),
            "skill": lambda: _("Use {card}'s skill").format(card=own()),
            "attack": lambda: (_("Attack the enemy hero with {card}").format(card=own())
                               if a.get("target") == "hero" else
                               _("Attack {enemy} with {card}").format(
                                   enemy=self._minion(foe, a.get("target")), card=own())),
            "end": lambda: _("End the turn"),
            "discard": lambda: _("Discard {card}").format(card=hand()),
            "discard_display": lambda: _("Discard {card} from display").format(
                card=self._zone("display", a.get("card"))),
            "replenish": lambda: _("Refill the slot with {card}").format(card=hand()),
            "pass": lambda: _("Leave the slot empty"),
            "target": lambda: (_("Target your {card} (slot {slot})") if a.get("player") == me
                               else _("Target the enemy's {card} (slot {slot})")).format(
                card=self._minion(int(a.get("player", 0)), a.get("slot")), slot=slot),
            "choose": lambda: _("Option {n}").format(n=int(a.get("option", 0)) + 1),
            "pick": lambda: _("Pick {card}").format(card=hand()),
            "use": lambda: _("Use {card}'s {trigger} ability").format(**self._offer()),
            "decline": lambda: _("Decline {card}'s {trigger} ability").format(**self._offer()),
        }
