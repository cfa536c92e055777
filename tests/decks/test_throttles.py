"""Throttles that hold whichever door a client uses: failed log-ins count on the log-in page,
through HTTP basic auth on the API and on the admin's log-in; the import page and the import
API share one budget per user."""

from __future__ import annotations

import base64

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from decks.throttles import IMPORT_PER_CLIENT, LOGIN_FAILURES_PER_NAME, Limit
from tests.decks.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def basic(username: str, password: str) -> dict:
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def test_basic_auth_failures_are_counted_and_then_refused_with_429(alice, catalogue):
    api = APIClient()
    for _ in range(LOGIN_FAILURES_PER_NAME.count):
        assert api.get("/api/decks/", **basic("alice", "guess")).status_code in (401, 403)
    refused = api.get("/api/decks/", **basic("alice", PASSWORD))   # the right password too
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Too many failed log-ins for this name")
    assert int(refused["Retry-After"]) > 0


def test_a_name_blocked_on_the_page_cannot_log_in_through_basic_auth(client, alice, catalogue):
    for _ in range(LOGIN_FAILURES_PER_NAME.count):
        client.post(reverse("accounts:login"), {"username": "Alice ", "password": "guess"})
    assert APIClient().get("/api/decks/", **basic("alice", PASSWORD)).status_code == 429


def test_basic_auth_failures_block_the_log_in_page(client, alice):
    api = APIClient()
    for _ in range(LOGIN_FAILURES_PER_NAME.count):
        api.get("/api/decks/", **basic("alice", "guess"))
    response = client.post(reverse("accounts:login"), {"username": "alice",
                                                       "password": PASSWORD})
    assert response.status_code == 429 and "_auth_user_id" not in client.session


def test_the_admin_log_in_counts_failures_and_refuses_when_blocked(client, alice):
    alice.is_staff = alice.is_superuser = True
    alice.save()
    for _ in range(LOGIN_FAILURES_PER_NAME.count):
        response = client.post("/admin/login/", {"username": "alice", "password": "guess"})
        assert response.status_code == 200 and "_auth_user_id" not in client.session
    response = client.post("/admin/login/?next=/admin/", {"username": "alice",
                                                          "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert "Too many failed log-ins for this name" in response.content.decode()


def test_a_good_log_in_still_works_below_the_limit(alice):
    api = APIClient()
    api.get("/api/decks/", **basic("alice", "guess"))
    assert api.get("/api/decks/", **basic("alice", PASSWORD)).status_code == 200


def test_the_import_page_and_the_import_api_share_one_budget(client, alice, catalogue):
    client.force_login(alice)
    api = APIClient()
    api.force_authenticate(alice)
    half = IMPORT_PER_CLIENT.count // 2
    for _ in range(half):
        assert client.post(reverse("decks:import"), {"text": "1x Ember Pup"}).status_code == 302
    for _ in range(IMPORT_PER_CLIENT.count - half):
        assert api.post("/api/decks/import/", {"text": "1x Ember Pup"},
                        format="json").status_code == 200
    assert api.post("/api/decks/import/", {"text": "1x Ember Pup"},
                    format="json").status_code == 429
    assert client.post(reverse("decks:import"), {"text": "1x Ember Pup"}).status_code == 429


@pytest.mark.parametrize("rate, count, seconds", [("30/hour", 30, 3600), ("5/min", 5, 60),
                                                  ("20/600s", 20, 600), ("1/day", 1, 86400)])
def test_rates_read_like_drf_rates(rate, count, seconds):
    limit = Limit.from_rate("x", rate, "things")
    assert (limit.count, limit.seconds) == (count, seconds)


def test_a_nul_in_a_basic_auth_name_is_a_wrong_log_in_not_a_server_error(alice, catalogue):
    # PostgreSQL cannot look up a name holding NUL: the backend refuses it before asking.
    api = APIClient()
    response = api.get("/api/decks/", **basic("ali\x00ce", PASSWORD))
    assert response.status_code in (401, 403)
    for _ in range(LOGIN_FAILURES_PER_NAME.count - 1):
        api.get("/api/decks/", **basic("ali\x00ce", "guess"))
    assert api.get("/api/decks/", **basic("ali\x00ce", PASSWORD)).status_code == 429
