"""One seat's board for the page and the API, built from ``game.view(seat)`` alone.

What a seat is sent: its view's ``to_dict()`` (the engine's complete visible state, R1.1 zones
minus hidden information), the cards' public data by name and text, its legal actions with a
phrase each (``play.seat.action_words``: worded from a snapshot with the other seat's hidden cards
removed) and the log
of the game in words as that seat may read it (``play.seat.log_text``). Never the true state.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from cards.game_words import game_word
from cards.models import Card
from common.language import reader_language
from play.engine.adapter import History
from play.seat.action_words import ActionWords
from play.seat.log_text import redact_snapshot, step_lines
from rules.engine import Action, Game
from rules.engine.preview import combat_preview
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


def _side_key(player: int, viewer: int) -> str:
    return "mine" if player == viewer else "theirs"


def action_keys(action: Mapping[str, Any], actor: int, viewer: int) -> tuple[str | None,
                                                                             str | None]:
    """Where an action starts and where it lands on ``viewer``'s board: keys of the board's
    elements (``hand-2``, ``mine-0``, ``theirs-3``, ``hero-theirs``, ``display-mine-1``; the
    other seat's hand is ``hand-theirs``). The page lights them: a source is picked first, then
    one of its targets; an action with a target and no source is one click on the target.
    Only the engine's legal actions are ever keyed: no rule of the game is read here."""
    kind = action.get("kind")
    own, foe = _side_key(actor, viewer), _side_key(1 - actor, viewer)
    hand = (f"hand-{action.get('card')}" if actor == viewer else "hand-theirs") \
        if "card" in action else None
    slot = action.get("slot")
    if kind == "place":
        return hand, f"{own}-{slot}"
    if kind in ("item",):
        return hand, None
    if kind in ("mulligan", "replenish", "pick", "discard"):
        return None, hand
    if kind == "discard_display":
        return None, f"display-{own}-{action.get('card')}"
    if kind in ("awaken", "skill"):
        return f"{own}-{slot}", None
    if kind == "hero_skill":
        return f"hero-{own}", None
    if kind == "attack":
        target = action.get("target")
        return f"{own}-{slot}", (f"hero-{foe}" if target == "hero" else f"{foe}-{target}")
    if kind == "target":
        return None, f"{_side_key(int(action.get('player', 0)), viewer)}-{slot}"
    return None, None


def _minion_name(side: Mapping[str, Any], slot: int, names: Mapping[str, str]) -> str:
    minion = side["minions"][slot] if 0 <= slot < len(side["minions"]) else None
    code = (minion or {}).get("card")
    return names.get(code, str(code)) if code else _("the face-down minion in slot {n}").format(
        n=slot + 1)


def preview_words(preview: Mapping[str, Any], action: Mapping[str, Any],
                  view: Mapping[str, Any], names: Mapping[str, str]) -> tuple[str, str]:
    """An attack's preview (``rules.engine.preview.combat_preview``) as (outcome, sentence):
    outcome is ``win``, ``lose``, ``trade``, ``unknown`` or ``hero``/``lethal``."""
    if preview.get("target") == "hero":
        damage, hp = preview["damage"], preview["hp"]
        text = (_("{damage} damage to the enemy hero: it has {hp} HP, so this wins the game.")
                if preview["lethal"] else
                _("{damage} damage to the enemy hero ({hp} HP → {left} HP).")).format(
            damage=damage, hp=hp, left=hp - damage)
        if preview.get("doubled"):
            text += " " + str(_("×2: the attribute advantage."))
        return ("lethal" if preview["lethal"] else "hero"), text
    if preview.get("unknown"):
        return "unknown", str(_("A face-down minion: it is revealed only in the combat, so "
                                "nobody can tell the outcome before."))
    me, foe = view["me"], view["enemy"]
    a_name = _minion_name(me, int(action["slot"]), names)
    d_name = _minion_name(foe, int(action["target"]), names)
    a, d = preview["attacker"], preview["defender"]
    parts = [str(_("{attacker} strikes with {a}, {defender} with {d}.")).format(
        attacker=a_name, a=a["attack"], defender=d_name, d=d["attack"])]
    for name, side in ((a_name, a), (d_name, d)):
        if side["doubled"]:
            parts.append(str(_("{card} has the attribute advantage: ×2.")).format(card=name))
        elif side["shield_cancels"]:
            other = d_name if side is a else a_name
            parts.append(str(_("{other}'s shield cancels {card}'s ×2.")).format(
                other=other, card=name))
    if a["dies"] and d["dies"]:
        parts.append(str(_("Both die.")))
        outcome = "trade"
    elif d["dies"]:
        parts.append(str(_("{card} dies.")).format(card=d_name))
        outcome = "win"
    else:
        parts.append(str(_("{card} dies.")).format(card=a_name))
        outcome = "lose"
    for name, side in ((a_name, a), (d_name, d)):
        if side["revives"]:
            parts.append(str(_("{card} revives (regenerate).")).format(card=name))
    if preview.get("skills"):
        parts.append(str(_("A combat-start skill may change this.")))
    return outcome, " ".join(parts)


class LastMove(TypedDict):
    """The action that led to the step shown (``play.seat.state.last_move``): who chose it, its kind
    and the board keys it starts from and lands on."""

    by: Literal["mine", "theirs"]
    kind: str | None
    src: str | None
    dst: str | None
    step: int


@dataclass
class Board:
    seat: int
    step: int
    steps: int
    view: dict[str, Any]
    cards: dict[str, dict[str, Any]]
    actions: list[dict[str, Any]] = field(default_factory=list)
    log: list[tuple[int, str]] = field(default_factory=list)
    # The last action (at ``step``), as the board lights it: who acted and its keys.
    last_move: LastMove | None = None

    @property
    def me(self) -> dict[str, Any]:
        side: dict[str, Any] = self.view["me"]
        return side

    @property
    def enemy(self) -> dict[str, Any]:
        side: dict[str, Any] = self.view["enemy"]
        return side

    @property
    def sources(self) -> set[str]:
        """The board's elements that start a legal action (picked first)."""
        return {a["src"] for a in self.actions if a["src"]}

    @property
    def direct(self) -> set[str]:
        """The board's elements that are a whole legal action in one click."""
        return {a["dst"] for a in self.actions if a["dst"] and not a["src"]}

    @property
    def commands(self) -> list[dict[str, Any]]:
        """The legal actions that are no card's nor minion's (keep, ready, end, use, decline,
        an option, pass): buttons of their own under the board."""
        return [a for a in self.actions if not a["src"] and not a["dst"]]

    @property
    def plays_json(self) -> list[dict[str, Any]]:
        """What the page's script needs of each legal action."""
        return [{"json": a["json"], "label": a["label"], "src": a["src"], "dst": a["dst"],
                 "kind": a["kind"], "outcome": a.get("outcome", ""),
                 "preview": a.get("preview_text", "")} for a in self.actions]

    @property
    def end_warning(self) -> str:
        """What ending the turn now leaves unused (energy a legal action could spend, minions
        that can still attack), as the question the page asks once a turn; "" when nothing."""
        kinds = {a["kind"] for a in self.actions}
        if "end" not in kinds:
            return ""
        energy = int(self.me.get("energy") or 0)
        spend = energy > 0 and bool(kinds & {"awaken", "item", "skill", "hero_skill"})
        attackers = len({a["src"] for a in self.actions if a["kind"] == "attack"})
        parts = []
        if spend:
            parts.append(str(_("End the turn with {n} energy unused?")).format(n=energy))
        elif attackers:
            parts.append(str(_("End the turn?")))
        if attackers:
            parts.append(ngettext("{n} minion can still attack.", "{n} minions can still attack.",
                                  attackers).format(n=attackers))
        return " ".join(parts)

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


def card_pictures(codes: set[str]) -> dict[str, str]:
    """The site's own picture of each card the catalogue holds (``/cards/<code>/image.svg``,
    versioned by the card's last change); a card it no longer holds has none."""
    rows = Card.objects.filter(code__in=codes).values_list("code", "updated_at")
    return {code: f"{reverse('cards:image', args=[code])}?v={int(when.timestamp())}"
            for code, when in rows}


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


def _minion_label(view: Mapping[str, Any]) -> str:
    """A minion's tile as a screen reader says it."""
    n = view["slot"] + 1
    if view.get("empty"):
        return str(_("Slot {n}, empty")).format(n=n)
    if view.get("hidden"):
        return str(_("Slot {n}: a face-down minion")).format(n=n)
    parts = [str(_("Slot {n}: {card}, attack {attack}")).format(
        n=n, card=view["card"]["name"], attack=view["attack"])]
    parts.append(str(_("awake") if view["awake"] else _("face down")))
    if view.get("can_attack"):
        parts.append(str(_("can attack")))
    parts += [str(k) for k in view["keywords"]]
    return ", ".join(parts)


def _card_label(info: Mapping[str, Any]) -> str:
    parts = [str(info["name"]), str(game_word("kind", info["kind"])) if info["kind"] else ""]
    if info.get("cost") is not None:
        parts.append(str(_("cost {cost}")).format(cost=info["cost"]))
    if info.get("attack") is not None:
        parts.append(str(_("atk {attack}")).format(attack=info["attack"]))
    return ", ".join(p for p in parts if p)


def _minions(side: Mapping[str, Any], cards: Mapping[str, Any], names: Mapping[str, str],
             attackers: set[int]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for slot, minion in enumerate(side["minions"]):
        if minion is None:
            row: dict[str, Any] = {"slot": slot, "empty": True}
        elif minion.get("hidden"):
            row = {"slot": slot, "hidden": True}
        else:
            row = {"slot": slot, "card": card_info(cards, names, minion["card"]),
                   "attack": minion["attack"], "awake": minion["awake"],
                   "keywords": [game_word("keyword", k) for k in minion["keywords"]],
                   "can_attack": slot in attackers}
        row["label"] = _minion_label(row)
        out.append(row)
    return out


def _side(side: Mapping[str, Any], cards: Mapping[str, Any], names: Mapping[str, str],
          attackers: set[int]) -> dict[str, Any]:
    hero = card_info(cards, names, side["hero"]) or {}
    return {**side, "hero_card": hero, "minion_views": _minions(side, cards, names, attackers),
            "display_cards": [card_info(cards, names, c) for c in side["display"]],
            "graveyard_cards": [card_info(cards, names, c) for c in side["graveyard"]]}


def _infos(shown: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every card face a board shows (heroes, hands, minions, displays)."""
    out: list[dict[str, Any]] = []
    for side in (shown["me"], shown["enemy"]):
        out.append(side["hero_card"])
        out += [c for c in side.get("hand_cards", []) if c]
        out += [c for c in side["display_cards"] if c]
        out += [m["card"] for m in side["minion_views"] if m.get("card")]
    return [c for c in out if c]


def action_rows(game: Game, seat: int, names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The seat's legal actions, each with its JSON form and a sentence."""
    if game.to_move != seat:
        return []
    words = ActionWords(names, redact_snapshot(game.snapshot(), seat), seat)
    rows = []
    for index, action in enumerate(game.legal_actions()):
        data = action.to_dict()
        src, dst = action_keys(data, seat, seat)
        rows.append({"index": index, "action": data, "json": json.dumps(data),
                     "src": src, "dst": dst,
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
    codes = {view[side]["hero"] for side in ("me", "enemy")} | set(view["me"]["hand"])
    codes |= {m["card"] for side in ("me", "enemy") for m in view[side]["minions"]
              if m and m.get("card")}
    codes |= set(view["me"]["display"]) | set(view["enemy"]["display"])
    pictures = card_pictures(codes)
    for key, side in (("mine", shown["me"]), ("theirs", shown["enemy"])):
        side["key"] = key
        for m in side["minion_views"]:
            m["key"] = f"{key}-{m['slot']}"
        side["display_views"] = [{"key": f"display-{key}-{i}", "card": c}
                                 for i, c in enumerate(side["display_cards"])]
    shown["me"]["hand_views"] = [{"key": f"hand-{i}", "card": c}
                                 for i, c in enumerate(shown["me"]["hand_cards"])]
    for info in _infos(shown):
        info["art"] = pictures.get(info["code"], "")
        info["label"] = _card_label(info)
    for row in actions:
        if row["kind"] == "attack":
            preview = combat_preview(game, Action.from_dict(row["action"]))
            if preview is not None:
                row["outcome"], row["preview_text"] = preview_words(preview, row["action"],
                                                                    view, names)
    log: list[tuple[int, str]] = []
    if history is not None:
        log = step_lines(events=list(history.game.events or []), snapshots=history.snapshots,
                         names=names, viewer=seat, start=log_from, end=step)
    steps = history.steps if history is not None else step
    return Board(seat=seat, step=step, steps=steps, view=shown, cards=dict(cards),
                 actions=actions, log=log)
