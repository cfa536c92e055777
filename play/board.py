"""One seat's board for the page and the API, built from ``game.view(seat)`` alone.

What a seat is sent: its view's ``to_dict()`` (the engine's complete visible state, R1.1 zones
minus hidden information), the cards' public data by name and text, its legal actions with a
phrase each (``play.action_words``: worded from a snapshot with the other seat's hidden cards
removed) and the log
of the game in words as that seat may read it (``play.log_text``). Never the true state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from cards.game_words import game_word
from common.language import reader_language
from play.action_words import ActionWords
from play.engine_adapter import History
from play.log_text import redact_snapshot, step_lines
from rules.engine import Action, Game
from rules.engine.text import card_text
from simulations.replays.board import card_names

# How actions are grouped on the page, in this order.
GROUPS = {"mulligan": "hand", "place": "hand", "item": "hand", "replenish": "hand",
          "pick": "hand", "discard": "hand", "discard_display": "display", "awaken": "board",
          "skill": "board", "attack": "board", "hero_skill": "hero", "target": "target",
          "choose": "choose", "use": "optional", "decline": "optional", "keep": "phase",
          "ready": "phase", "end": "phase", "pass": "phase"}

GROUP_TITLES = {"hand": _("From your hand"), "display": _("Your display zone"),
                "board": _("Your minions"), "hero": _("Your hero"),
                "target": _("Choose a target"), "choose": _("Choose an option"),
                "optional": _("An optional skill"), "phase": _("Go on")}
DECISION_TEXT = {
    "mulligan": _("Put back the cards you do not want, then keep the hand (R2.1.4)."),
    "setup": _("Place minions face down, then say you are ready (R2.1.5)."),
    "main": _("Your turn: play cards, awaken and attack, then end the turn."),
    "discard": _("Your hand is over the limit: discard a card (R2.2.4)."),
    "discard_display": _("Your display zone is over the limit: discard a card from it "
                         "(R2.2.4)."),
    "replenish": _("A minion of yours died: refill its slot from your hand or leave it "
                   "empty (R2.4.1)."),
    "target": _("Choose a target for the effect."),
    "choose": _("Choose one of the options."),
    "pick": _("Pick a card from your hand for the effect."),
    "optional": _("Use this skill or decline it (R6.1)."),
}


@dataclass
class Board:
    seat: int
    step: int
    steps: int
    view: dict[str, Any]
    cards: dict[str, dict[str, Any]]
    actions: list[dict[str, Any]] = field(default_factory=list)
    log: list[tuple[int, str]] = field(default_factory=list)

    @property
    def me(self) -> dict[str, Any]:
        side: dict[str, Any] = self.view["me"]
        return side

    @property
    def enemy(self) -> dict[str, Any]:
        side: dict[str, Any] = self.view["enemy"]
        return side

    @property
    def my_turn(self) -> bool:
        return bool(self.actions)

    @property
    def enemy_backs(self) -> range:
        """One card back per card in the other hand (its size is all a seat knows)."""
        return range(int(self.enemy["hand_size"]))

    @property
    def enemy_number(self) -> int:
        return 2 - self.seat

    @property
    def decision_text(self) -> str:
        return str(DECISION_TEXT.get(self.view.get("decision") or "", ""))

    @property
    def groups(self) -> list[tuple[str, list[dict[str, Any]],
                                   list[tuple[str, list[dict[str, Any]]]]]]:
        """The actions by group, in the page's order: (title, rows, placings), where placings
        gathers the placing of each hand card into a line of slots ("Thorn Boar: slot 2, slot
        3 …") instead of one button per card and slot."""
        out: list[tuple[str, list[dict[str, Any]], list[tuple[str, list[dict[str, Any]]]]]] = []
        for key, title in GROUP_TITLES.items():
            rows = [a for a in self.actions if a["group"] == key and a["kind"] != "place"]
            placings: dict[int, list[dict[str, Any]]] = {}
            for a in self.actions:
                if a["group"] == key and a["kind"] == "place":
                    placings.setdefault(a["action"]["card"], []).append(a)
            lines = [(group[0]["card_name"], group) for group in placings.values()]
            if rows or lines:
                out.append((str(title), rows, lines))
        return out


def card_info(cards: Mapping[str, Mapping[str, Any]], names: Mapping[str, str],
              code: str | None) -> dict[str, Any] | None:
    """A card's public face: name, kind, cost, attack, HP, attribute, rules text."""
    if code is None:
        return None
    data = cards.get(code) or {}
    return {"code": code, "name": names.get(code, code), "kind": data.get("kind", ""),
            "cost": data.get("cost"), "attack": data.get("attack"), "hp": data.get("hp"),
            "attribute": data.get("attribute", ""),
            "text": card_text(data, reader_language(), names) if data else ""}


def _minions(side: Mapping[str, Any], cards: Mapping[str, Any], names: Mapping[str, str],
             attackers: set[int]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for slot, minion in enumerate(side["minions"]):
        if minion is None:
            out.append({"slot": slot, "empty": True})
        elif minion.get("hidden"):
            out.append({"slot": slot, "hidden": True})
        else:
            out.append({"slot": slot, "card": card_info(cards, names, minion["card"]),
                        "attack": minion["attack"], "awake": minion["awake"],
                        "keywords": [game_word("keyword", k) for k in minion["keywords"]],
                        "can_attack": slot in attackers})
    return out


def _side(side: Mapping[str, Any], cards: Mapping[str, Any], names: Mapping[str, str],
          attackers: set[int]) -> dict[str, Any]:
    hero = card_info(cards, names, side["hero"]) or {}
    return {**side, "hero_card": hero, "minion_views": _minions(side, cards, names, attackers),
            "display_cards": [card_info(cards, names, c) for c in side["display"]],
            "graveyard_cards": [card_info(cards, names, c) for c in side["graveyard"]]}


def action_rows(game: Game, seat: int, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The seat's legal actions, each with its JSON form and a sentence."""
    if game.to_move != seat:
        return []
    words = ActionWords(names, redact_snapshot(game.snapshot(), seat), seat)
    rows = []
    for index, action in enumerate(game.legal_actions()):
        data = action.to_dict()
        rows.append({"index": index, "action": data, "json": json.dumps(data),
                     "label": words(data), "short": words.short(data),
                     "card_name": words.hand_card(data),
                     "group": GROUPS.get(action.kind, "phase"), "kind": action.kind})
    return rows


def hint_labels(game: Game, seat: int, cards: Mapping[str, Any]) -> dict[Action, str]:
    """Each legal action of ``seat`` by its sentence (for the hint's candidates)."""
    return {Action.from_dict(row["action"]): row["label"]
            for row in action_rows(game, seat, card_names(cards))}


def seat_board(*, game: Game, history: History | None, cards: Mapping[str, Any], seat: int,
               step: int, log_from: int = 0) -> Board:
    """The board of ``seat`` with ``game`` at ``step`` (``history``: the game so far, for the
    log; its events up to ``step`` are worded)."""
    names = card_names(cards)
    view = game.view(seat).to_dict()
    actions = action_rows(game, seat, names)
    attackers = {a["action"]["slot"] for a in actions if a["kind"] == "attack"}
    shown = {**view, "me": _side(view["me"], cards, names, attackers),
             "enemy": _side(view["enemy"], cards, names, set())}
    shown["me"]["hand_cards"] = [card_info(cards, names, c) for c in view["me"]["hand"]]
    log: list[tuple[int, str]] = []
    if history is not None:
        log = step_lines(events=list(history.game.events or []), snapshots=history.snapshots,
                         names=names, viewer=seat, start=log_from, end=step)
    steps = history.steps if history is not None else step
    return Board(seat=seat, step=step, steps=steps, view=shown, cards=dict(cards),
                 actions=actions, log=log)
