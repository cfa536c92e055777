"""What a spectator is sent: the game as both players were shown it, neither hand, no face-down
minion, and the moves with no position in a hand.

The redaction is the shared replay's (``play.seat.log_text``: ``redact_snapshot`` and
``step_lines`` for the viewer ``SPECTATOR``), taken at the game's latest step; the moves are
worded from the same lines and sent as ``play.seat.state.seen_action`` sends another seat's
moves (a card from a hand is ``hand-theirs``, for both seats). The board is rebuilt from the
redacted snapshot field by field: only what a card table shows (heroes, life, energy, how many
cards each hand and deck hold, the face-up cards, and of a face-down minion only that it is
there), so nothing the snapshot may carry besides (a decision's data, the cards marked for a
mulligan) reaches a spectator.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from play.clock.periods import clock_state
from play.engine.adapter import History, game_history
from play.models import PlayGame
from play.seat.log_text import SPECTATOR, redact_snapshot, step_lines
from play.seat.state import LogLine, Move, seen_action
from simulations.replays.board import card_names

# A known minion's fields a spectator reads (those of the replay's board).
MINION_FIELDS = ("card", "awake", "public", "attack_buff", "turn_attack_buff", "keywords",
                 "turn_keywords")


class SpectatorData(TypedDict):
    """The game for a spectator (``GET /api/play/<uid>/watch/``, the stream's events)."""

    uid: str
    version: int
    status: str
    result: dict[str, Any] | None
    players: list[str]
    steps: int
    turn: int
    to_move: int | None
    view: dict[str, Any]
    log: list[LogLine]
    moves: list[Move]
    clock: dict[str, Any] | None
    watchers: int
    since: NotRequired[int]


def _minion(minion: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if minion is None:
        return None
    if minion.get("card") is None:
        return {"hidden": True}                 # face down: that a minion is there, no more
    return {key: minion.get(key) for key in MINION_FIELDS}


def spectator_view(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """The table as a spectator sees it, from the replay's redaction of ``snapshot``."""
    seen = redact_snapshot(snapshot, SPECTATOR)
    players = [{"hero": p.get("hero"), "hp": p.get("hp"), "energy": p.get("energy"),
                "hand": len(p.get("hand") or []), "deck": len(p.get("deck") or []),
                "display": list(p.get("display") or []),
                "graveyard": list(p.get("graveyard") or []),
                "minions": [_minion(m) for m in p.get("minions") or []]}
               for p in seen.get("players") or []]
    decision = seen.get("decision") or {}
    return {"turn": seen.get("turn"), "active": seen.get("active"), "phase": seen.get("phase"),
            "to_move": decision.get("player"), "decision": decision.get("kind"),
            "players": players}


def spectator_lines(record: PlayGame, history: History, start: int = 0) -> list[tuple[int, str]]:
    """The log from step ``start`` as a spectator reads it (the shared replay's sentences)."""
    return step_lines(events=list(history.game.events or []), snapshots=history.snapshots,
                      names=card_names(record.cards), viewer=SPECTATOR, start=start)


def _moves(record: PlayGame, history: History, lines: list[tuple[int, str]],
           since: int) -> list[Move]:
    said = {step: text.split(": ", 1)[-1] for step, text in lines if text.startswith("▶")}
    moves: list[Move] = []
    for index in range(max(0, since), history.steps):
        actor = (history.snapshots[index].get("decision") or {}).get("player")
        action = record.actions[index]
        moves.append({"step": index + 1, "seat": actor,
                      "action": seen_action(action, actor, SPECTATOR),
                      "label": said.get(index + 1, str(action.get("kind", "")))})
    return moves


def spectator_data(record: PlayGame, *, since: int | None = None,
                   watchers: int = 0) -> SpectatorData:
    """The game for a spectator: the whole game so far (its log and moves) or, with ``since``,
    what came after that step."""
    history = game_history(record)
    start = 0 if since is None else since + 1
    lines = spectator_lines(record, history, start)
    view = spectator_view(history.snapshots[history.steps])
    out: SpectatorData = {
        "uid": record.uid, "version": record.version, "status": record.status,
        "result": record.result, "players": [record.player_name(0), record.player_name(1)],
        "steps": history.steps, "turn": int(view["turn"] or 0), "to_move": view["to_move"],
        "view": view, "log": [{"step": step, "text": text} for step, text in lines],
        "moves": _moves(record, history, lines, since or 0), "clock": clock_state(record),
        "watchers": watchers}
    if since is not None:
        out["since"] = since
    return out
