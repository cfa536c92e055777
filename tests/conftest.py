"""Shared test fixtures. pytest-django configures Django from pyproject.toml."""

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:   # shared fixtures are imported as tests.accounts
    sys.path.insert(0, str(REPO_ROOT))

# Users, the test card set and an empty cache per database test, for every test folder.
from tests.accounts import _empty_cache, alice, bob, catalogue  # noqa: E402, F401


def pytest_report_header(config):
    # Which engine these tests run: the compiled build, or its sources (while the build is
    # older than them, or with CARDLAB_ENGINE=python) — never a stale build.
    from rules.engine.compiled import describe

    return f"game engine: {describe()}"


@pytest.fixture(autouse=True)
def _site_language_reset():
    """Each test starts in the site's default language. The test client runs a request in the
    test's own thread, and Django's LocaleMiddleware leaves the request's language active after
    it, so a test that fetched a Chinese page would otherwise leave Chinese on for whatever test
    runs next (a service's message, a form's label) — a pass or a failure by test order."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def repo_root() -> Path:
    """The project's root folder (where manage.py lives)."""
    return REPO_ROOT
