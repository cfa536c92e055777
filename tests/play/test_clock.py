"""The turn clock of a game between two people, kept by the server: it starts when both are
here, a period whose time ran out is ended for its player, a player to move gone too long loses
by timeout, an action past the free time spends the reserve — enforced on any read and by the
watcher with nobody reading."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

from play.clock import END_CHOICES, clock_enforce
from play.engine_adapter import game_at
from play.models import PlayGame
from play.watch import Waiter, Watcher
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
        watcher.tick()
        record = PlayGame.objects.get(pk=game.pk)
        assert record.to_move == 1                      # the clock ended P1's period
        watcher.tick()
        loop.run_until_complete(asyncio.sleep(0))
        assert waiter.event.is_set() and waiter.version == record.version
        assert watcher.reads == 3
    finally:
        loop.close()


def test_clock_enforce_leaves_a_game_against_the_ai_alone(start, alice):
    record = PlayGame.objects.get(uid=start(alice)["uid"])
    assert clock_enforce(record) is record and record.clock == {}
    assert game_at(record).to_move == 0
