"""Every throttle tells the truth: a client refused with ``Retry-After: n`` that waits exactly n
seconds gets through — on the database cache and on Redis.

Each throttle is given a window of two seconds (``THROTTLE_RATES``, or
``SIMULATIONS_SUBMIT_RATE`` for submissions), used up, then waited out for exactly the time it
named. The sleep is the behaviour under test (a client obeying ``Retry-After``), not a guess at
how long something takes: a slower machine only waits longer before asking again. Before the
fix the database cache kept a counter for its default 300 s and both caches rounded the wait
down, so the client was refused again.
"""

from __future__ import annotations

import base64
import shutil
import socket
import subprocess
import time

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.auth import LOGIN_NAME_MAX_DELAY
from tests.decks.conftest import PASSWORD

pytestmark = pytest.mark.django_db
REDIS_SERVER = shutil.which("redis-server")
WINDOW = "1/2s"
NEW_PASSWORD = "another-Long-passphrase-77"


@pytest.fixture(scope="module")
def redis_url():
    """A Redis server of this module's own (nothing else's keys to touch)."""
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1",
                               "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(params=["database", "redis"])
def shared_cache(request, settings):
    """The cache the site is configured with: its database table, or Redis."""
    if request.param == "redis":
        settings.CACHES = {"default": {"BACKEND": "config.cache.SharedRedisCache",
                                       "LOCATION": request.getfixturevalue("redis_url"),
                                       "KEY_PREFIX": "cardlab-cache"}}
    cache.clear()
    yield request.param
    cache.clear()


def basic(username: str, password: str) -> dict:
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"HTTP_AUTHORIZATION": f"Basic {token}"}


def obeyed(refusal, again):
    """Wait exactly what the refusal says, then ask again: the answer to that."""
    assert refusal.status_code == 429, refusal.status_code
    wait = int(refusal["Retry-After"])
    assert 1 <= wait <= 3, wait
    time.sleep(wait)
    return again()


@pytest.mark.parametrize("door", ["page", "api"])
def test_imports(shared_cache, settings, client, catalogue, door):
    settings.THROTTLE_RATES = {"import": WINDOW}
    if door == "page":
        def once():
            return client.post(reverse("decks:import"), {"text": "1x Ember Pup"})
        ok = 302
    else:
        def once():
            return APIClient().post("/api/decks/import/", {"text": "1x Ember Pup"},
                                    format="json")
        ok = 200
    assert once().status_code == ok
    assert obeyed(once(), once).status_code == ok


def test_simulation_submissions(shared_cache, settings, alice, catalogue):
    settings.SIMULATIONS_SUBMIT_RATE = WINDOW
    api = APIClient()
    api.force_authenticate(alice)

    def once():   # refused for its body (400) once the throttle lets it through
        return api.post("/api/simulations/", {"decks": []}, format="json")

    assert once().status_code == 400
    assert obeyed(once(), once).status_code == 400


def test_sign_ups(shared_cache, settings, client):
    settings.THROTTLE_RATES = {"signup-ip": WINDOW}

    def once():
        return client.post(reverse("accounts:signup"), {"username": "erin"})

    assert once().status_code == 400
    assert obeyed(once(), once).status_code == 400


def test_log_in_attempts_per_address(shared_cache, settings, client, alice):
    settings.THROTTLE_RATES = {"login-ip": WINDOW}
    assert client.post(reverse("accounts:login"),
                       {"username": "alice", "password": "guess"}).status_code == 400
    refusal = client.post(reverse("accounts:login"),
                          {"username": "alice", "password": PASSWORD})
    answer = obeyed(refusal, lambda: client.post(reverse("accounts:login"),
                                                 {"username": "alice", "password": PASSWORD}))
    assert answer.status_code == 302


@pytest.mark.parametrize("scope", ["login-pair", "login-fail-ip"])
def test_failed_log_ins(shared_cache, settings, alice, scope):
    settings.THROTTLE_RATES = {scope: WINDOW}
    api = APIClient()
    assert api.get("/api/decks/", **basic("alice", "guess")).status_code == 401
    refusal = api.get("/api/decks/", **basic("alice", PASSWORD))
    answer = obeyed(refusal, lambda: api.get("/api/decks/", **basic("alice", PASSWORD)))
    assert answer.status_code == 200


def test_a_name_slowed_down_by_failures_from_many_addresses(shared_cache, settings, alice):
    # One free failure an hour; then each failure makes the name wait 1 s, 2 s, …
    settings.THROTTLE_RATES = {"login-name": "1/hour"}
    api = APIClient()
    for n in range(3):   # three addresses, each waiting its turn as told
        def guess(address=f"10.0.0.{n + 1}"):
            return api.get("/api/decks/", **basic("alice", "guess"), REMOTE_ADDR=address)
        answer = guess()
        if answer.status_code == 429:
            answer = obeyed(answer, guess)
        assert answer.status_code == 401
    owner = {"REMOTE_ADDR": "192.0.2.7", **basic("alice", PASSWORD)}
    refusal = api.get("/api/decks/", **owner)
    assert int(refusal["Retry-After"]) <= LOGIN_NAME_MAX_DELAY
    assert obeyed(refusal, lambda: api.get("/api/decks/", **owner)).status_code == 200


def test_password_reset_requests(shared_cache, settings, client):
    settings.THROTTLE_RATES = {"reset-ip": WINDOW}

    def once():
        return client.post(reverse("accounts:password_reset"), {"email": "x@example.com"})

    assert once().status_code == 302
    assert obeyed(once(), once).status_code == 302


@pytest.mark.parametrize("scope", ["password-change-user", "password-change-ip"])
def test_wrong_current_passwords(shared_cache, settings, client, alice, scope):
    settings.THROTTLE_RATES = {scope: WINDOW}
    client.force_login(alice)

    def change(old: str):
        return client.post(reverse("accounts:password_change"), {
            "old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})

    assert change("wrong").status_code == 400
    assert obeyed(change(PASSWORD), lambda: change(PASSWORD)).status_code == 302


def _seconds_left(key: str) -> float:
    """How long the cache will keep ``key``, read from the backend itself."""
    full = cache.make_key(key)
    if hasattr(cache, "_table"):
        from datetime import UTC

        from django.db import connection
        from django.utils import timezone

        with connection.cursor() as cursor:
            cursor.execute(f"SELECT expires FROM {cache._table} WHERE cache_key = %s", [full])
            (expires,) = cursor.fetchone()
        if timezone.is_naive(expires):
            expires = timezone.make_aware(expires, UTC)
        return (expires - timezone.now()).total_seconds()
    return cache._cache.get_client(full).pttl(full) / 1000


def test_counting_keeps_a_counters_expiry(shared_cache):
    """The root of the lies: incrementing a counter must not push its expiry back (Django's
    database cache reset it to its default 300 s on every increment)."""
    assert cache.add("counter", 1, 20)
    for _ in range(5):
        cache.incr("counter")
    assert cache.get("counter") == 6
    assert 18 <= _seconds_left("counter") <= 21


def test_counting_a_missing_counter_creates_nothing(shared_cache):
    with pytest.raises(ValueError):
        cache.incr("gone")
    assert cache.get("gone") is None
