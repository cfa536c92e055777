"""What every browser test shares: Debian's headless Chromium (never a browser downloaded by
Playwright), the artifacts folder for screenshots, a watch on the browser console, and the
site most tests start from (``site``: the test set and the user ``tess``, who ``log_in``).

Every page a test opens (``browser.new_page()`` or a page of ``browser.new_context()``) is
watched: a ``console.error`` (htmx reports its own failures that way), an uncaught exception or
a resource that fails to load fails the test after it ran, with the page's address and the
message. A test that provokes an error on purpose says so first with
``console.allow(r"pattern")`` — for a deliberate 400 answer, say.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.fixtures import _clear_caches
from tests.network_changes import steady_network
from tests.sqlite_locks import transactions_one_at_a_time

# Playwright's sync API runs an event loop in this thread; the tests' own database calls are
# synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PASSWORD = "a-Long-and-unusual-passphrase-42"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]


class ConsoleWatch:
    """Console errors and page errors of every watched page, less the allowed ones."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def attach(self, page) -> None:
        page.on("console", lambda message: self._console(page, message))
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: uncaught: {exc}"))

    def _console(self, page, message) -> None:
        if message.type == "error":
            where = (message.location or {}).get("url") or ""
            self.errors.append(f"{page.url}: console.error: {message.text} {where}".rstrip())

    def unexpected(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


class WatchedBrowser:
    """The browser, with every new page attached to the test's console watch."""

    def __init__(self, browser) -> None:
        self._browser = browser
        self.watch = ConsoleWatch()

    def new_page(self, **kwargs):
        page = self._browser.new_page(**kwargs)
        self.watch.attach(page)
        return page

    def new_context(self, **kwargs):
        context = self._browser.new_context(**kwargs)
        context.on("page", self.watch.attach)
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


def _readers_skip_table_locks() -> None:
    """On SQLite the tests' database is an in-memory database in shared-cache mode, whose
    table locks fail a reader at once ("database table is locked") while the in-process Celery
    worker writes: a 500 on a progress poll that no real deployment (a WAL file with a busy
    timeout) would see. The live server shares this thread's connection, so its reads skip
    those locks (writers still take them), and its transactions take turns."""
    from django.db import connection

    if connection.vendor == "sqlite":
        connection.cursor().execute("PRAGMA read_uncommitted = 1")
        transactions_one_at_a_time()


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def browser(chromium, transactional_db, settings):
    """The shared browser; the test fails if a page it opened logged an error. Its pages are
    closed before the test's database is emptied (a page still polling the live server would
    hold a table lock).

    On SQLite the live server's request threads share one in-memory connection, so the
    database cache's transactions (one per cache write: a gallery loads a dozen card images at
    once) would interleave on it and break it; these tests keep the cache in memory."""
    from django.db import connection

    if connection.vendor == "sqlite":
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                       "LOCATION": "cardlab-browser-tests"}}
        # Empty, as every test's cache is (tests.fixtures): the sign-in limits' counters of
        # the tests before would otherwise add up in this process's memory.
        _clear_caches()
    _readers_skip_table_locks()
    ARTIFACTS.mkdir(exist_ok=True)
    watched = WatchedBrowser(chromium)
    # Another worker's test adding a network link would abort this test's requests.
    with steady_network():
        yield watched
        for context in chromium.contexts:
            context.close()
    errors = watched.watch.unexpected()
    if errors:
        pytest.fail("The browser console logged errors:\n" + "\n".join(errors), pytrace=False)


@pytest.fixture
def console(browser) -> ConsoleWatch:
    """The running test's console watch: ``console.allow(r"...")`` for deliberate errors."""
    return browser.watch


def shot(page, name: str, *, full_page: bool = True) -> Path:
    """Keep a screenshot in artifacts/ for a human to look at."""
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


@pytest.fixture(scope="module", autouse=True)
def _migrated_data_survives(django_db_setup, django_db_blocker):
    """Put the migrations' data (the standard format, say) back after each browser module.

    A live-server test runs in a transaction-less test case whose teardown empties every table,
    and the later browser tests' ``serialized_rollback`` cannot restore them: Playwright runs
    the test in its own context, where Django sees a fresh connection object without the
    serialized copy. So this module restores it for them. Set up before the browser starts (an
    autouse module fixture), it reaches the original connection.
    """
    from django.core.management import call_command
    from django.db import connections

    serialized = getattr(connections["default"], "_test_serialized_contents", None)
    yield
    if serialized:
        with django_db_blocker.unblock():
            # Empty first without post_migrate (which would re-create content types under new
            # ids), then load the copy: the database is as the migrations left it.
            call_command("flush", interactive=False, inhibit_post_migrate=True, verbosity=0)
            connections["default"].creation.deserialize_db_from_string(serialized)


@pytest.fixture
def site(live_server) -> str:
    """The live site's address, with the standard format, the test set and the user ``tess``
    (password ``PASSWORD``). A module that needs more defines its own ``site``."""
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from decks.formats.standard import format_standard_create
    from rules.decks.cardset import TEST_SET

    # The standard format comes from a migration, which an earlier browser test's flush of the
    # database removed: made again as `migrate` makes it.
    format_standard_create()
    card_set_import(source=TEST_SET)
    get_user_model().objects.create_user("tess", password=PASSWORD)
    return str(live_server.url)


def log_in(page, site: str) -> None:
    """Sign ``tess`` in through the log-in page and wait until it has let her in."""
    page.goto(f"{site}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))
