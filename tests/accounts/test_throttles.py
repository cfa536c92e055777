"""Throttles that hold whichever door a client uses: failed log-ins count on the log-in page,
through HTTP basic auth on the API and on the admin's log-in; the import page and the import
API share one budget per user. Failed log-ins lock a name at the address that failed, and only
slow it down elsewhere: nobody can lock an owner out of their account."""

from __future__ import annotations

import base64

import pytest
from django.test import RequestFactory
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.auth import LOGIN_NAME_MAX_DELAY, NAME_SLOWED, login_failed
from accounts.throttles import (
    LOGIN_FAILURES_PER_IP,
    LOGIN_FAILURES_PER_NAME,
    LOGIN_FAILURES_PER_PAIR,
)
from common.throttles import IMPORT_PER_CLIENT, Limit
from tests.decks.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def basic(username: str, password: str) -> dict:
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def test_basic_auth_failures_are_counted_and_then_refused_with_429(alice, catalogue):
    api = APIClient()
    for _ in range(LOGIN_FAILURES_PER_PAIR.count):
        assert api.get("/api/decks/", **basic("alice", "guess")).status_code in (401, 403)
    refused = api.get("/api/decks/", **basic("alice", PASSWORD))   # the right password too
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Too many failed log-ins for this name")
    assert int(refused["Retry-After"]) > 0


def test_a_name_blocked_on_the_page_cannot_log_in_through_basic_auth(client, alice, catalogue):
    for _ in range(LOGIN_FAILURES_PER_PAIR.count):
        client.post(reverse("accounts:login"), {"username": "Alice ", "password": "guess"})
    assert APIClient().get("/api/decks/", **basic("alice", PASSWORD)).status_code == 429


def test_basic_auth_failures_block_the_log_in_page(client, alice):
    api = APIClient()
    for _ in range(LOGIN_FAILURES_PER_PAIR.count):
        api.get("/api/decks/", **basic("alice", "guess"))
    response = client.post(reverse("accounts:login"), {"username": "alice",
                                                       "password": PASSWORD})
    assert response.status_code == 429 and "_auth_user_id" not in client.session


def test_the_admin_log_in_counts_failures_and_refuses_when_blocked(client, alice):
    alice.is_staff = alice.is_superuser = True
    alice.save()
    for _ in range(LOGIN_FAILURES_PER_PAIR.count):
        response = client.post("/admin/login/", {"username": "alice", "password": "guess"})
        assert response.status_code == 200 and "_auth_user_id" not in client.session
    response = client.post("/admin/login/?next=/admin/", {"username": "alice",
                                                          "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert "Too many failed log-ins for this name" in response.content.decode()
    # Refused as every other door refuses: 429, and how long to wait.
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= LOGIN_FAILURES_PER_PAIR.seconds + 1


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
    for _ in range(LOGIN_FAILURES_PER_PAIR.count - 1):
        api.get("/api/decks/", **basic("ali\x00ce", "guess"))
    assert api.get("/api/decks/", **basic("ali\x00ce", PASSWORD)).status_code == 429


def test_wrong_basic_auth_credentials_are_a_401_with_the_challenge(alice):
    response = APIClient().get("/api/decks/", **basic("alice", "guess"))
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Basic realm="api"'


def test_a_browser_without_credentials_is_not_asked_for_a_password(catalogue):
    # A browser with the site's cookies is told where to log in, not challenged with Basic
    # (which would open its password dialog).
    browser = APIClient()
    browser.cookies["sessionid"] = "expired"
    response = browser.post("/api/decks/", {}, format="json")
    assert response.status_code == 401 and "Basic" not in response["WWW-Authenticate"]


def test_an_attacker_failing_at_one_address_does_not_lock_the_owner_out(client, alice):
    attacker, owner = {"REMOTE_ADDR": "203.0.113.9"}, {"REMOTE_ADDR": "198.51.100.4"}
    api = APIClient()
    for _ in range(LOGIN_FAILURES_PER_NAME.count + LOGIN_FAILURES_PER_PAIR.count):
        api.get("/api/decks/", **basic("alice", "guess"), **attacker)
        client.post(reverse("accounts:login"), {"username": "alice", "password": "guess"},
                    **attacker)
    # The attacker's address is locked for alice, the right password included …
    assert api.get("/api/decks/", **basic("alice", PASSWORD), **attacker).status_code == 429
    refused = client.post(reverse("accounts:login"), {"username": "alice",
                                                      "password": PASSWORD}, **attacker)
    assert refused.status_code == 429 and "_auth_user_id" not in client.session
    # … and alice, from her own address, logs in at once, on the API and on the page.
    assert api.get("/api/decks/", **basic("alice", PASSWORD), **owner).status_code == 200
    page = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD},
                       **owner)
    assert page.status_code == 302 and "_auth_user_id" in client.session


def test_failures_from_many_addresses_slow_the_name_down_but_never_lock_it(alice):
    """However many addresses fail for alice, a fresh one waits at most a minute, and is told
    so; the name is never shut for the ten minutes an address is."""
    factory = RequestFactory()
    for n in range(200):   # counted as the backend counts them, without the password hashing
        login_failed(factory.get("/", REMOTE_ADDR=f"10.{n // 250}.{n % 250}.1"), "alice")
    response = APIClient().get("/api/decks/", **basic("alice", PASSWORD),
                               REMOTE_ADDR="192.0.2.1")
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= LOGIN_NAME_MAX_DELAY
    wait = int(response["Retry-After"])
    assert response.json()["detail"].startswith(NAME_SLOWED.format(wait=wait))


def test_an_address_trying_many_names_is_locked(alice):
    api = APIClient()
    for n in range(LOGIN_FAILURES_PER_IP.count):
        assert api.get("/api/decks/", **basic(f"user{n}", "guess")).status_code == 401
    assert api.get("/api/decks/", **basic("alice", PASSWORD)).status_code == 429
    other = {"REMOTE_ADDR": "198.51.100.4"}
    assert api.get("/api/decks/", **basic("alice", PASSWORD), **other).status_code == 200
