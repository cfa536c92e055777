"""A kept game, step by step, for the replay viewer.

Step 0 is the state before the first action; step k the state after the k-th action, rebuilt by
the engine from the game's log (``rules.engine.replay``) and the run's frozen cards. The events
of step k are the log's events from the k-th action up to the next one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from cards.models import text_names
from common.language import localized_value, reader_language
from rules.engine import replay_states
from rules.engine.cards import CardDef
from simulations.replays.text import Describer, keyword_name


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


def _segments(log: Mapping[str, Any]) -> list[list[dict[str, Any]]]:
    """Events split at each action: segment 0 precedes the first action."""
    segments: list[list[dict[str, Any]]] = [[]]
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


def board(log: Mapping[str, Any], cards: Mapping[str, dict[str, Any]], step: int) -> Board:
    """The game at ``step`` (clamped to the game's steps)."""
    defs = {code: CardDef.from_dict(data) for code, data in cards.items()}
    steps = len(log.get("actions") or [])
    step = max(0, min(step, steps))
    snapshot: dict[str, Any] = {}
    before: dict[str, Any] = {}
    for index, state in enumerate(replay_states(log, defs)):
        before, snapshot = snapshot, state
        if index == step:
            break
    segments = _segments(log)
    describe = Describer(card_names(cards), before)
    events = [describe(e) for e in (segments[step] if step < len(segments) else [])]
    return Board(step=step, steps=steps, turn=int(snapshot.get("turn", 0)), snapshot=snapshot,
                 events=events, turn_starts=turn_starts(log))


def seats(snapshot: Mapping[str, Any], cards: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Both players' zones with card names, for the template (player 2 first: the top row)."""
    out: list[dict[str, Any]] = []
    for index, player in enumerate(snapshot.get("players") or []):
        hero = cards.get(player.get("hero"), {})
        minions: list[dict[str, Any]] = []
        for slot, minion in enumerate(player.get("minions") or []):
            if minion is None:
                minions.append({"slot": slot + 1, "empty": True})
                continue
            if minion.get("card") is None:          # a face-down card its viewer may not know
                minions.append({"slot": slot + 1, "empty": False, "code": "",
                                "name": _("an unknown card"), "attribute": "", "attack": None,
                                "buff": 0, "awake": False, "keywords": []})
                continue
            data = cards.get(minion["card"], {})
            buff = int(minion.get("attack_buff", 0)) + int(minion.get("turn_attack_buff", 0))
            minions.append({
                "slot": slot + 1, "empty": False, "code": minion["card"],
                "name": _name(data, minion["card"]),
                "attribute": data.get("attribute", ""),
                "attack": (data.get("attack") or 0) + buff, "buff": buff,
                "awake": minion.get("awake", False),
                "keywords": [keyword_name(k) for k in [*(minion.get("keywords") or []),
                                                       *(minion.get("turn_keywords") or [])]]})
        out.append({
            "seat": index + 1, "hero": _name(hero, player.get("hero")),
            "attribute": hero.get("attribute", ""), "hp": player.get("hp"),
            "energy": player.get("energy"),
            "hand": [_name(cards.get(c, {}), c) if c is not None else _("an unknown card")
                     for c in player.get("hand") or []],
            "deck": len(player.get("deck") or []),
            "display": [_name(cards.get(c, {}), c) for c in player.get("display") or []],
            "graveyard": len(player.get("graveyard") or []), "minions": minions,
            "to_move": (snapshot.get("decision") or {}).get("player") == index})
    return list(reversed(out))


def card_names(cards: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Each frozen card's name in the page's language, by code, and the catalogue's faction and
    race names in it (``cards.models.text_names``): the names a rules text and the log show,
    never a race's code ("an undead minion" where the catalogue says Undead / 亡灵)."""
    return text_names(cards, reader_language())


def _name(data: Mapping[str, Any], code: Any) -> str:
    """A frozen card's name in the page's language."""
    return localized_value(data, "name") or str(code)
