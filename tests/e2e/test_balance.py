"""A balance search in a real browser (Debian's headless Chromium driven by Playwright), played
by a real Celery worker: log in, fill the form, watch the live progress move, open the results,
read the Pareto front and open one of its patches as a simulation run. Screenshots go to
artifacts/ for a human to look at."""

from __future__ import annotations

import os
import re
import uuid
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PASSWORD = "a-Long-and-unusual-passphrase-42"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


@pytest.fixture
def site(live_server, transactional_db, settings):
    """The test set, a player, and a Celery worker on a queue of this test's own (a short pause
    before each piece of games, so the progress has time to move)."""
    from celery.contrib.testing.worker import start_worker
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from config.celery import app
    from rules.decks.cardset import TEST_SET

    card_set_import(source=TEST_SET)
    get_user_model().objects.create_user("tess", password=PASSWORD)
    queue = f"cardlab-e2e-{uuid.uuid4().hex[:10]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    settings.SIMULATIONS_CHUNK_PAUSE = 0.05
    settings.BALANCE_PIECE_BLOCKS = 2
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue],
                      shutdown_timeout=60):
        yield live_server.url


def test_search_a_field_watch_it_and_open_a_patch_as_a_run(browser, site, settings):
    # Each piece of games waits a moment first, so the search outlasts the page's 2-s poll
    # however fast the machine: the progress is seen to move, not only to finish.
    settings.SIMULATIONS_CHUNK_PAUSE = 0.25
    url = site
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))

    page.goto(f"{url}/balance/new/")
    page.get_by_label("Dawn Test").check()
    page.get_by_label("Dusk Test").check()
    page.check("input[name=objective][value=band]")   # two decks: every matchup in a band
    page.fill("#id_max_changes", "2")
    page.fill("#id_allowed_cards", "T-H01, T-H02, T-M01, T-M03")
    page.fill("#id_budget_games", "2000")
    page.fill("#id_verify_games", "100")
    page.fill("#id_seed", "5")
    page.get_by_role("button", name="Start the search").click()
    page.wait_for_url(re.compile(r"/balance/[\w-]+/$"))

    # Live progress (htmx polls it): the games count moves until the search is done.
    seen = set()
    for _ in range(1800):
        games = page.get_by_test_id("games")
        if games.count():
            seen.add(int(games.inner_text()))
        if page.get_by_role("link", name="The search has finished: see the results.").count():
            break
        if len(seen) == 2:
            page.screenshot(path=str(ARTIFACTS / "balance-progress.png"))
        page.wait_for_timeout(100)
    assert len(seen) >= 2, f"progress never moved: {sorted(seen)}"
    page.get_by_role("link", name="The search has finished: see the results.").click()

    front = page.get_by_test_id("front")
    assert "unpatched" in front.inner_text()
    assert page.locator("svg.front-chart").count() == 1
    page.screenshot(path=str(ARTIFACTS / "balance-front.png"), full_page=True)
    page.get_by_role("button", name="Open as a round-robin").first.click()
    page.wait_for_url(re.compile(r"/simulations/[\w-]+/$"))
    assert "Balance patch" in page.get_by_test_id("patch").inner_text()
    assert errors == []
