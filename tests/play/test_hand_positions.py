"""No answer to a seat says where in the other seat's hidden hand a card was (R1.1: a hand is
hidden from the other player). A returned minion goes to the end of its owner's hand, so a move
``{"kind": "place", "card": 4}`` read by the other seat right after "P2's … returns to the hand"
would name the face-down minion placed. Whole games are played, hot-seat and between two people,
and every answer either seat reads — ``?since=`` polls and live-stream events — is checked at
every step: the other seat's moves from its hand carry ``hand-theirs``, never an index."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from play.models import PlayGame
from tests.play.test_friends import game_between

pytestmark = pytest.mark.django_db

# The order a test player prefers its legal actions: attack, then develop the board, then
# whatever the decision asks, ending the turn last, so that games end in a few dozen turns.
PREFERENCE = ("attack", "awaken", "place", "item", "replenish", "mulligan", "skill",
              "hero_skill", "use", "pick", "target", "choose", "discard", "discard_display",
              "keep", "ready", "pass", "decline", "end")
MAX_STEPS = 600
# The actions whose ``card`` is a position in the actor's hand (rules/engine/actions.py).
HAND_INDEXED = ("mulligan", "place", "item", "discard", "replenish", "pick")


def _choice(state: dict[str, Any], mulligans: dict[int, int]) -> dict[str, Any]:
    actions = [a["action"] for a in state["actions"]]
    seat = state["seat"]

    def rank(action: dict[str, Any]) -> int:
        kind = action["kind"]
        if kind == "mulligan" and mulligans.get(seat, 0) >= 1:
            return len(PREFERENCE)        # one card put back each: the index is on the wire
        if kind == "attack" and action.get("target") == "hero":
            return -1
        return PREFERENCE.index(kind) if kind in PREFERENCE else len(PREFERENCE) - 1

    chosen = min(actions, key=rank)
    if chosen["kind"] == "mulligan":
        mulligans[seat] = mulligans.get(seat, 0) + 1
    return chosen


def _moves(answer: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield from answer.get("moves") or []


def _assert_no_hidden_index(answer: dict[str, Any], seen: set[str]) -> None:
    """The answer's moves by the other seat from its hand carry no index of that hand."""
    reader = answer["seat"]
    for move in _moves(answer):
        action = move["action"]
        seen.add(action["kind"])
        if move["seat"] != reader and action["kind"] in HAND_INDEXED:
            assert action.get("card") == "hand-theirs", (reader, move)


def _whole_game(act: Callable[[int, dict[str, Any]], None],
                read: Callable[[int, int], dict[str, Any]], uid: str) -> set[str]:
    """Plays the game to its end; after every step each seat reads what happened since its
    last read. Returns the kinds of the moves read."""
    last = {0: 0, 1: 0}
    seen: set[str] = set()
    mulligans: dict[int, int] = {}
    for _ in range(MAX_STEPS):
        record = PlayGame.objects.get(uid=uid)
        if record.over:
            return seen
        for seat in (0, 1):
            answer = read(seat, last[seat])
            _assert_no_hidden_index(answer, seen)
            last[seat] = answer["steps"]
        mover = read(_to_move(record), last[_to_move(record)])
        act(mover["seat"], {"version": mover["version"], "action": _choice(mover, mulligans)})
    raise AssertionError("the game did not end")


def _to_move(record: PlayGame) -> int:
    from play.engine.adapter import game_at

    seat = game_at(record).to_move
    assert seat is not None
    return seat


def test_hot_seat_moves_of_the_other_seat_name_no_hand_position(client_for, alice, start):
    """Rule: R1.1 — each seat of a hot-seat game reads the other's moves with its hand hidden."""
    uid = start(alice, opponent="human", seed=3)["uid"]
    client = client_for(alice)

    def act(seat: int, body: dict[str, Any]) -> None:
        response = client.post(f"/api/play/{uid}/actions/", body, format="json")
        assert response.status_code == 200, response.json()

    def read(seat: int, since: int) -> dict[str, Any]:
        return client.get(f"/api/play/{uid}/?seat={seat}&since={since}").json()

    seen = _whole_game(act, read, uid)
    assert {"place", "mulligan"} <= seen          # moves from a hand were read by both


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_loop_running")
def test_between_people_no_poll_and_no_event_names_a_hand_position(
        client_for, alice, bob, client, settings):
    """Rule: R1.1 — each player of a game between people, through the API's polls and the
    live stream's events."""
    settings.PLAY_STREAM_HOLD = 0                 # a stream answers what is new, then ends
    uid = game_between(client_for, alice, bob)["uid"]
    players = {0: client_for(alice), 1: client_for(bob)}
    users = {0: alice, 1: bob}

    def act(seat: int, body: dict[str, Any]) -> None:
        response = players[seat].post(f"/api/play/{uid}/actions/", body, format="json")
        assert response.status_code == 200, response.json()

    def read(seat: int, since: int) -> dict[str, Any]:
        polled = players[seat].get(f"/api/play/{uid}/?since={since}").json()
        client.force_login(users[seat])
        stream = client.get(f"/api/play/{uid}/events/?since={since}")
        text = b"".join(stream.streaming_content).decode()
        for line in text.splitlines():
            if line.startswith("data: "):
                _assert_no_hidden_index(json.loads(line[6:]), set())
        return polled

    seen = _whole_game(act, read, uid)
    assert {"place", "mulligan"} <= seen
