"""The turn clock of a game between two people, kept by the server: it starts when both are
here, a period whose time ran out is ended for its player, a player to move gone too long loses
by timeout, an action past the free time spends the reserve — enforced on any read and by the
watcher with nobody reading."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

from play.clock.enforce import END_CHOICES, clock_enforce
from play.engine.adapter import game_at
from play.models import PlayGame
from play.streams.watch import CLOCK_EVERY, Waiter, Watcher
from tests.play.test_friends import game_between

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(client_for, alice, bob, settings):
    settings.PLAY_CLOCK = {"turn": 30, "reserve": 60, "away": 45}
    uid = game_between(client_for, alice, bob)["uid"]
    client_for(alice).get(f"/api/play/{uid}/")
    client_for(bob).get(f"/api/play/{uid}/")
    return PlayGame.objects.get(uid=uid)


def test_the_clock_starts_when_both_players_are_here(client_for, alice, bob):
    uid = game_between(client_for, alice, bob)["uid"]
    state = client_for(alice).get(f"/api/play/{uid}/").json()
    assert state["clock"]["started"] is False          # bob has not opened it yet
    state = client_for(bob).get(f"/api/play/{uid}/").json()
    assert state["clock"]["started"] and state["clock"]["to_move"] == 0
    record = PlayGame.objects.get(uid=uid)
    assert record.deadline == record.turn_began + timedelta(seconds=90 + 300)


def test_a_period_whose_time_ran_out_is_ended_by_the_server(game, client_for, bob):
    PlayGame.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    before = len(game.actions)
    state = client_for(bob).get(f"/api/play/{game.uid}/").json()   # any read enforces it
    record = PlayGame.objects.get(pk=game.pk)
    assert len(record.actions) > before and record.to_move == 1
    assert all(a["kind"] in END_CHOICES or a["kind"] == "mulligan"
               for a in record.actions[before:])
    assert record.reserve[0] == 0.0 and state["clock"]["to_move"] == 1
    assert state["actions"], "now bob decides"


def test_a_player_to_move_gone_too_long_loses_by_timeout(game, client_for, bob, client):
    PlayGame.objects.filter(pk=game.pk).update(
        seen_p1=timezone.now() - timedelta(seconds=46))
    state = client_for(bob).get(f"/api/play/{game.uid}/").json()
    assert state["status"] == "finished"
    assert state["result"] == {"winner": 1, "reason": "timeout", "turns": state["result"][
        "turns"], "loser": 0}
    client.force_login(bob)
    page = client.get(f"/play/{game.uid}/").content.decode()
    assert "P1 lost by timeout" in page


def test_an_action_past_the_free_time_spends_the_reserve(game, client_for, alice):
    PlayGame.objects.filter(pk=game.pk).update(
        turn_began=timezone.now() - timedelta(seconds=40))
    record = PlayGame.objects.get(pk=game.pk)
    while record.to_move == 0:
        state = client_for(alice).get(f"/api/play/{game.uid}/").json()
        kinds = {a["action"]["kind"]: a["action"] for a in state["actions"]}
        action = next((kinds[k] for k in END_CHOICES if k in kinds),
                      state["actions"][0]["action"])
        client_for(alice).post(f"/api/play/{game.uid}/actions/",
                               {"version": state["version"], "action": action}, format="json")
        record = PlayGame.objects.get(pk=game.pk)
    assert 49 <= record.reserve[0] <= 50.5              # 60 less the 10 s past the free 30
    assert record.reserve[1] == 60


def test_the_watcher_wakes_waiting_streams_and_keeps_the_clock_with_nobody_reading(
        game, client_for):
    watcher = Watcher(autostart=False)
    loop = asyncio.new_event_loop()
    try:
        waiter = Waiter(game_id=game.pk, seat=1, version=game.version, loop=loop)
        watcher.add(waiter)
        watcher.tick()
        loop.run_until_complete(asyncio.sleep(0))
        assert not waiter.event.is_set()                # nothing changed: no wake-up
        PlayGame.objects.filter(pk=game.pk).update(
            deadline=timezone.now() - timedelta(seconds=1))
        for _ in range(CLOCK_EVERY):                    # the clocks: read once a second
            watcher.tick()
        record = PlayGame.objects.get(pk=game.pk)
        assert record.to_move == 1                      # the clock ended P1's period
        watcher.tick()
        loop.run_until_complete(asyncio.sleep(0))
        assert waiter.event.is_set() and waiter.version == record.version
        assert watcher.reads == CLOCK_EVERY + 2
    finally:
        loop.close()


def test_clock_enforce_leaves_a_game_against_the_ai_alone(start, alice):
    record = PlayGame.objects.get(uid=start(alice)["uid"])
    assert clock_enforce(record) is record and record.clock == {}
    assert game_at(record).to_move == 0


def test_a_game_one_player_never_opens_is_called_off_and_counts_for_neither(
        client_for, alice, bob, settings, client):
    """Clock rule: a game one player has still not opened ``away`` seconds after it was made
    ends with no winner — the player who came is not left to concede, and the record of
    neither changes."""
    settings.PLAY_CLOCK = {"turn": 30, "reserve": 60, "away": 45}
    uid = game_between(client_for, alice, bob)["uid"]
    client.force_login(bob)
    waiting = client.get(f"/play/{uid}/").content.decode()
    assert "If they have not come 45 seconds after the game began, it is called off." in waiting
    PlayGame.objects.filter(uid=uid).update(created_at=timezone.now() - timedelta(seconds=44))
    assert client_for(bob).get(f"/api/play/{uid}/").json()["status"] == "playing"
    PlayGame.objects.filter(uid=uid).update(created_at=timezone.now() - timedelta(seconds=46))
    state = client_for(bob).get(f"/api/play/{uid}/").json()
    seat_alice = PlayGame.objects.get(uid=uid).seat_of(alice)
    assert state["status"] == "finished"
    assert state["result"] == {"winner": None, "reason": "no_show", "turns": 0,
                               "absent": [seat_alice]}
    board = client.get(f"/play/{uid}/").content.decode()
    assert "Called off: a player did not open the game in time." in board
    from play.friends.records import player_record

    for user in (alice, bob):
        record = player_record(user)
        assert record.people.played == 0 and record.recent == []


def test_a_game_both_players_opened_in_time_is_not_called_off(game, client_for, bob):
    PlayGame.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(hours=1))
    state = client_for(bob).get(f"/api/play/{game.uid}/").json()
    assert state["status"] == "playing" and state["clock"]["started"]


def test_the_watcher_calls_off_a_game_its_waiting_player_was_never_joined_in(
        client_for, alice, bob, settings):
    settings.PLAY_CLOCK = {"turn": 30, "reserve": 60, "away": 45}
    uid = game_between(client_for, alice, bob)["uid"]
    client_for(bob).get(f"/api/play/{uid}/")              # bob waits; alice never comes
    game = PlayGame.objects.get(uid=uid)
    PlayGame.objects.filter(pk=game.pk).update(created_at=timezone.now() - timedelta(seconds=46))
    watcher = Watcher(autostart=False)
    loop = asyncio.new_event_loop()
    try:
        watcher.add(Waiter(game_id=game.pk, seat=1, version=game.version, loop=loop))
        watcher.tick()                                     # a full read: the clocks too
        record = PlayGame.objects.get(pk=game.pk)
        assert record.status == "finished" and record.result["reason"] == "no_show"
    finally:
        loop.close()


def test_a_game_left_past_its_time_no_longer_counts_against_the_limit(
        game, client_for, alice, bob, settings):
    """With one game between people allowed at once, alice's next challenge is refused while
    her game is in progress; once she has been gone longer than the clock allows in it (nobody
    has opened it since), the game is lost by timeout and her challenge goes through."""
    from tests.play.test_friends import challenge

    settings.PLAY_MAX_FRIEND_GAMES = 1
    refused = client_for(alice).post("/api/play/challenges/", {
        "opponent": "bob", "deck": "starter:Dawn Test"}, format="json")
    assert refused.status_code == 400 and "(1)" in refused.json()["detail"][0]
    PlayGame.objects.filter(pk=game.pk).update(
        seen_p1=timezone.now() - timedelta(seconds=46))
    challenge(client_for(alice))
    assert PlayGame.objects.get(pk=game.pk).result["reason"] == "timeout"
