"""With DEBUG off the pages need the static files' manifest that ``collectstatic`` writes. A
site started without it (``manage.py runserver`` with ``DJANGO_DEBUG=0``) says what to run: the
system check warns at start-up, and the error page says it instead of a bare failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core import checks
from django.test import Client

from config.checks import RUN_COLLECTSTATIC

REPO_ROOT = Path(__file__).resolve().parent.parent
MANIFEST_STORAGE = "whitenoise.storage.CompressedManifestStaticFilesStorage"


@pytest.fixture
def uncollected(settings, tmp_path):
    """DEBUG off, hashed static files, and nothing collected yet."""
    settings.DEBUG = False
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {**settings.STORAGES, "staticfiles": {"BACKEND": MANIFEST_STORAGE}}
    return tmp_path


def _warnings() -> list[checks.CheckMessage]:
    return [m for m in checks.run_checks() if m.id == "cardlab.W001"]


def test_the_check_says_to_run_collectstatic(uncollected):
    (warning,) = _warnings()
    assert warning.level == checks.WARNING
    assert str(uncollected / "staticfiles.json") in warning.msg
    assert "python manage.py collectstatic" in warning.hint


def test_the_check_is_quiet_once_collected_or_with_debug_on(uncollected, settings):
    settings.DEBUG = True
    assert _warnings() == []
    settings.DEBUG = False
    (uncollected / "staticfiles.json").write_text('{"paths": {}, "version": "1.1", "hash": ""}')
    assert _warnings() == []


def test_manage_py_check_shows_it_as_runserver_does(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_DEBUG="0", DJANGO_STATIC_ROOT=str(tmp_path / "static"))
    result = subprocess.run([sys.executable, "manage.py", "check"], cwd=REPO_ROOT, env=env,
                            capture_output=True, text=True, timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output      # a warning: migrate still runs before collecting
    assert "cardlab.W001" in output and "python manage.py collectstatic" in output, output


@pytest.mark.django_db
def test_a_page_says_what_to_run_instead_of_a_bare_error(uncollected):
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    assert str(RUN_COLLECTSTATIC) in response.content.decode()
