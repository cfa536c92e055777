"""Every write of play names its fields exactly: a field it does not take is a 400 naming it,
never ignored (a misspelt opponent made an open link anyone could accept). The live stream is
read with GET only. The log reads as a sentence when the card is one the reader cannot see."""

from __future__ import annotations

import pytest
from django.utils import translation

from play.models import Challenge, ChallengeStatus, PlayGame
from simulations.replays.text import Describer
from tests.play.conftest import DAWN, DUSK
from tests.play.test_friends import challenge, game_between

pytestmark = pytest.mark.django_db


def test_a_misspelt_opponent_is_a_400_not_an_open_link(client_for, alice, bob):
    refused = client_for(alice).post("/api/play/challenges/",
                                     {"oponent": "bob", "deck": DAWN}, format="json")
    assert refused.status_code == 400
    assert "oponent" in refused.json() and "opponent" in refused.json()["oponent"][0]
    assert not Challenge.objects.exists()


def test_a_seat_is_not_a_field_of_a_challenge_nor_of_accepting_it(client_for, alice, bob):
    refused = client_for(alice).post("/api/play/challenges/",
                                     {"opponent": "bob", "deck": DAWN, "seat": 1}, format="json")
    assert refused.status_code == 400 and list(refused.json()) == ["seat"]
    made = challenge(client_for(alice))
    accept = client_for(bob).post(f"/api/play/challenges/{made['uid']}/accept/",
                                  {"deck": DUSK, "seat": 0}, format="json")
    assert accept.status_code == 400 and list(accept.json()) == ["seat"]
    assert Challenge.objects.get(uid=made["uid"]).status == ChallengeStatus.PENDING
    assert not PlayGame.objects.exists()


def test_an_unknown_field_is_named_even_beside_other_mistakes(client_for, alice, bob):
    refused = client_for(alice).post("/api/play/challenges/", {"colour": "red"}, format="json")
    assert refused.status_code == 400 and set(refused.json()) == {"colour", "deck"}


def test_declining_and_a_rematch_take_no_field(client_for, alice, bob):
    made = challenge(client_for(alice))
    declined = client_for(bob).post(f"/api/play/challenges/{made['uid']}/decline/",
                                    {"reason": "busy"}, format="json")
    assert declined.status_code == 400 and "reason" in declined.json()
    assert Challenge.objects.get(uid=made["uid"]).status == ChallengeStatus.PENDING
    state = game_between(client_for, alice, bob)
    client_for(alice).post(f"/api/play/{state['uid']}/concede/",
                           {"version": PlayGame.objects.get(uid=state["uid"]).version},
                           format="json")
    rematch = client_for(bob).post(f"/api/play/{state['uid']}/rematch/", {"swap": False},
                                   format="json")
    assert rematch.status_code == 400 and "swap" in rematch.json()
    assert client_for(bob).post(f"/api/play/{state['uid']}/rematch/").status_code == 201


def test_starting_acting_undoing_and_sharing_refuse_unknown_fields(client_for, alice, start):
    client = client_for(alice)
    started = client.post("/api/play/", {"deck": DAWN, "opponent_deck": DUSK, "oponent": "random"},
                          format="json")
    assert started.status_code == 400 and "oponent" in started.json()
    state = start(alice)
    uid, version = state["uid"], state["version"]
    action = state["actions"][0]["action"]
    for route, body in (("actions", {"version": version, "action": action, "seat": 0,
                                     "note": "x"}),
                        ("undo", {"version": version, "step": 3}),
                        ("concede", {"version": version, "force": True}),
                        ("share", {"shared": True, "public": True})):
        refused = client.post(f"/api/play/{uid}/{route}/", body, format="json")
        assert refused.status_code == 400, (route, refused.json())
        assert set(refused.json()) & {"note", "step", "force", "public"}, refused.json()
    assert PlayGame.objects.get(uid=uid).version == version


def test_the_stream_answers_only_get(client_for, alice, bob, client):
    uid = game_between(client_for, alice, bob)["uid"]
    client.force_login(bob)
    refused = client.post(f"/api/play/{uid}/events/")
    assert refused.status_code == 405 and refused["Allow"] == "GET"
    assert client.put(f"/api/play/{uid}/events/").status_code == 405


def test_a_minion_the_reader_never_saw_returns_to_the_hand_in_words():
    """Rule: R4.1 — the card of a face-down minion is not named to the other player."""
    describe = Describer({}, {"players": []})
    returned = {"t": "returned", "player": 1, "slot": 2, "card": None}
    assert describe(returned) == "A face-down minion of P2 returns to the hand."
    with translation.override("zh-hans"):
        assert describe(returned) == "P2 的一个背面朝上的随从回到手牌。"
    assert describe({"t": "regenerate", "player": 0, "slot": 1, "card": None}) == (
        "A face-down minion of P1 regenerates.")
