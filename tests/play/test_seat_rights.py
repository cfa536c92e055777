"""What a player may do for a seat: concede only its own against an agent; a share ends with a
restart."""

from __future__ import annotations

import pytest

from play.models import PlayGame

pytestmark = pytest.mark.django_db


def test_a_player_cannot_concede_for_the_ai(alice, client_for, start):
    state = start(alice)
    client = client_for(alice)
    response = client.post(f"/api/play/{state['uid']}/concede/",
                           {"version": state["version"], "seat": 1}, format="json")
    assert response.status_code == 403
    assert "greedy" in response.json()["detail"]
    assert PlayGame.objects.get(uid=state["uid"]).status == "playing"
    own = client.post(f"/api/play/{state['uid']}/concede/",
                      {"version": state["version"]}, format="json")
    assert own.status_code == 200 and own.json()["result"]["winner"] == 1


def test_the_page_cannot_concede_for_the_ai_either(alice, client, start):
    state = start(alice)
    client.force_login(alice)
    response = client.post(f"/play/{state['uid']}/concede/",
                           {"version": state["version"], "seat": "1"})
    assert response.status_code == 403
    assert PlayGame.objects.get(uid=state["uid"]).status == "playing"


def test_a_hot_seat_game_may_be_conceded_by_either_seat(alice, client_for, start):
    state = start(alice, opponent="human")
    response = client_for(alice).post(f"/api/play/{state['uid']}/concede/",
                                      {"version": state["version"], "seat": 1}, format="json")
    assert response.status_code == 200 and response.json()["result"]["winner"] == 0


def test_a_restarted_game_is_private_until_shared_again(alice, bob, client_for, start):
    state = start(alice)
    client = client_for(alice)
    done = client.post(f"/api/play/{state['uid']}/concede/", {"version": state["version"]},
                       format="json").json()
    shared = client.post(f"/api/play/{state['uid']}/share/", {"shared": True}, format="json")
    assert shared.json()["shared"] is True
    restarted = client.post(f"/api/play/{state['uid']}/restart/", {"version": done["version"]},
                            format="json").json()
    client.post(f"/api/play/{state['uid']}/concede/", {"version": restarted["version"]},
                format="json")
    record = PlayGame.objects.get(uid=state["uid"])
    assert record.over and not record.is_shared
    assert client_for(bob).get(f"/play/{state['uid']}/replay/").status_code == 404
