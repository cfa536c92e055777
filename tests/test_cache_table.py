"""A site set up with ``manage.py migrate`` alone works: the throttles' cache table is made by a
migration, not only by ``createcachetable`` (which a fresh set-up used to need, or every log-in
was a 500). With Redis configured the migration makes no table and needs no server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "migrate-Then-log-in-5"
LONG_AGO = datetime(2000, 1, 1, tzinfo=UTC)

LOG_IN = f"""
import json
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client

get_user_model().objects.create_user("alice", password="{PASSWORD}")
client = Client(HTTP_HOST="localhost", raise_request_exception=False)
page = client.get("/accounts/login/")
wrong = client.post("/accounts/login/", {{"username": "alice", "password": "guess"}})
right = client.post("/accounts/login/", {{"username": "alice", "password": "{PASSWORD}"}})
print(json.dumps({{"page": page.status_code, "wrong": wrong.status_code,
                  "right": right.status_code, "signed_in": "_auth_user_id" in client.session,
                  "tables": connection.introspection.table_names()}}))
"""


def _fresh_site(tmp_path: Path, **env: str) -> dict[str, str]:
    """A new SQLite database in its own folder, nothing from this shell's configuration."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL"))}
    return {**clean, "CARDLAB_VAR_DIR": str(tmp_path), "DJANGO_DEBUG": "1", **env}


def _manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=REPO_ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_migrate_alone_then_log_in(tmp_path):
    env = _fresh_site(tmp_path)
    _manage(env, "migrate", "--noinput")
    report = json.loads(_manage(env, "shell", "-c", LOG_IN).strip().splitlines()[-1])
    assert "cardlab_cache" in report["tables"]
    assert (report["page"], report["wrong"], report["right"]) == (200, 400, 302), report
    assert report["signed_in"]
    _manage(env, "createcachetable")    # still harmless afterwards (./run.sh runs it)


def test_with_redis_configured_the_migration_makes_no_table(tmp_path):
    # Nothing listens on port 1: the migration must not need the cache server at all.
    env = _fresh_site(tmp_path, CACHE_URL="redis://127.0.0.1:1/0")
    _manage(env, "migrate", "config", "--noinput")     # the app whose migration makes it
    applied = _manage(env, "showmigrations", "config")
    tables = _manage(env, "shell", "-c", "from django.db import connection; "
                     "print(connection.introspection.table_names())")
    assert "[X] 0001_cache_table" in applied and "cardlab_cache" not in tables


def test_a_read_of_the_table_answers_what_was_set_until_it_expires(db):
    from django.core.cache import cache
    from django.db import connection

    if not hasattr(cache, "_table"):
        pytest.skip("the cache is Redis here (CACHE_URL or a redis:// broker), not the table")
    cache.set("cardlab-test:generation", {"token": "abc"}, timeout=600)
    assert cache.get("cardlab-test:generation") == {"token": "abc"}
    assert cache.get("cardlab-test:absent", "default") == "default"
    with connection.cursor() as cursor:     # the entry's time runs out
        cursor.execute("UPDATE cardlab_cache SET expires = %s WHERE cache_key LIKE %s",
                       [connection.ops.adapt_datetimefield_value(LONG_AGO),
                        "%cardlab-test:generation"])
    assert cache.get("cardlab-test:generation", "gone") == "gone"
    assert cache.add("cardlab-test:generation", "again") is True
    assert cache.get("cardlab-test:generation") == "again"
