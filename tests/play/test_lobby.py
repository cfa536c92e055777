"""The lobby on /play/: open challenges of other players anyone may accept — format, who, how
long they have waited, who moves first, never the challenger's deck — so two strangers can find
a game; live, as the page polls its challenge lists."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from play.models import Challenge
from tests.play.conftest import DUSK
from tests.play.test_friends import carol, challenge  # noqa: F401

pytestmark = pytest.mark.django_db


def _lists(client, user, seen: str = "") -> tuple[int, str]:
    client.force_login(user)
    response = client.get("/play/challenges/", {"seen": seen} if seen else {})
    return response.status_code, response.content.decode()


def test_an_open_challenge_is_in_every_other_players_lobby_its_deck_hidden(
        client_for, alice, bob, client):
    made = challenge(client_for(alice), opponent="", first="me")
    Challenge.objects.filter(uid=made["uid"]).update(
        created_at=timezone.now() - timedelta(minutes=5))
    client.force_login(bob)
    page = client.get("/play/").content.decode()
    listed = re.search(r'data-testid="open-challenges">(.*?)</ul>', page, re.S)
    assert listed, page
    row = listed.group(1)
    assert made["url"] in row and "alice's open challenge" in row
    assert "waiting for 5\xa0minutes" in row and "alice moves first" in row
    assert "Dawn Test" not in row and "Dawn Test" not in _lists(client, bob)[1]
    api = client_for(bob).get("/api/play/challenges/").json()
    assert [c["uid"] for c in api["open"]] == [made["uid"]]
    assert "deck" not in api["open"][0] and api["open"][0]["created_at"]


def test_your_own_link_and_challenges_named_to_others_are_not_in_your_lobby(
        client_for, alice, bob, carol, client):  # noqa: F811
    own = challenge(client_for(alice), opponent="")
    challenge(client_for(carol), opponent="alice")
    api = client_for(alice).get("/api/play/challenges/").json()
    assert api["open"] == [] and [c["uid"] for c in api["outgoing"]] == [own["uid"]]
    assert [c["uid"] for c in client_for(bob).get("/api/play/challenges/").json()["open"]] == [
        own["uid"]]                      # carol's challenge to alice is theirs alone


def test_the_lobby_follows_without_a_reload_and_drops_an_accepted_challenge(
        client_for, alice, bob, carol, client):  # noqa: F811
    status, html = _lists(client, bob)
    assert status == 200 and 'data-testid="no-open-challenges"' in html
    seen = re.search(r"seen=(\w+)", html).group(1)
    assert _lists(client, bob, seen)[0] == 204                    # nothing new: nothing swapped
    made = challenge(client_for(alice), opponent="")
    status, html = _lists(client, bob, seen)
    assert status == 200 and made["url"] in html
    accepted = client_for(carol).post(f"/api/play/challenges/{made['uid']}/accept/",
                                      {"deck": DUSK}, format="json")
    assert accepted.status_code == 201
    assert made["url"] not in _lists(client, bob)[1]
