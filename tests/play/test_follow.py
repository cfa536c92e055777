"""An API client follows the AI's turn: the state since a step (its log lines and the moves
played since, not the whole log), the state at an earlier step, and a failed AI move retried."""

from __future__ import annotations

import pytest

from play.ai import runner
from play.models import PlayGame
from tests.play.test_api import _act, _first_choice

pytestmark = pytest.mark.django_db


def _to_ai_reply(client, state):
    """Act until the AI has replied with moves of its own; returns (state before, state after)."""
    for _ in range(80):
        response = _act(client, state, _first_choice(state))
        after = response.json()
        record = PlayGame.objects.get(uid=state["uid"])
        if after["steps"] - state["steps"] > 1:
            return state, after, record
        state = after
    raise AssertionError("the AI never replied")


def test_the_state_since_a_step_holds_only_what_happened_after_it(alice, client_for, start):
    client = client_for(alice)
    before, after, record = _to_ai_reply(client, start(alice))
    since = before["steps"]
    body = client.get(f"/api/play/{before['uid']}/?since={since}").json()
    assert body["since"] == since and body["steps"] == after["steps"]
    assert body["log"] and all(line["step"] > since for line in body["log"])
    assert body["log"] == [line for line in after["log"] if line["step"] > since]
    moves = body["moves"]
    assert [m["step"] for m in moves] == list(range(since + 1, after["steps"] + 1))
    assert [m["action"] for m in moves] == record.actions[since:]
    assert {m["seat"] for m in moves[1:]} == {1}        # the AI's reply, after the person's move
    assert all(m["label"] for m in moves)


def test_the_state_at_an_earlier_step_and_bad_steps(alice, client_for, start):
    client = client_for(alice)
    before, after, _record = _to_ai_reply(client, start(alice))
    earlier = client.get(f"/api/play/{before['uid']}/?step={before['steps'] + 1}").json()
    assert earlier["step"] == before["steps"] + 1 and earlier["actions"] == []
    for bad in ("since=-1", "since=x", f"since={after['steps'] + 1}", "step=1e400"):
        response = client.get(f"/api/play/{before['uid']}/?{bad}")
        assert response.status_code == 400, bad
        assert bad.split("=")[0] in response.json(), bad


def test_a_failed_ai_move_is_retried_through_the_api(alice, client_for, start, monkeypatch):
    client = client_for(alice)
    model = PlayGame.objects.get(uid=start(alice)["uid"])
    record = PlayGame.objects.create(owner=alice, decks=model.decks, cards=model.cards,
                                     seats=model.seats, seed=model.seed, ruleset=model.ruleset,
                                     first_player=1)     # the AI decides first, and it failed
    state = {"steps": 0}
    monkeypatch.setattr(runner, "_failed", {record.uid: (record.version, "Boom: the test")})
    stuck = client.get(f"/api/play/{record.uid}/").json()
    assert stuck["agent_error"] and stuck["agent_to_move"]
    retried = client.post(f"/api/play/{record.uid}/retry/", {"version": record.version},
                          format="json")
    assert retried.status_code == 200, retried.json()
    assert retried.json()["agent_error"] is None
    assert retried.json()["steps"] > state["steps"]
    nothing = client.post(f"/api/play/{record.uid}/retry/",
                          {"version": retried.json()["version"]}, format="json")
    assert nothing.status_code == 400


def test_the_page_retries_a_failed_ai_move_without_a_reload(alice, client, start, monkeypatch):
    model = PlayGame.objects.get(uid=start(alice)["uid"])
    record = PlayGame.objects.create(owner=alice, decks=model.decks, cards=model.cards,
                                     seats=model.seats, seed=model.seed, ruleset=model.ruleset,
                                     first_player=1)
    monkeypatch.setattr(runner, "_failed", {record.uid: (record.version, "Boom: the test")})
    client.force_login(alice)
    response = client.post(f"/play/{record.uid}/retry/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert runner.agent_failure(record.uid, record.version) is None
    assert PlayGame.objects.get(uid=record.uid).actions        # the AI has moved
