"""A game followed live: ``/api/play/<uid>/events/`` sends the reader's seat's state after
every change, as server-sent events — a coroutine woken by the process's watcher under ASGI,
a held connection that the browser renews under WSGI. Only the game's players may follow it."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from play import services
from play.models import PlayGame
from tests.play.test_friends import game_between

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_loop_running")]


def _events(text: str) -> list[dict]:
    return [json.loads(line[6:]) for line in text.splitlines() if line.startswith("data: ")]


def _move(uid: str, user) -> PlayGame:
    record = PlayGame.objects.get(uid=uid)
    from play.engine.adapter import game_at

    action = game_at(record).legal_actions()[0]
    return services.play_act(record=record, action=action, version=record.version, by=user)


@pytest.fixture
def uid(client_for, alice, bob, settings):
    settings.PLAY_STREAM_HOLD = 0.4
    found = game_between(client_for, alice, bob)["uid"]
    client_for(alice).get(f"/api/play/{found}/")
    client_for(bob).get(f"/api/play/{found}/")
    return found


def test_the_stream_sends_the_moves_since_the_step_asked(uid, client, alice, bob):
    _move(uid, alice)
    client.force_login(bob)
    response = client.get(f"/api/play/{uid}/events/?since=0")
    assert response["Content-Type"] == "text/event-stream"
    text = b"".join(response.streaming_content).decode()
    assert text.startswith("retry: 1000")
    [state] = _events(text)
    assert state["seat"] == 1 and state["since"] == 0
    assert [m["step"] for m in state["moves"]] == [1]
    assert "event: state" in text and f"id: {state['version']}:1" in text


def test_nothing_changed_sends_nothing_and_costs_no_replay(uid, client, bob, monkeypatch):
    client.force_login(bob)
    from play.engine import adapter as engine_adapter

    monkeypatch.setattr(engine_adapter, "_replay", lambda record: pytest.fail("replayed"))
    text = b"".join(client.get(f"/api/play/{uid}/events/").streaming_content).decode()
    assert _events(text) == [] and text.startswith("retry:")


def test_a_poll_of_an_unchanged_game_is_a_304_that_costs_no_replay(uid, client, alice, bob,
                                                                   monkeypatch):
    """A client that polls (instead of following the stream) sends back the last ETag: while
    nothing changed the answer is a 304 with no body and no replay, even with the process's
    kept games gone (more games than it keeps); once the other player moves, the new state."""
    from play.engine import adapter as engine_adapter

    client.force_login(bob)
    first = client.get(f"/api/play/{uid}/?since=0")
    tag = first["ETag"]
    assert first.status_code == 200 and tag
    engine_adapter.history_forget()
    monkeypatch.setattr(engine_adapter, "_replay", lambda record: pytest.fail("replayed"))
    again = client.get(f"/api/play/{uid}/?since=0", headers={"if-none-match": tag})
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    monkeypatch.undo()
    _move(uid, alice)
    moved = client.get(f"/api/play/{uid}/?since=0", headers={"if-none-match": tag})
    assert moved.status_code == 200 and moved["ETag"] != tag and moved.json()["moves"]


def test_only_the_players_may_follow(uid, client, client_for):
    from tests.fixtures import UserFactory

    anonymous = client.get(f"/api/play/{uid}/events/")
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"] == 'Basic realm="api"'
    client.cookies["csrftoken"] = "x" * 32          # a browser whose session ended
    ended = client.get(f"/api/play/{uid}/events/")
    assert ended.status_code == 401 and ended["WWW-Authenticate"].startswith("Cookie ")
    client.force_login(UserFactory(username="carol"))
    missing = client.get(f"/api/play/{uid}/events/")
    assert missing.status_code == 404 and "detail" in missing.json()
    assert client.get("/api/play/nothing/events/").status_code == 404


def test_a_script_follows_with_the_apis_basic_credentials(uid, client, bob):
    """The stream takes the API's way in for a script, HTTP basic credentials, as every other
    address of /api/ does: the right ones follow the game, a wrong password is a 401."""
    import base64

    from tests.fixtures import PASSWORD

    def basic(password: str) -> dict[str, str]:
        token = base64.b64encode(f"bob:{password}".encode()).decode()
        return {"authorization": f"Basic {token}"}

    followed = client.get(f"/api/play/{uid}/events/", headers=basic(PASSWORD))
    assert followed.status_code == 200
    assert b"".join(followed.streaming_content).decode().startswith("retry:")
    wrong = client.get(f"/api/play/{uid}/events/", headers=basic("not-it"))
    assert wrong.status_code == 401 and "detail" in wrong.json()


def test_a_bad_since_is_a_400_that_says_what_to_give(uid, client, bob):
    client.force_login(bob)
    refused = client.get(f"/api/play/{uid}/events/?since=x")
    assert refused.status_code == 400 and "whole number from 0 to" in refused.json()["since"][0]


def test_under_asgi_a_waiting_stream_is_woken_by_the_other_players_move(uid, alice, bob):
    async def follow() -> list[dict]:
        client = AsyncClient()
        await client.aforce_login(bob)
        response = await client.get(f"/api/play/{uid}/events/")
        chunks = response.streaming_content.__aiter__()
        assert (await chunks.__anext__()).startswith(b"retry:")
        await sync_to_async(_move, thread_sensitive=False)(uid, alice)
        text = await asyncio.wait_for(chunks.__anext__(), 5)
        await chunks.aclose()
        return _events(text.decode())

    [state] = asyncio.run(follow())
    assert state["seat"] == 1 and [m["seat"] for m in state["moves"]] == [0]


def test_the_schema_documents_the_stream(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/play/{uid}/events/"]["get"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]


def test_a_reader_that_saw_another_version_gets_the_game_at_once(uid, client, bob):
    """The clock started (a new version, no new step) while the page was away: the page
    reconnecting with its last event's id gets the state at once."""
    client.force_login(bob)
    record = PlayGame.objects.get(uid=uid)
    steps = len(record.actions)
    text = b"".join(client.get(f"/api/play/{uid}/events/",
                               HTTP_LAST_EVENT_ID=f"{record.version - 1}:{steps}"
                               ).streaming_content).decode()
    [state] = _events(text)
    assert state["version"] == record.version and state["moves"] == []


@pytest.mark.parametrize("since", ["²", "٣", "9" * 40])
def test_a_step_written_in_other_digits_is_a_400_that_says_the_range(uid, client, alice, since):
    """"²" and "٣" pass str.isdigit, yet int() refuses them: each is a 400 on the stream and
    the API, as a number beyond the game's steps is, and the board ignores it."""
    client.force_login(alice)
    stream = client.get(f"/api/play/{uid}/events/", {"since": since})
    assert stream.status_code == 400 and "since" in stream.json()
    api = client.get(f"/api/play/{uid}/", {"since": since})
    assert api.status_code == 400 and "since" in api.json()
    assert client.get(f"/api/play/{uid}/", {"step": since}).status_code == 400
    assert client.get(f"/play/{uid}/board/", {"step": since, "seat": since}).status_code == 200
