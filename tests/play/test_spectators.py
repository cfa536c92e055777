"""Spectators of a game between people: it may be watched only while both players allow it (a
choice on the challenge and on accepting, defaulting to each player's setting, and changeable
by either during the game); anyone else meets the 404 of a game that does not exist; a player
opening the spectator's address is sent to their seat; the players see how many watch; the
lobby lists the games that may be watched."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient
from django.utils import timezone

from play.models import Challenge, PlayerSettings, PlayGame, PlaySpectator
from play.spectators.presence import WATCHING_SECONDS, spectators_forget
from play.streams.watch import Waiter, Watcher
from tests.play.conftest import DAWN, DUSK
from tests.play.test_friends import challenge

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_presence():
    spectators_forget()          # each test a fresh process: no spectator written lately
    yield
    spectators_forget()


@pytest.fixture
def carol(db):
    from tests.fixtures import UserFactory

    return UserFactory(username="carol")


@pytest.fixture
def dave(db):
    from tests.fixtures import UserFactory

    return UserFactory(username="dave")


def watched_game(client_for, alice, bob, *, mine=True, theirs=True):
    """A game alice (P1) and bob (P2) play, each allowing spectators or not."""
    made = challenge(client_for(alice), spectators=mine, opponent=bob.username)
    accepted = client_for(bob).post(f"/api/play/challenges/{made['uid']}/accept/",
                                    {"deck": DUSK, "spectators": theirs}, format="json")
    assert accepted.status_code == 201, accepted.json()
    return accepted.json()["uid"]


def test_a_game_both_players_allow_is_watched_without_either_hand(client_for, alice, bob,
                                                                   carol):
    uid = watched_game(client_for, alice, bob)
    answer = client_for(carol).get(f"/api/play/{uid}/watch/")
    assert answer.status_code == 200, answer.json()
    state = answer.json()
    assert state["players"] == ["alice", "bob"] and state["steps"] == 0
    hands = [p["hand"] for p in state["view"]["players"]]
    assert all(isinstance(n, int) and n > 0 for n in hands)      # how many, never which
    assert "hand_cards" not in json.dumps(state) and state["moves"] == []
    assert state["log"], "the game so far (its setup) is there when joining"


@pytest.mark.parametrize(("mine", "theirs"), [(True, False), (False, True), (False, False)])
def test_a_game_not_both_allow_is_a_404_as_a_missing_one(client_for, alice, bob, carol,
                                                          client, mine, theirs):
    uid = watched_game(client_for, alice, bob, mine=mine, theirs=theirs)
    missing = client_for(carol).get("/api/play/nosuchgame00/watch/")
    answer = client_for(carol).get(f"/api/play/{uid}/watch/")
    assert answer.status_code == missing.status_code == 404
    assert answer.json()["detail"].replace(uid, "X") == \
        missing.json()["detail"].replace("nosuchgame00", "X")
    client.force_login(carol)
    assert client.get(f"/play/{uid}/watch/").status_code == 404
    assert client.get(f"/play/{uid}/watch/board/").status_code == 404


def test_a_game_against_the_ai_is_never_watched(client_for, alice, carol, start):
    uid = start(alice)["uid"]
    assert client_for(carol).get(f"/api/play/{uid}/watch/").status_code == 404
    assert client_for(alice).get(f"/api/play/{uid}/watch/").status_code == 404


def test_a_player_opening_the_spectators_address_is_sent_to_their_seat(client_for, alice, bob,
                                                                       client):
    uid = watched_game(client_for, alice, bob, theirs=False)     # not watchable: still a player
    client.force_login(bob)
    page = client.get(f"/play/{uid}/watch/")
    assert page.status_code == 302 and page["Location"] == f"/play/{uid}/"
    api = client_for(bob).get(f"/api/play/{uid}/watch/")
    assert api.status_code == 302 and api["Location"] == f"/api/play/{uid}/"


def test_watching_needs_a_log_in(client_for, alice, bob, client):
    uid = watched_game(client_for, alice, bob)
    page = client.get(f"/play/{uid}/watch/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]
    assert client.get(f"/api/play/{uid}/watch/").status_code in (401, 403)


def test_the_choice_defaults_to_each_players_setting(client_for, alice, bob, carol):
    PlayerSettings.objects.create(user=alice, allow_spectators=True)
    made = challenge(client_for(alice))
    assert made["spectators"] is True
    accepted = client_for(bob).post(f"/api/play/challenges/{made['uid']}/accept/",
                                    {"deck": DUSK}, format="json").json()
    game = PlayGame.objects.get(uid=accepted["uid"])
    assert (game.watch_p1, game.watch_p2) == (True, False)      # bob's default: off
    assert client_for(carol).get(f"/api/play/{game.uid}/watch/").status_code == 404


def test_either_player_may_stop_allowing_during_the_game(client_for, alice, bob, carol):
    uid = watched_game(client_for, alice, bob)
    assert client_for(carol).get(f"/api/play/{uid}/watch/").status_code == 200
    stopped = client_for(bob).post(f"/api/play/{uid}/spectators/", {"allow": False},
                                   format="json")
    assert stopped.json() == {"uid": uid, "allowed": [True, False], "watchable": False}
    assert client_for(carol).get(f"/api/play/{uid}/watch/").status_code == 404
    state = client_for(alice).get(f"/api/play/{uid}/").json()
    assert state["spectators"] == [True, False]
    again = client_for(bob).post(f"/api/play/{uid}/spectators/", {"allow": True},
                                 format="json")
    assert again.json()["watchable"] is True
    assert client_for(carol).get(f"/api/play/{uid}/watch/").status_code == 200


def test_the_consent_is_written_strictly_and_only_by_a_player(client_for, alice, bob, carol):
    uid = watched_game(client_for, alice, bob)
    for body, field in (({"allow": 1}, "allow"), ({"allow": "false"}, "allow"),
                        ({"alow": False}, "alow"), ({}, "allow")):
        refused = client_for(alice).post(f"/api/play/{uid}/spectators/", body, format="json")
        assert refused.status_code == 400 and field in refused.json(), (body, refused.json())
    assert client_for(carol).post(f"/api/play/{uid}/spectators/", {"allow": False},
                                  format="json").status_code == 404
    assert PlayGame.objects.get(uid=uid).watchable


def test_the_board_form_changes_the_consent(client_for, alice, bob, client):
    uid = watched_game(client_for, alice, bob)
    client.force_login(alice)
    board = client.get(f"/play/{uid}/").content.decode()
    assert 'data-testid="spectators-stop"' in board and 'data-testid="watchers"' in board
    client.post(f"/play/{uid}/spectators/", {"allow": "0"})
    assert not PlayGame.objects.get(uid=uid).watch_p1
    refused = client.post(f"/play/{uid}/spectators/", {"allow": "maybe"},
                          HTTP_HX_REQUEST="true")
    assert refused.status_code == 400 and "Give allow as 1" in refused.content.decode()


def test_the_players_see_how_many_watch(client_for, alice, bob, carol, dave):
    uid = watched_game(client_for, alice, bob)
    assert client_for(alice).get(f"/api/play/{uid}/").json()["watchers"] == 0
    for who in (carol, dave, carol):                         # carol twice: one spectator
        client_for(who).get(f"/api/play/{uid}/watch/")
    assert client_for(alice).get(f"/api/play/{uid}/").json()["watchers"] == 2
    assert client_for(dave).get(f"/api/play/{uid}/watch/").json()["watchers"] == 2
    gone = timezone.now() - timedelta(seconds=WATCHING_SECONDS + 1)
    PlaySpectator.objects.filter(user=dave).update(seen_at=gone)    # dave left a while ago
    assert client_for(bob).get(f"/api/play/{uid}/").json()["watchers"] == 1


def test_watching_writes_the_presence_at_most_every_few_seconds(client_for, alice, bob, carol,
                                                                django_assert_num_queries):
    uid = watched_game(client_for, alice, bob)
    client_for(carol).get(f"/api/play/{uid}/watch/")
    seen = PlaySpectator.objects.get(user=carol).seen_at
    for _ in range(3):
        client_for(carol).get(f"/api/play/{uid}/watch/")
    assert PlaySpectator.objects.get(user=carol).seen_at == seen     # not one write a read


def test_the_watcher_wakes_the_players_streams_when_the_count_changes(client_for, alice, bob,
                                                                       carol):
    uid = watched_game(client_for, alice, bob)
    record = PlayGame.objects.get(uid=uid)
    watcher = Watcher(autostart=False)
    loop = asyncio.new_event_loop()
    try:
        waiter = Waiter(game_id=record.pk, seat=0, version=record.version, loop=loop)
        watcher.add(waiter)
        watcher.tick()
        loop.run_until_complete(asyncio.sleep(0))
        assert waiter.watchers == 0 and not waiter.event.is_set()    # nobody yet: no wake-up
        client_for(carol).get(f"/api/play/{uid}/watch/")
        for _ in range(5):                     # the count is read once a second (5 ticks)
            watcher.tick()
        loop.run_until_complete(asyncio.sleep(0))
        assert waiter.watchers == 1 and waiter.event.is_set()
        assert waiter.version == record.version       # who watches is not a change of the game
    finally:
        loop.close()


def test_the_lobby_lists_the_games_that_may_be_watched(client_for, alice, bob, carol, dave,
                                                       client):
    uid = watched_game(client_for, alice, bob)
    hidden = watched_game(client_for, carol, dave, theirs=False)
    client_for(dave).get(f"/api/play/{uid}/watch/")
    listed = client_for(carol).get("/api/play/watchable/").json()["games"]
    assert [g["uid"] for g in listed] == [uid]
    [row] = listed
    assert row["players"] == ["alice", "bob"] and row["watchers"] == 1
    assert row["url"] == f"/play/{uid}/watch/" and row["turn"] >= 0 and row["format"]
    assert client_for(alice).get("/api/play/watchable/").json()["games"] == []   # her own
    client.force_login(carol)
    page = client.get("/play/").content.decode()
    assert f'href="/play/{uid}/watch/"' in page and "Watch alice vs bob" in page
    assert f"/play/{hidden}/watch/" not in page
    lists = client.get("/play/challenges/")
    digest = lists.content.decode().split("seen=")[1].split('"')[0]
    assert client.get(f"/play/challenges/?seen={digest}").status_code == 204
    client_for(alice).post(f"/api/play/{uid}/spectators/", {"allow": False}, format="json")
    changed = client.get(f"/play/challenges/?seen={digest}")
    assert changed.status_code == 200 and uid not in changed.content.decode()


def test_the_lobby_says_the_turn_without_a_replay(client_for, alice, bob, carol):
    from play.engine.adapter import game_at
    from tests.play.test_hand_positions import _choice

    uid = watched_game(client_for, alice, bob)
    players, mulligans = {0: client_for(alice), 1: client_for(bob)}, {}
    answers = []
    for _ in range(200):
        record = PlayGame.objects.get(uid=uid)
        game = game_at(record)
        if game.turn >= 3 or record.over:
            break
        state = players[int(game.to_move or 0)].get(f"/api/play/{uid}/").json()
        # No attacks: a game may end on turn 2 when a player has no minions left (R3.2).
        peaceful = {**state, "actions": [a for a in state["actions"]
                                         if a["action"]["kind"] != "attack"]}
        answer = players[state["seat"]].post(f"/api/play/{uid}/actions/", {
            "version": state["version"], "action": _choice(peaceful, mulligans)}, format="json")
        answers.append(answer.status_code)
    record = PlayGame.objects.get(uid=uid)
    assert record.turn == game_at(record).turn >= 3, (
        record.turn, game_at(record).turn, record.over, answers[-5:], len(answers))
    [row] = client_for(carol).get("/api/play/watchable/").json()["games"]
    assert row["turn"] == record.turn


def test_a_spectators_page_shows_the_board_and_no_control(client_for, alice, bob, carol,
                                                         client):
    uid = watched_game(client_for, alice, bob)
    client.force_login(carol)
    page = client.get(f"/play/{uid}/watch/").content.decode()
    assert "Watching alice vs bob" in page and "The game so far" in page
    assert "<form" not in page.split('id="watch-board"')[1]        # watching only
    assert f"/api/play/{uid}/watch/events/" in page


def test_the_schema_documents_the_spectators_endpoints(client):
    paths = client.get("/api/schema/?format=json").json()["paths"]
    for path in ("/api/play/{uid}/watch/", "/api/play/{uid}/watch/events/",
                 "/api/play/watchable/", "/api/play/{uid}/spectators/"):
        assert path in paths, path
    accept = client.get("/api/schema/?format=json").json()
    assert "spectators" in json.dumps(accept["components"]["schemas"]["AcceptInputRequest"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_loop_running")
def test_the_stream_tells_a_spectator_when_watching_stops(client_for, alice, bob, carol,
                                                          settings):
    settings.PLAY_STREAM_HOLD = 5
    uid = watched_game(client_for, alice, bob)

    async def follow() -> str:
        client = AsyncClient()
        await client.aforce_login(carol)
        response = await client.get(f"/api/play/{uid}/watch/events/")
        chunks = response.streaming_content.__aiter__()
        assert (await chunks.__anext__()).startswith(b"retry:")
        await sync_to_async(_stop, thread_sensitive=False)(uid, bob)
        text = b""
        while b"event: closed" not in text:
            text += await asyncio.wait_for(chunks.__anext__(), 5)
        await chunks.aclose()
        return text.decode()

    text = asyncio.run(follow())
    assert "There is no game" in text


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_loop_running")
def test_the_stream_of_a_game_not_watched_is_a_404_and_a_player_goes_to_theirs(
        client_for, alice, bob, carol, client):
    uid = watched_game(client_for, alice, bob, theirs=False)
    client.force_login(carol)
    refused = client.get(f"/api/play/{uid}/watch/events/")
    assert refused.status_code == 404 and "There is no game" in refused.json()["detail"]
    client.force_login(alice)
    sent = client.get(f"/api/play/{uid}/watch/events/?since=0")
    assert sent.status_code == 302 and sent["Location"] == f"/api/play/{uid}/events/?since=0"


def _stop(uid: str, user) -> None:
    from play.spectators.services import spectators_allow

    spectators_allow(record=PlayGame.objects.get(uid=uid), by=user, allow=False)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_loop_running")
def test_under_asgi_a_spectator_sees_a_move_live(client_for, alice, bob, carol):
    uid = watched_game(client_for, alice, bob)

    async def follow() -> list[dict]:
        client = AsyncClient()
        await client.aforce_login(carol)
        response = await client.get(f"/api/play/{uid}/watch/events/")
        chunks = response.streaming_content.__aiter__()
        assert (await chunks.__anext__()).startswith(b"retry:")
        await sync_to_async(_move, thread_sensitive=False)(uid, alice, bob)
        text = b""
        while b"event: state" not in text:
            text += await asyncio.wait_for(chunks.__anext__(), 5)
        await chunks.aclose()
        return [json.loads(line[6:]) for line in text.decode().splitlines()
                if line.startswith("data: ") and '"moves"' in line]

    [state] = asyncio.run(follow())
    assert [m["step"] for m in state["moves"]] == [1]
    assert all(isinstance(p["hand"], int) for p in state["view"]["players"])


def _move(uid: str, alice, bob) -> None:
    from play import services
    from play.engine.adapter import game_at

    record = PlayGame.objects.get(uid=uid)
    game = game_at(record)
    services.play_act(record=record, action=game.legal_actions()[0], version=record.version,
                      by=alice if game.to_move == 0 else bob)


def test_a_challenges_consent_is_kept_on_the_challenge(client_for, alice, bob):
    made = challenge(client_for(alice), spectators=True)
    assert Challenge.objects.get(uid=made["uid"]).spectators is True
    refused = client_for(alice).post("/api/play/challenges/",
                                     {"opponent": "bob", "deck": DAWN, "spectators": "yes"},
                                     format="json")
    assert refused.status_code == 400 and "spectators" in refused.json()


def test_the_challenge_says_whether_its_maker_lets_others_watch(client_for, alice, bob, client):
    made = challenge(client_for(alice), spectators=True)
    client.force_login(bob)
    page = client.get(made["url"]).content.decode()
    assert "alice lets anyone signed in watch" in page
    assert page.index('id="id_spectators"') < page.index('id="id_deck"')   # deck, then accept
