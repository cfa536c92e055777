"""Throttles hold across server processes: two gunicorn servers on one database share the cache
(the database cache table here; Redis when one is configured), so failed log-ins and imports
count once, whichever process answers."""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from accounts.throttles import LOGIN_FAILURES_PER_PAIR
from common.throttles import IMPORT_PER_CLIENT

REPO_ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PASSWORD = "two-Servers-one-budget-9"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _env(var_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"))}
    env.update(CARDLAB_VAR_DIR=str(var_dir), DJANGO_DEBUG="1", PYTHONUNBUFFERED="1")
    return env


def _manage(env, *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=REPO_ROOT, env=env, check=True,
                   capture_output=True, timeout=300)


def _request(port: int, path: str, *, body: dict | None = None, auth: tuple[str, str] | None
             = None) -> int:
    headers = {"Content-Type": "application/json"}
    if auth:
        headers["Authorization"] = "Basic " + base64.b64encode(":".join(auth).encode()).decode()
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory):
    var_dir = tmp_path_factory.mktemp("two-servers")
    env = _env(var_dir)
    _manage(env, "migrate", "--noinput", "-v", "0")
    _manage(env, "createcachetable")
    _manage(env, "load_cards")
    _manage(env, "shell", "-c", "from django.contrib.auth import get_user_model; "
            f"get_user_model().objects.create_user('alice', password='{PASSWORD}')")
    ports = [_free_port(), _free_port()]
    servers = [subprocess.Popen([str(BIN / "gunicorn"), "config.wsgi", "--bind",
                                 f"127.0.0.1:{port}", "--workers", "1"], cwd=REPO_ROOT, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
               for port in ports]
    try:
        for port in ports:
            for _ in range(150):
                try:
                    if _request(port, "/api/decks/formats/") == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.2)
            else:
                pytest.fail(f"the server on port {port} did not start")
        yield ports
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)


@pytest.mark.long
def test_failed_log_ins_count_across_two_server_processes(two_servers):
    a, b = two_servers
    for attempt in range(LOGIN_FAILURES_PER_PAIR.count):
        port = a if attempt % 2 else b
        assert _request(port, "/api/decks/", auth=("alice", "guess")) in (401, 403)
    # Either process now refuses alice, the right password included.
    assert _request(a, "/api/decks/", auth=("alice", PASSWORD)) == 429
    assert _request(b, "/api/decks/", auth=("alice", PASSWORD)) == 429


def test_imports_draw_on_one_budget_across_two_server_processes(two_servers):
    a, b = two_servers
    body = {"text": "2x C002"}
    statuses = [_request(a if i % 2 else b, "/api/decks/import/", body=body)
                for i in range(IMPORT_PER_CLIENT.count)]
    assert set(statuses) == {200}, statuses
    assert _request(a, "/api/decks/import/", body=body) == 429
    assert _request(b, "/api/decks/import/", body=body) == 429
