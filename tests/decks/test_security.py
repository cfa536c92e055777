"""Security of decks: another user's private deck is a 404 everywhere (pages and API), lists
show only your own and public decks, the owner cannot be set by the client, CSRF is enforced
for session writes, and log-in is throttled."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from decks.models import Deck
from tests.decks.conftest import LEGAL_CARDS, PASSWORD

pytestmark = pytest.mark.django_db

# (method, path template) — every page and API operation that names a deck.
PAGES = [
    ("get", "/decks/{uid}/"), ("get", "/decks/{uid}/edit/"), ("get", "/decks/{uid}/history/"),
    ("get", "/decks/{uid}/print/"), ("get", "/decks/{uid}/download/text/"),
    ("get", "/decks/{uid}/download/json/"), ("get", "/decks/{uid}/download/csv/"),
    ("get", "/decks/{uid}/download/code/"), ("post", "/decks/{uid}/fork/"),
    ("post", "/decks/{uid}/copy/"), ("post", "/decks/{uid}/history/1/restore/"),
    ("get", "/decks/{uid}/delete/"), ("post", "/decks/{uid}/delete/"),
    ("get", "/decks/build/{uid}/cards/"), ("post", "/decks/build/{uid}/card/"),
    ("post", "/decks/build/{uid}/hero/"), ("post", "/decks/build/{uid}/meta/"),
    ("post", "/decks/build/{uid}/clear/"), ("post", "/decks/build/{uid}/discard/"),
    ("post", "/decks/build/{uid}/save/"), ("get", "/decks/build/{uid}/hand/"),
    ("get", "/decks/build/{uid}/download/text/"), ("get", "/decks/compare/?a={uid}&b={uid}"),
]
API = [
    ("get", "/api/decks/{uid}/"), ("put", "/api/decks/{uid}/"), ("patch", "/api/decks/{uid}/"),
    ("delete", "/api/decks/{uid}/"), ("get", "/api/decks/{uid}/export/?format=text"),
    ("post", "/api/decks/{uid}/fork/"), ("get", "/api/decks/{uid}/versions/"),
    ("get", "/api/decks/{uid}/versions/1/"), ("post", "/api/decks/{uid}/versions/1/restore/"),
    ("get", "/api/decks/compare/?a={uid}&b={uid}"),
]


@pytest.fixture
def private_deck(alice, make_deck):
    return make_deck(alice, visibility="private")


def _call(client, method: str, path: str, **kw):
    data = {"code": "T-M01", "delta": 1, "name": "Mine now", "cards": {"T-M01": 1}}
    if method in ("get", "delete"):
        return getattr(client, method)(path)
    if isinstance(client, APIClient):
        return getattr(client, method)(path, data, format="json")
    return getattr(client, method)(path, data)


@pytest.mark.parametrize("method, path", PAGES)
def test_another_users_private_deck_is_404_on_every_page(client, bob, private_deck, method,
                                                         path):
    client.force_login(bob)
    response = _call(client, method, path.format(uid=private_deck.uid))
    assert response.status_code == 404
    assert Deck.objects.get(pk=private_deck.pk).name == "Ember Rush"


@pytest.mark.parametrize("method, path", API)
def test_another_users_private_deck_is_404_in_the_api(bob, private_deck, method, path):
    api = APIClient()
    api.force_authenticate(bob)
    response = _call(api, method, path.format(uid=private_deck.uid))
    assert response.status_code == 404
    assert Deck.objects.filter(owner=bob).count() == 0
    assert Deck.objects.get(pk=private_deck.pk).versions.count() == 1


@pytest.mark.parametrize("method, path", [(m, p) for m, p in PAGES + API if m == "get"])
def test_a_private_deck_is_404_for_anonymous_visitors_too(private_deck, method, path):
    assert Client().get(path.format(uid=private_deck.uid)).status_code == 404


@pytest.mark.parametrize("method, path", API[:4])
def test_the_owner_reaches_every_api_operation(alice, private_deck, method, path):
    api = APIClient()
    api.force_authenticate(alice)
    assert _call(api, method, path.format(uid=private_deck.uid)).status_code in (200, 204)


def test_a_visible_deck_of_someone_else_is_readable_but_not_writable(bob, make_deck, alice):
    deck = make_deck(alice, visibility="public")
    api = APIClient()
    api.force_authenticate(bob)
    assert api.get(f"/api/decks/{deck.uid}/").status_code == 200
    for method in ("put", "patch", "delete"):
        assert _call(api, method, f"/api/decks/{deck.uid}/").status_code == 403
    assert api.post(f"/api/decks/{deck.uid}/versions/1/restore/").status_code == 403
    client = Client()
    client.force_login(bob)
    assert client.get(f"/decks/{deck.uid}/edit/").status_code == 403
    assert client.post(f"/decks/{deck.uid}/delete/").status_code == 403
    assert Deck.objects.filter(pk=deck.pk).exists()


def test_unlisted_decks_open_by_link_but_are_never_listed(bob, make_deck, alice):
    deck = make_deck(alice, visibility="unlisted")
    api = APIClient()
    api.force_authenticate(bob)
    assert api.get(f"/api/decks/{deck.uid}/").status_code == 200
    assert api.get("/api/decks/").json()["count"] == 0
    assert Client().get(deck.get_absolute_url()).status_code == 200


def test_lists_show_only_own_and_public_decks(alice, bob, make_deck):
    make_deck(alice, name="a-private")
    make_deck(alice, visibility="unlisted", name="a-unlisted")
    make_deck(alice, visibility="public", name="a-public")
    make_deck(bob, name="b-private")
    api = APIClient()
    api.force_authenticate(bob)
    names = {d["name"] for d in api.get("/api/decks/").json()["results"]}
    assert names == {"a-public", "b-private"}
    assert {d["name"] for d in APIClient().get("/api/decks/").json()["results"]} == {"a-public"}


def test_the_owner_cannot_be_set_by_the_client(alice, bob, catalogue):
    api = APIClient()
    api.force_authenticate(bob)
    body = {"name": "x", "owner": alice.pk, "cards": LEGAL_CARDS}
    created = api.post("/api/decks/", body, format="json").json()
    assert created["owner"] == "bob"
    api.patch(f"/api/decks/{created['uid']}/", {"owner": "alice"}, format="json")
    assert Deck.objects.get(uid=created["uid"]).owner == bob
    assert api.post("/api/decks/", {**body, "uid": "chosen"}, format="json"
                    ).json()["uid"] != "chosen"


def test_anonymous_clients_cannot_write_through_the_api(private_deck):
    api = APIClient()
    # 401 with a challenge: the request lacks credentials (tests/accounts/test_api_challenge.py).
    assert api.post("/api/decks/", {"cards": {}}, format="json").status_code == 401
    assert api.delete(f"/api/decks/{private_deck.uid}/").status_code == 401


def test_csrf_is_enforced_for_session_writes(alice, catalogue):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    assert client.post("/api/decks/", {"name": "x"}, content_type="application/json"
                       ).status_code == 403
    assert client.post(reverse("decks:build-card", args=["new"]),
                       {"code": "T-M01"}).status_code == 403
    assert client.post(reverse("decks:import"), {"text": "1x Ember Pup"}).status_code == 403
    page = client.get(reverse("decks:build"))
    token = page.cookies["csrftoken"].value
    created = client.post("/api/decks/", {"name": "x", "cards": {"T-M01": 1}},
                          content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert created.status_code == 201
    assert client.post(reverse("decks:build-card", args=["new"]), {"code": "T-M01"},
                       HTTP_X_CSRFTOKEN=token).status_code == 302


def test_log_in_is_csrf_protected(alice):
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("accounts:login"), {"username": "alice",
                                                       "password": PASSWORD})
    assert response.status_code == 403


def test_failed_log_ins_are_throttled_per_name(client, alice):
    for _ in range(5):
        response = client.post(reverse("accounts:login"), {"username": "alice",
                                                           "password": "wrong"})
        assert response.status_code == 400
    response = client.post(reverse("accounts:login"), {"username": "alice",
                                                       "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many failed log-ins for this name" in response.content.decode()


def test_log_in_attempts_are_throttled_per_address(client, alice):
    for i in range(20):
        client.post(reverse("accounts:login"), {"username": f"nobody{i}", "password": "x"})
    response = client.post(reverse("accounts:login"), {"username": "alice",
                                                       "password": PASSWORD})
    assert response.status_code == 429 and "Too many log-in attempts" in (
        response.content.decode())
