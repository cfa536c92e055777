"""The game's log in words for one seat: the replay viewer's sentences, minus what it may not see.

The engine logs every event with the true cards (a face-down placement names its card). For a
seat, a card is named only if that seat could see it: its own cards, face-up minions, revealed
ones, graveyards and displays. The sentences describe actions from a *redacted* snapshot (the
other hand and the unrevealed face-down enemy minions unknown), so "P2 places an unknown card
in slot 3" is all a seat learns of the other's setup. ``viewer=None`` is the whole truth, for a
finished game's replay against an agent; ``SPECTATOR`` knows only what both seats were shown.

Invariant: for a viewer, a line depends only on what that seat's views showed before and after
its step.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from simulations.replays.text import Describer

# The viewer of a shared replay of a game between people who played neither seat: both hands
# and every unrevealed face-down minion unknown.
SPECTATOR = -1

# Events that name a minion by its side and slot: checked against the board before the step
# (the minion was there) or after it (it arrived). A destroyed minion lands face up in the
# graveyard, so its name is known from the board after the step like any other card's.
SLOT_BEFORE = frozenset({"returned", "regenerate"})
SLOT_AFTER = frozenset({"place", "summon", "mind_control"})
CARD_FIELDS = ("card", "source", "attacker", "defender")
# Where the engine logs the minion a card field names ([player, slot]), when it is one: that
# minion, not any copy of its card, decides whether the viewer may read its name.
SPOTS = {"card": "at", "source": "at", "attacker": "at", "defender": "defender_at"}


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


def _minion(snapshot: Mapping[str, Any], player: Any, slot: Any) -> Mapping[str, Any] | None:
    try:
        minion = snapshot["players"][int(player)]["minions"][int(slot)]
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    return minion if isinstance(minion, Mapping) else None


def _minion_known(snapshot: Mapping[str, Any], player: Any, slot: Any) -> bool:
    minion = _minion(snapshot, player, slot)
    return bool(minion and minion.get("card"))


class Step:
    """One step as a viewer knows it: the true snapshots before and after it (which minion an
    event is about) and the viewer's redacted ones (what it knows of that minion)."""

    def __init__(self, viewer: int, before: Mapping[str, Any], after: Mapping[str, Any],
                 seen: tuple[Mapping[str, Any], Mapping[str, Any]] | None = None):
        self.viewer = viewer
        self.true = (before, after)
        self.seen = seen or (redact_snapshot(before, viewer), redact_snapshot(after, viewer))

    def minion_known(self, spot: Any, code: Any) -> bool:
        """The viewer knows the minion of card ``code`` at ``spot`` ([player, slot], where the
        engine logged it) before or after the step. That it knows *another* copy of the card
        is not enough: "Banner Knight gains Shield" about a face-down Banner Knight would say
        what that minion is."""
        player, slot = spot
        if player == self.viewer:
            return True
        return any(_minion_known(seen, player, slot)
                   and (_minion(true, player, slot) or {}).get("card") == code
                   for seen, true in zip(self.seen, self.true, strict=True))

    def card_known(self, code: Any, spot: Any) -> bool:
        if isinstance(spot, (list, tuple)) and len(spot) == 2:
            return self.minion_known(spot, code)
        return code in _visible_codes(self.seen[0]) | _visible_codes(self.seen[1])


def redact_event(event: Mapping[str, Any], step: Step) -> Mapping[str, Any]:
    """The event with every card ``step.viewer`` could not see replaced by None."""
    kind = event.get("t")
    viewer = step.viewer
    if kind == "action":
        return event
    if kind in SLOT_BEFORE or kind in SLOT_AFTER:
        board = step.seen[0] if kind in SLOT_BEFORE else step.seen[1]
        if event.get("player") != viewer and not _minion_known(board, event.get("player"),
                                                               event.get("slot")):
            return {**event, "card": None}
        return event
    hidden = {name: None for name in CARD_FIELDS
              if name in event and event[name] is not None
              and not step.card_known(event[name], event.get(SPOTS[name]))}
    return {**event, **hidden} if hidden else event


def step_lines(*, events: Sequence[Mapping[str, Any]], snapshots: Sequence[Mapping[str, Any]],
               names: Mapping[str, str], viewer: int | None, start: int = 0,
               end: int | None = None) -> list[tuple[int, str]]:
    """(step, sentence) for the events of steps ``start``..``end`` as ``viewer`` sees them."""
    parts = segments(events)
    last = len(parts) - 1 if end is None else min(end, len(parts) - 1)
    lines: list[tuple[int, str]] = []
    redacted: dict[int, dict[str, Any]] = {}      # each snapshot redacted once, not twice

    def seen(index: int) -> dict[str, Any]:
        if index not in redacted:
            redacted[index] = redact_snapshot(snapshots[index], viewer)
        return redacted[index]

    for step in range(max(0, start), last + 1):
        b, a = max(0, step - 1), min(step, len(snapshots) - 1)
        before, after = snapshots[b], snapshots[a]
        known = None if viewer is None else Step(viewer, before, after, (seen(b), seen(a)))
        describe = Describer(names, before if known is None else known.seen[0])
        for event in parts[step]:
            shown = event if known is None else redact_event(event, known)
            lines.append((step, describe(shown)))
    return lines
