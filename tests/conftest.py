"""Shared test fixtures. pytest-django configures Django from pyproject.toml."""

import os
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:   # shared fixtures are imported as tests.fixtures
    sys.path.insert(0, str(REPO_ROOT))

# Users, the test card set and an empty cache per database test, for every test folder.
from tests.fixtures import _empty_cache, alice, bob, catalogue  # noqa: E402, F401


def pytest_configure(config):
    # A fast password hash for tests: production's PBKDF2 is slow on purpose, and on a loaded
    # machine a single log-in could outlast a throttle test's two-second window, so the
    # refusal the test expects never came. What the tests prove does not depend on the hash.
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Parallel test processes (pytest-xdist, as CI runs them) each have their own database but
    # may share one Redis: each keeps its cache keys under its own prefix, so one process
    # emptying the cache between its tests never wipes the other's throttle counters. The
    # servers and workers a test starts inherit the prefix from the environment.
    xdist_worker = os.environ.get("PYTEST_XDIST_WORKER")
    if xdist_worker:
        os.environ["CACHE_KEY_PREFIX"] = f"cardlab-cache-{xdist_worker}"
        settings.CACHES["default"]["KEY_PREFIX"] = os.environ["CACHE_KEY_PREFIX"]
    # On SQLite a statement meeting another thread's table lock waits, as on the site's file.
    from tests.sqlite_locks import wait_on_table_locks

    wait_on_table_locks()


def _database_use(item: pytest.Item) -> str:
    """How a test uses the database, as pytest-django orders them: "transaction" (the test
    wrapped in one transaction: ``db``), "transactional" (committed: ``transactional_db``, the
    live server) or "none"."""
    marker = item.get_closest_marker("django_db")
    fixtures = set(getattr(item, "fixturenames", ()))
    if {"transactional_db", "live_server"} & fixtures or (
            marker is not None and marker.kwargs.get("transaction")):
        return "transactional"
    if "db" in fixtures or marker is not None:
        return "transaction"
    return "none"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The tests marked ``long`` (a minute or more on a busy machine) start first, so the test
    processes are not left waiting on one of them at the suite's end: on the CI machine one
    drawn last kept the others idle for minutes. pytest-django's order holds (the tests in a
    transaction before the committing ones, whose flush would empty the tables the others
    read): a long test leads its own group; one with no database leads the whole run. The sort
    is stable, so pytest-randomly's order stays within each part."""
    rank = {("none", True): 0, ("transaction", True): 1, ("transaction", False): 2,
            ("transactional", True): 3, ("transactional", False): 4, ("none", False): 5}
    items.sort(key=lambda item: rank[_database_use(item),
                                     item.get_closest_marker("long") is not None])


def pytest_report_header(config):
    # Which engine these tests run: the compiled build, or its sources (while the build is
    # older than them, or with CARDLAB_ENGINE=python) — never a stale build.
    from rules.compiled import describe

    return f"game engine: {describe()}"


@pytest.fixture(autouse=True)
def _machine_load_unread(monkeypatch):
    """Estimates read the machine's load (``simulations.agents.strength.machine_load``) for the
    high end of their range: the tests see none, so an estimate does not depend on what else
    the machine runs; the tests of the load set one."""
    monkeypatch.setattr("simulations.agents.strength.machine_load", lambda: None)


@pytest.fixture(autouse=True)
def _no_heartbeat_inside_the_tests_own_transaction(request, settings):
    """A test on ``db`` runs inside one transaction of its own connection, which no other
    thread sees. On SQLite's shared-cache database a lease's heartbeat thread (``work.protocol.
    Heartbeat``, its own connection) renewing a row that transaction wrote waits on its table
    lock for the database's whole timeout (20 s), and the job's end joins the thread: every job
    that played past one beat sat idle 20 s, and more of them on a slower machine. Nothing else
    can take the lease inside such a test, so there its beat comes after the test. Tests whose
    work runs in other threads (``transactional_db``, the live server, a worker) keep it."""
    if _database_use(request.node) == "transaction":
        settings.SIMULATIONS_HEARTBEAT_SECONDS = 3600


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


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker):
    """The site as production serves it — ``config.asgi`` under uvicorn with ./run.sh's worker
    settings (tests/production_server.py) — for every test that asks for a live server (the
    browser tests, the every-page crawl, the API contract), in place of pytest-django's
    threaded WSGI server: what a browser meets is what they test."""
    from tests.production_server import ProductionLiveServer

    server = ProductionLiveServer()
    yield server
    with django_db_blocker.unblock():
        server.stop()


@pytest.fixture
def no_loop_running():
    """A test that runs an event loop of its own (``asyncio.run``) or calls an async view through
    Django's test client (``async_to_sync``) starts with no loop marked running in its thread.
    Playwright's synchronous API leaves its loop marked running in the thread that started a
    browser (its greenlets switch away inside the loop), so in a test process that ran a browser
    test first such a test would be refused ("cannot use AsyncToSync in the same thread as an
    async event loop") — a failure by test order. The browser's mark is put back afterwards."""
    import asyncio

    running = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(running)


@pytest.fixture
def repo_root() -> Path:
    """The project's root folder (where manage.py lives)."""
    return REPO_ROOT


def pytest_terminal_summary(terminalreporter, config):
    # The order the tests ran in (pytest-randomly shuffles it on every run; -q hides the header
    # that names it), so a failure that depends on order can be run again exactly.
    seed = getattr(config.option, "randomly_seed", None)
    if config.pluginmanager.has_plugin("randomly") and isinstance(seed, int):
        terminalreporter.write_line(
            f"test order: --randomly-seed={seed} (./test.sh --randomly-seed={seed} repeats it)")
