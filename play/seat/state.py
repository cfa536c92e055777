"""A seat's whole state of a game, as the page renders it and the API sends it: the one
module that builds it (the page's board, the API's answer, the stream's events).

``seat_state`` takes the replayed game (``play.engine.adapter``, kept per version), takes the
seat's view and words it (``play.seat.board``). A seat is given: P1 against an agent; in a
hot-seat game the seat whose decision it is (the other seat's hidden cards stay hidden while it
plays). ``step`` shows an earlier point of the game — the page steps through an agent's moves
one at a time — rebuilt from the kept snapshots (``play.engine.adapter.game_at_step``: the
nearest whole snapshot before it, with the RNG state it had, and the turn's actions from there),
never replayed from the start. Building a state reads only: it schedules no work (the
agent to move is set playing by the caller, ``play.ai.runner``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from play.ai.turn import agent_to_move
from play.clock.periods import clock_state
from play.engine.adapter import History, game_at_step, game_history, undo_point
from play.models import HUMAN, PlayGame
from play.seat.board import Board, LastMove, action_keys, seat_board
from play.spectators.presence import watchers_count

# Actions whose ``card`` is an index into the actor's hand (R2.1.4, R2.1.5, R2.2.3-4, R2.4.1;
# an effect's pick): the other seat cannot see that hand, so a move by it is sent without the
# index. Where a card sits in a hand is information: a card returned to the hand goes to its
# end, and placing "card 5" right after would name the face-down minion.
HAND_INDEXED = frozenset({"mulligan", "place", "item", "discard", "replenish", "pick"})

# What a side holds for the page alone (faces, keys, labels): the API sends the engine's view.
PAGE_ONLY = frozenset({"hero_card", "minion_views", "display_cards", "graveyard_cards",
                       "hand_cards", "hand_views", "display_views", "key"})


class ActionChoice(TypedDict):
    """A legal action (the engine's action as data) and its words."""

    action: dict[str, Any]
    label: str


class LogLine(TypedDict):
    step: int
    text: str


class Move(TypedDict):
    """An action played after the client's step: who chose it and in words. The other seat's
    action is sent as that seat may know it (``seen_action``): its hand as ``hand-theirs``,
    never the index of a card it cannot see."""

    step: int
    seat: int | None
    action: dict[str, Any]
    label: str


class StateData(TypedDict):
    """The state the API sends (``SeatState.as_dict``): the game's record, the step shown, the
    seat's view (the engine's ``game.view(seat).to_dict()``, less what only the page uses), why
    the agent could not move, and with ``?since=`` the moves played since that step."""

    uid: str
    version: int
    status: str
    result: dict[str, Any] | None
    seats: list[str]
    seat: int
    step: int
    steps: int
    agent_to_move: str | None
    can_undo: bool
    view: dict[str, Any]
    actions: list[ActionChoice]
    log: list[LogLine]
    agent_error: str | None
    players: list[str] | None
    clock: dict[str, Any] | None
    since: NotRequired[int]
    moves: NotRequired[list[Move]]
    watchers: NotRequired[int]
    spectators: NotRequired[list[bool]]


@dataclass
class SeatState:
    record: PlayGame
    board: Board
    history: History
    agent: str | None            # the agent deciding now at the latest step, if any

    @property
    def can_undo(self) -> bool:
        return (not self.record.over and not self.record.friendly
                and self.board.step == self.history.steps
                and undo_point(self.history, self.board.seat) is not None)

    def moves_since(self, since: int) -> list[Move]:
        """The actions played after step ``since``: {step, seat (who chose it), action, label
        (in words, as the seat shown may read them)}."""
        history = self.history
        words: list[Move] = []
        for index in range(max(0, since), self.board.step):
            decision = history.snapshots[index].get("decision") or {}
            action = self.record.actions[index]
            actor = decision.get("player")
            words.append({"step": index + 1, "seat": actor,
                          "action": seen_action(action, actor, self.board.seat),
                          "label": self.move_label(index, action)})
        return words

    def move_label(self, index: int, action: dict[str, Any]) -> str:
        """The action after step ``index`` in words, from the snapshot before it as the shown
        seat knows it (the log's own line for it)."""
        line = next((text for step, text in self.board.log if step == index + 1
                     and text.startswith("▶")), None)
        return line.split(": ", 1)[-1] if line else str(action.get("kind", ""))

    def as_dict(self, agent_error: str | None = None) -> StateData:
        record, board = self.record, self.board
        view = {k: v for k, v in board.view.items() if k not in ("me", "enemy")}
        view["me"] = {k: v for k, v in board.me.items() if k not in PAGE_ONLY}
        view["enemy"] = {k: v for k, v in board.enemy.items() if k not in PAGE_ONLY}
        return {"uid": record.uid, "version": record.version, "status": record.status,
                "result": record.result, "seats": record.seats, "seat": board.seat,
                "step": board.step, "steps": board.steps, "agent_to_move": self.agent,
                "can_undo": self.can_undo, "view": view,
                "actions": [{"action": a["action"], "label": a["label"]} for a in board.actions],
                "log": [{"step": step, "text": text} for step, text in board.log],
                "agent_error": agent_error,
                "players": ([record.player_name(0), record.player_name(1)]
                            if record.friendly else None),
                "clock": clock_state(record)}


def seen_action(action: dict[str, Any], actor: Any, viewer: int) -> dict[str, Any]:
    """``action`` as ``viewer`` may read it: a move of the other seat from its hidden hand keeps
    its kind and slot, and its card is ``hand-theirs`` (the board's key for that hand) instead
    of the index. The seat's own moves, and moves that name no hand card, are unchanged."""
    if actor == viewer or action.get("kind") not in HAND_INDEXED or "card" not in action:
        return action
    return {**action, "card": "hand-theirs"}


def last_move(record: PlayGame, history: History, step: int, viewer: int) -> LastMove | None:
    """The action that led to ``step``: who chose it (``mine``/``theirs``), its kind and where
    it starts and lands on the viewer's board (``play.seat.board.action_keys``) — the page lights
    them as the AI's turn is shown a move at a time. Keys only: nothing hidden is named."""
    if step <= 0 or step > len(record.actions):
        return None
    actor = (history.snapshots[step - 1].get("decision") or {}).get("player")
    if actor not in (0, 1):
        return None
    action = record.actions[step - 1]
    src, dst = action_keys(action, actor, viewer)
    return {"by": "mine" if actor == viewer else "theirs", "kind": action.get("kind"),
            "src": src, "dst": dst, "step": step}


def default_seat(record: PlayGame, to_move: int | None) -> int:
    """The seat a page shows: P1, or in a hot-seat game the seat deciding now."""
    if record.hot_seat and to_move is not None:
        return to_move
    return record.human_seats[0] if record.human_seats else 0


def seat_state(record: PlayGame, *, seat: int | None = None, step: int | None = None,
               log_from: int = 0) -> SeatState:
    if record.friendly and seat not in (0, 1):
        # Between people a board is always one player's own (play.selectors.viewer_seat): a
        # default seat here would show that seat's hand to whoever asked.
        raise ValueError("a game between people is shown to one of its seats only")
    history = game_history(record)
    latest = history.steps
    step = latest if step is None else max(0, min(int(step), latest))
    game = history.game if step == latest else game_at_step(record, history, step)
    if seat is None or record.seats[seat] != HUMAN:
        seat = default_seat(record, history.game.to_move)
    board = seat_board(game=game, history=history, cards=record.cards, seat=seat, step=step,
                       log_from=log_from)
    if step < latest or record.over:
        board.actions = []        # an earlier step is shown: nothing can be played on it
    board.last_move = last_move(record, history, step, seat)
    return SeatState(record=record, board=board, history=history,
                     agent=agent_to_move(record, history.game))


def state_data(record: PlayGame, seat: int | None = None, *, step: int | None = None,
               since: int | None = None, agent_error: str | None = None) -> StateData:
    """The seat's state as the API sends it (the stream's events too): with ``since``, the log
    and the moves after that step; ``agent_error``: why the agent could not move, if it
    failed."""
    log_from = 0 if since is None else since + 1
    state = seat_state(record, seat=seat, step=step, log_from=log_from)
    out = state.as_dict(agent_error=agent_error)
    if since is not None:
        out["since"] = since
        out["moves"] = state.moves_since(since)
    if record.friendly:
        # Who watches (play.spectators): each player's consent, and how many watch now.
        out["spectators"] = [record.watch_p1, record.watch_p2]
        out["watchers"] = watchers_count([record.pk]).get(record.pk, 0)
    return out
