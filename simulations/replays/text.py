"""The replay log in sentences: every engine event and every action as a person reads it.

Players are named P1 and P2, exactly as the board labels the seats (the engine numbers them 0
and 1); cards by name, never by code; positions from 1, like the board. An action names the
card it moves by looking it up in the state just before it (``before``), since the engine logs
hand positions, not the hidden cards.

Invariant: every event kind the engine logs has a sentence here (a test walks the engine's
event list), so no raw field dump reaches the page.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from cards.game_words import game_word

GAME_OVER_REASONS = {
    "hero_hp": gettext_lazy("the losing hero's HP reached 0"),
    "no_minions": gettext_lazy("the loser had no minion left to fight with"),
    "turn_limit": gettext_lazy("the turn limit was reached"),
    "both_lost": gettext_lazy("both sides lost at once"),
}

Event = Mapping[str, Any]


def seat(index: Any) -> str:
    """The board's label of a player numbered by the engine (0 → P1)."""
    return f"P{int(index or 0) + 1}"


def keyword_name(code: Any) -> str:
    """A keyword as printed on cards, in the page's language."""
    return game_word("keyword", code)


def trigger_name(code: Any) -> str:
    """A trigger inside a sentence ("its last-words ability"), in the page's language."""
    return game_word("trigger", code, prose=True)


class Describer:
    """Sentences for one step of one game: ``names`` maps card codes to names, ``before`` is
    the snapshot before the step's action (for naming the cards an action moves)."""

    def __init__(self, names: Mapping[str, str], before: Mapping[str, Any] | None = None):
        self.names = names
        self.before = before or {}

    def card(self, code: Any) -> str:
        return self.names.get(code, str(code)) if code is not None else _("an unknown card")

    def __call__(self, event: Event) -> str:
        kind = str(event.get("t"))
        text = self.texts().get(kind)
        if text is not None:
            return text(event)
        return _("{what} ({player}).").format(what=kind.replace("_", " ").capitalize(),
                                              player=seat(event.get("player")))

    def texts(self) -> dict[str, Callable[[Event], str]]:
        c = self.card

        def p(e: Event) -> str:
            return seat(e.get("player"))

        def cards(n: Any) -> str:
            return ngettext("%(n)d card", "%(n)d cards", int(n or 0)) % {"n": int(n or 0)}

        return {
            "setup": lambda e: _("Setup: {p} goes first.").format(p=seat(e.get("first_player"))),
            "draw": lambda e: _("{p} draws {n}.").format(p=p(e), n=cards(e.get("count"))),
            "mulligan": lambda e: _("{p} mulligans {n}.").format(p=p(e), n=cards(e.get("count"))),
            "place": lambda e: _("{p} places {card} face down in slot {slot}.").format(
                p=p(e), card=c(e.get("card")), slot=int(e.get("slot", 0)) + 1),
            "setup_end": lambda e: _("Setup ends."),
            "turn": lambda e: _("— Turn {turn}: {p} —").format(turn=e.get("turn"), p=p(e)),
            "item": lambda e: _("{p} uses {card}.").format(p=p(e), card=c(e.get("card"))),
            "awaken": lambda e: _("{p} awakens {card}.").format(p=p(e), card=c(e.get("card"))),
            "ability": lambda e: _("{p}'s {card}: {trigger} ability.").format(
                p=p(e), card=c(e.get("source")),
                trigger=trigger_name(e.get("trigger"))),
            "combat": lambda e: _("{p}'s {attacker} attacks {defender}.").format(
                p=p(e), attacker=c(e.get("attacker")), defender=c(e.get("defender"))),
            "combat_result": lambda e: _("Combat: {a} attack against {d}.").format(
                a=e.get("attack"), d=e.get("defense")),
            "combat_skipped": lambda e: _("{p} calls the combat off.").format(p=p(e)),
            "combat_unresolved": lambda e: _("The combat does not happen: a fighter has left."),
            "destroyed": lambda e: _("{p}'s {card} is destroyed.").format(p=p(e),
                                                                           card=c(e.get("card"))),
            "hero_heal": lambda e: _("{p}'s hero heals {n} (HP {hp}).").format(
                p=p(e), n=e.get("amount"), hp=e.get("hp")),
            "hero_damage": lambda e: _("{p}'s hero takes {n} damage (HP {hp}).").format(
                p=p(e), n=e.get("amount"), hp=e.get("hp")),
            "attack_hero": lambda e: _("{card} hits the enemy hero for {n} (HP {hp}).").format(
                card=c(e.get("card")), n=e.get("damage"), hp=e.get("hp")),
            "attack_change": lambda e: _("{card}: attack {n:+d} {duration}.").format(
                card=c(e.get("card")), n=int(e.get("amount", 0)),
                duration=game_word("duration", e.get("duration"), prose=True)),
            "replenish": lambda e: _("{p} refills slot {slot}.").format(
                p=p(e), slot=int(e.get("slot", 0)) + 1),
            # A card the reader cannot see is "a face-down minion of P2", not "P2's an
            # unknown card": the possessive reads wrong around an indefinite article.
            "returned": lambda e: (_("{p}'s {card} returns to the hand.").format(
                p=p(e), card=c(e.get("card"))) if e.get("card") is not None else
                _("A face-down minion of {p} returns to the hand.").format(p=p(e))),
            "summon": lambda e: _("{p} summons {card}.").format(p=p(e), card=c(e.get("card"))),
            "discard": lambda e: _("{p} discards {card}.").format(p=p(e), card=c(e.get("card"))),
            "regenerate": lambda e: (_("{p}'s {card} regenerates.").format(
                p=p(e), card=c(e.get("card"))) if e.get("card") is not None else
                _("A face-down minion of {p} regenerates.").format(p=p(e))),
            "react": lambda e: _("{card} re-acts.").format(card=c(e.get("card"))),
            "mind_control": lambda e: _("{p} takes control of {card}.").format(
                p=p(e), card=c(e.get("card"))),
            "keyword_granted": lambda e: _("{card} gains {keyword}.").format(
                card=c(e.get("card")), keyword=keyword_name(e.get("keyword"))),
            "keyword_removed": lambda e: _("{card} loses {keyword}.").format(
                card=c(e.get("card")), keyword=keyword_name(e.get("keyword"))),
            "energy": lambda e: _("{p} has {n} energy.").format(p=p(e), n=e.get("energy")),
            "fatigue": lambda e: _("{p} has no card to draw (HP {hp}).").format(
                p=p(e), hp=e.get("hp")),
            "display": lambda e: _("{p} puts {card} on display.").format(
                p=p(e), card=c(e.get("card"))),
            "display_returned": lambda e: _("{p} takes {n} back from display.").format(
                p=p(e), n=cards(e.get("count"))),
            "skip_draw": lambda e: _("{p} will skip the next draw.").format(p=p(e)),
            "draw_skipped": lambda e: _("{p} skips the draw; {n} on display go to the "
                                        "graveyard.").format(p=p(e),
                                                             n=cards(e.get("discarded"))),
            "declined": lambda e: _("{p}'s {card}: {trigger} ability declined.").format(
                p=p(e), card=c(e.get("source")),
                trigger=trigger_name(e.get("trigger"))),
            "chose": lambda e: _("{p} chooses option {n}.").format(
                p=p(e), n=int(e.get("option", 0)) + 1),
            "game_over": self._game_over,
            "action": lambda e: f"▶ {seat(self.actor(e))}: {self.action(e)}",
        }

    def _game_over(self, event: Event) -> str:
        reason = str(event.get("reason"))
        if event.get("winner") is None:
            return _("Game over: a draw ({reason}).").format(
                reason=GAME_OVER_REASONS.get(reason, reason))
        return _("Game over: {p} wins ({reason}).").format(
            p=seat(event["winner"]), reason=GAME_OVER_REASONS.get(reason, reason))

    # ------------------------------------------------------------ actions

    def _zone(self, player: int, zone: str, index: Any) -> str:
        players = self.before.get("players") or []
        cards = players[player].get(zone) or [] if player < len(players) else []
        if isinstance(index, int) and 0 <= index < len(cards):
            return self.card(cards[index])
        return _("card {n}").format(n=int(index or 0) + 1)

    def _minion(self, player: int, slot: Any) -> str:
        players = self.before.get("players") or []
        minions = players[player].get("minions") or [] if player < len(players) else []
        if isinstance(slot, int) and 0 <= slot < len(minions) and minions[slot]:
            return self.card(minions[slot]["card"])
        return _("the minion in slot {n}").format(n=int(slot or 0) + 1)

    def _offer(self) -> dict[str, str]:
        """The awaken skill or last words a use/decline answers (R6.1), from the decision."""
        decision = self.before.get("decision") or {}
        trigger = decision.get("trigger")
        return {"card": self.card(decision.get("card")),
                "trigger": trigger_name(trigger) if trigger else _("optional")}

    def actor(self, event: Event) -> int:
        """Who acted: the decision's player (a target action's own ``player`` field names the
        side of the target, and overwrites the actor's in the log)."""
        decision = self.before.get("decision") or {}
        return int(decision.get("player", event.get("player", 0)) or 0)

    def action(self, event: Event) -> str:
        """What the player chose, in words: "attacks Ember Hound with Tide Caller"."""
        who, kind = self.actor(event), event.get("kind")

        def hand() -> str:
            return self._zone(who, "hand", event.get("card"))

        def own() -> str:
            return self._minion(who, event.get("slot"))

        target = event.get("target")
        words = {
            "mulligan": lambda: _("puts back {card}").format(card=hand()),
            "keep": lambda: _("keeps the hand"),
            "place": lambda: _("places {card} in slot {slot}").format(
                card=hand(), slot=int(event.get("slot", 0)) + 1),
            "ready": lambda: _("is ready"),
            "awaken": lambda: _("awakens {card}").format(card=own()),
            "item": lambda: _("uses {card}").format(card=hand()),
            "hero_skill": lambda: _("uses the hero's skill"),
            "skill": lambda: _("uses {card}'s skill").format(card=own()),
            "attack": lambda: (_("attacks the enemy hero with {card}").format(card=own())
                               if target == "hero" else
                               _("attacks {enemy} with {card}").format(
                                   enemy=self._minion(1 - who, target), card=own())),
            "end": lambda: _("ends the turn"),
            "discard": lambda: _("discards {card}").format(card=hand()),
            "discard_display": lambda: _("discards {card} from display").format(
                card=self._zone(who, "display", event.get("card"))),
            "replenish": lambda: _("refills the slot with {card}").format(card=hand()),
            "pass": lambda: _("leaves the slot empty"),
            "target": lambda: _("targets {card}").format(
                card=self._minion(int(event.get("player", 0)), event.get("slot"))),
            "choose": lambda: _("chooses option {n}").format(n=int(event.get("option", 0)) + 1),
            "pick": lambda: _("picks {card}").format(card=hand()),
            "use": lambda: _("uses {card}'s {trigger} ability").format(**self._offer()),
            "decline": lambda: _("declines {card}'s {trigger} ability").format(**self._offer()),
        }
        return words[kind]() if kind in words else str(kind).replace("_", " ")
