"""The game's log in words for one seat: the replay viewer's sentences, minus what it may not see.

The engine logs every event with the true cards (a face-down placement names its card). For a
seat, a card is named only if that seat could see it: its own cards, face-up minions, revealed
ones, graveyards and displays. The sentences describe actions from a *redacted* snapshot (the
other hand and the unrevealed face-down enemy minions unknown), so "P2 places an unknown card
in slot 3" is all a seat learns of the other's setup. ``viewer=None`` is the whole truth, for a
finished game's replay.

Invariant: for a viewer, a line depends only on what that seat's views showed before and after
its step.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from simulations.replays.text import Describer

# Events that name a minion by its side and slot: checked against the board before the step
# (the minion was there) or after it (it arrived). A destroyed minion lands face up in the
# graveyard, so its name is known from the board after the step like any other card's.
SLOT_BEFORE = frozenset({"returned", "regenerate"})
SLOT_AFTER = frozenset({"place", "summon", "mind_control"})
CARD_FIELDS = ("card", "source", "attacker", "defender")


def segments(events: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """Events split at each action: segment k holds the k-th action and what followed it;
    segment 0 what happened before the first action."""
    out: list[list[Mapping[str, Any]]] = [[]]
    for event in events:
        if event.get("t") == "action":
            out.append([])
        out[-1].append(event)
    return out


def redact_snapshot(snapshot: Mapping[str, Any], viewer: int | None) -> dict[str, Any]:
    """The snapshot as ``viewer`` may know it: the other hand and deck unknown, unrevealed
    face-down enemy minions unknown; both decks' order unknown."""
    if viewer is None:
        return dict(snapshot)
    out = copy.deepcopy(dict(snapshot))
    for index, player in enumerate(out.get("players") or []):
        player["deck"] = [None] * len(player.get("deck") or [])
        if index == viewer:
            continue
        player["hand"] = [None] * len(player.get("hand") or [])
        for minion in player.get("minions") or []:
            if minion is not None and not (minion.get("awake") or minion.get("public")):
                minion["card"] = None
    return out


def _visible_codes(snapshot: Mapping[str, Any]) -> set[str]:
    """Every card code a redacted snapshot shows (known minions, displays, graveyards, the own
    hand)."""
    codes: set[str] = set()
    for player in snapshot.get("players") or []:
        codes.add(player.get("hero"))
        for zone in ("hand", "display", "graveyard"):
            codes.update(c for c in player.get(zone) or [] if c)
        codes.update(m["card"] for m in player.get("minions") or [] if m and m.get("card"))
    return codes


def _minion_known(snapshot: Mapping[str, Any], player: Any, slot: Any) -> bool:
    try:
        minion = snapshot["players"][int(player)]["minions"][int(slot)]
    except (KeyError, IndexError, TypeError, ValueError):
        return False
    return bool(minion and minion.get("card"))


def redact_event(event: Mapping[str, Any], viewer: int, before: Mapping[str, Any],
                 after: Mapping[str, Any]) -> Mapping[str, Any]:
    """The event with every card ``viewer`` could not see replaced by None."""
    kind = event.get("t")
    if kind == "action":
        return event
    if kind in SLOT_BEFORE or kind in SLOT_AFTER:
        board = before if kind in SLOT_BEFORE else after
        if event.get("player") != viewer and not _minion_known(board, event.get("player"),
                                                               event.get("slot")):
            return {**event, "card": None}
        return event
    known = _visible_codes(before) | _visible_codes(after)
    hidden = {name: None for name in CARD_FIELDS
              if name in event and event[name] is not None and event[name] not in known}
    return {**event, **hidden} if hidden else event


def step_lines(*, events: Sequence[Mapping[str, Any]], snapshots: Sequence[Mapping[str, Any]],
               names: Mapping[str, str], viewer: int | None, start: int = 0,
               end: int | None = None) -> list[tuple[int, str]]:
    """(step, sentence) for the events of steps ``start``..``end`` as ``viewer`` sees them."""
    parts = segments(events)
    last = len(parts) - 1 if end is None else min(end, len(parts) - 1)
    lines: list[tuple[int, str]] = []
    for step in range(max(0, start), last + 1):
        before = redact_snapshot(snapshots[max(0, step - 1)], viewer)
        after = redact_snapshot(snapshots[min(step, len(snapshots) - 1)], viewer)
        describe = Describer(names, before)
        for event in parts[step]:
            shown = event if viewer is None else redact_event(event, viewer, before, after)
            lines.append((step, describe(shown)))
    return lines
