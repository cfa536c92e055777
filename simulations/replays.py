"""A kept game, step by step, for the replay viewer.

Step 0 is the state before the first action; step k the state after the k-th action, rebuilt by
the engine from the game's log (``rules.engine.replay``) and the run's frozen cards. The events
of step k are the log's events from the k-th action up to the next one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.cards import CardDef
from rules.engine.replay import replay


@dataclass
class Board:
    step: int
    steps: int
    turn: int
    snapshot: dict[str, Any]
    events: list[str]
    turn_starts: dict[int, int] = field(default_factory=dict)   # turn → first step

    @property
    def previous_turn_step(self) -> int | None:
        starts = [s for s in self.turn_starts.values() if s < self.step]
        return max(starts) if starts else (0 if self.step else None)

    @property
    def next_turn_step(self) -> int | None:
        starts = [s for s in self.turn_starts.values() if s > self.step]
        return min(starts) if starts else None


def _segments(log: Mapping[str, Any]) -> list[list[dict]]:
    """Events split at each action: segment 0 precedes the first action."""
    segments: list[list[dict]] = [[]]
    for event in log.get("events") or []:
        if event.get("t") == "action":
            segments.append([])
        segments[-1].append(event)
    return segments


def turn_starts(log: Mapping[str, Any]) -> dict[int, int]:
    """The step at which each turn begins."""
    starts: dict[int, int] = {}
    for step, events in enumerate(_segments(log)):
        for event in events:
            if event.get("t") == "turn":
                starts.setdefault(int(event.get("turn", 0)), step)
    return starts


def board(log: Mapping[str, Any], cards: Mapping[str, dict], step: int) -> Board:
    """The game at ``step`` (clamped to the game's steps)."""
    defs = {code: CardDef.from_dict(data) for code, data in cards.items()}
    steps = len(log.get("actions") or [])
    step = max(0, min(step, steps))
    snapshot: dict[str, Any] = {}
    for index, state in enumerate(replay(log, defs)):
        snapshot = state
        if index == step:
            break
    names = {code: data.get("name_en", code) for code, data in cards.items()}
    segments = _segments(log)
    events = [describe(e, names) for e in (segments[step] if step < len(segments) else [])]
    return Board(step=step, steps=steps, turn=int(snapshot.get("turn", 0)), snapshot=snapshot,
                 events=events, turn_starts=turn_starts(log))


def seats(snapshot: Mapping[str, Any], cards: Mapping[str, dict]) -> list[dict[str, Any]]:
    """Both players' zones with card names, for the template (player 2 first: the top row)."""
    out = []
    for index, player in enumerate(snapshot.get("players") or []):
        hero = cards.get(player.get("hero"), {})
        minions = []
        for slot, minion in enumerate(player.get("minions") or []):
            if minion is None:
                minions.append({"slot": slot + 1, "empty": True})
                continue
            data = cards.get(minion["card"], {})
            buff = int(minion.get("attack_buff", 0)) + int(minion.get("turn_attack_buff", 0))
            minions.append({
                "slot": slot + 1, "empty": False, "code": minion["card"],
                "name": data.get("name_en", minion["card"]),
                "attribute": data.get("attribute", ""),
                "attack": (data.get("attack") or 0) + buff, "buff": buff,
                "awake": minion.get("awake", False),
                "keywords": list(minion.get("keywords") or []) + list(
                    minion.get("turn_keywords") or [])})
        out.append({
            "seat": index + 1, "hero": hero.get("name_en", player.get("hero")),
            "attribute": hero.get("attribute", ""), "hp": player.get("hp"),
            "energy": player.get("energy"),
            "hand": [cards.get(c, {}).get("name_en", c) for c in player.get("hand") or []],
            "deck": len(player.get("deck") or []),
            "display": [cards.get(c, {}).get("name_en", c) for c in player.get("display") or []],
            "graveyard": len(player.get("graveyard") or []), "minions": minions,
            "to_move": (snapshot.get("decision") or {}).get("player") == index})
    return list(reversed(out))


def _seat(event: Mapping[str, Any]) -> str:
    return f"P{int(event.get('player', 0)) + 1}"


def describe(event: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One line of text for a log event."""
    def card(key: str = "card") -> str:
        value = event.get(key)
        return names.get(value, str(value)) if value is not None else "?"

    kind = event.get("t")
    texts = {
        "setup": lambda: f"Setup: P{int(event.get('first_player', 0)) + 1} goes first.",
        "draw": lambda: f"{_seat(event)} draws {event.get('count')}.",
        "mulligan": lambda: f"{_seat(event)} mulligans {event.get('count')}.",
        "place": lambda: f"{_seat(event)} places {card()} face down in slot "
                         f"{int(event.get('slot', 0)) + 1}.",
        "setup_end": lambda: "Setup ends.",
        "turn": lambda: f"— Turn {event.get('turn')}: {_seat(event)} —",
        "item": lambda: f"{_seat(event)} uses {card()}.",
        "awaken": lambda: f"{_seat(event)} awakens {card()}.",
        "combat": lambda: f"{_seat(event)}'s {card('attacker')} attacks {card('defender')}.",
        "combat_result": lambda: f"Combat: {event.get('attack')} against "
                                 f"{event.get('defense')}.",
        "destroyed": lambda: f"{_seat(event)}'s {card()} is destroyed.",
        "hero_heal": lambda: f"{_seat(event)}'s hero heals {event.get('amount')} "
                             f"(HP {event.get('hp')}).",
        "hero_damage": lambda: f"{_seat(event)}'s hero takes {event.get('amount')} "
                               f"(HP {event.get('hp')}).",
        "attack_hero": lambda: f"{card()} hits the enemy hero for {event.get('damage')} "
                               f"(HP {event.get('hp')}).",
        "attack_change": lambda: f"{card()}: attack {int(event.get('amount', 0)):+d} "
                                 f"({event.get('duration')}).",
        "replenish": lambda: f"{_seat(event)} may replenish slot "
                             f"{int(event.get('slot', 0)) + 1}.",
        "returned": lambda: f"{_seat(event)}'s {card()} returns to the hand.",
        "summon": lambda: f"{_seat(event)} summons {card()}.",
        "discard": lambda: f"{_seat(event)} discards {card()}.",
        "regenerate": lambda: f"{_seat(event)}'s {card()} regenerates.",
        "react": lambda: f"{card()} re-acts.",
        "mind_control": lambda: f"{_seat(event)} takes control of {card()}.",
        "keyword_granted": lambda: f"{card()} gains {event.get('keyword')}.",
        "energy": lambda: f"{_seat(event)} has {event.get('energy')} energy.",
        "fatigue": lambda: f"{_seat(event)} has no card to draw (HP {event.get('hp')}).",
        "display": lambda: f"{_seat(event)} puts {card()} on display.",
        "game_over": lambda: ("Game over: a draw." if event.get("winner") is None else
                              f"Game over: P{int(event['winner']) + 1} wins "
                              f"({event.get('reason')})."),
        "action": lambda: f"▶ {_seat(event)}: {_action(event)}",
    }
    if kind in texts:
        return texts[kind]()
    details = ", ".join(f"{k} {names.get(v, v) if isinstance(v, str) else v}"
                        for k, v in event.items() if k != "t")
    return f"{str(kind).replace('_', ' ').capitalize()}: {details}" if details else str(kind)


ACTION_WORDS = {"card": "hand card", "slot": "slot", "target": "target slot"}


def _action(event: Mapping[str, Any]) -> str:
    """An action as the player chose it; positions are shown from 1, like the board."""
    words = []
    for key, value in event.items():
        if key in ("t", "player", "kind"):
            continue
        if key in ACTION_WORDS and isinstance(value, int) and not isinstance(value, bool):
            words.append(f"{ACTION_WORDS[key]} {value + 1}")
        else:
            words.append(f"{key.replace('_', ' ')} {value}")
    kind = str(event.get("kind", "?")).replace("_", " ")
    return f"{kind} ({', '.join(words)})" if words else kind
