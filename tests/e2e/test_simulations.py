"""A simulation in a real browser (Debian's headless Chromium driven by Playwright), played by a
real Celery worker: log in, open a deck, submit a run from the "Simulate" form the deck page
links to, watch the progress bar reach 100 %, read the result, open a replay. Screenshots go to
artifacts/ for a human to look at."""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM

PASSWORD = "a-Long-and-unusual-passphrase-42"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")




@pytest.fixture
def site(live_server, transactional_db, settings):
    """The test set, a player with a deck, and a Celery worker on a queue of this test's own
    (a short pause before each chunk, so the progress bar has time to move)."""
    from celery.contrib.testing.worker import start_worker
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from config.celery import app
    from decks.drafts import Draft
    from decks.services import deck_create
    from rules.decks.cardset import TEST_SET

    card_set_import(source=TEST_SET)
    user = get_user_model().objects.create_user("tess", password=PASSWORD)
    deck = deck_create(owner=user, draft=Draft(
        name="Tess's Dawn", hero="T-H01", visibility="private",
        cards={"T-M01": 3, "T-M02": 3, "T-M04": 3, "T-M06": 2, "T-M08": 2, "T-M11": 3,
               "T-M14": 3, "T-I01": 3, "T-I02": 3, "T-I03": 3, "T-I05": 2}))
    queue = f"cardlab-e2e-{uuid.uuid4().hex[:10]}"
    settings.CELERY_TASK_DEFAULT_QUEUE = queue
    settings.SIMULATIONS_CHUNK_PAUSE = 0.4
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[queue],
                      shutdown_timeout=30):
        yield live_server.url, deck


def test_simulate_a_deck_watch_the_progress_and_read_the_result(browser, site):
    url, deck = site
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})

    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))

    # The deck page, then the Simulate form it links to (deck preselected).
    page.goto(f"{url}/decks/{deck.uid}/")
    assert page.locator("h1").inner_text() == "Tess's Dawn"
    page.goto(f"{url}/simulations/new/?deck={deck.uid}")
    assert page.locator("#id_deck").input_value() == deck.uid
    page.get_by_label("Dusk Test").check()
    page.fill("#id_games", "40")
    page.select_option("#id_agent_b", "random")
    page.fill("#id_seed", "7")
    page.get_by_role("button", name="Start the simulation").click()
    page.wait_for_url(re.compile(r"/simulations/[\w-]+/$"))

    # The progress bar moves (htmx polls it every second) and reaches 100 %.
    seen = set()
    percent = page.get_by_test_id("percent")
    for _ in range(600):
        text = percent.inner_text() if percent.count() else ""
        if text:
            seen.add(int(text.split()[0]))
        if page.get_by_test_id("headline").count():
            break
        if len(seen) == 2:
            page.screenshot(path=str(ARTIFACTS / "simulation-progress.png"))
        page.wait_for_timeout(100)
    assert page.get_by_test_id("headline").count(), f"no result; progress seen: {sorted(seen)}"
    assert percent.inner_text() == "100 %"
    assert min(seen) < 100, sorted(seen)   # it was watched while it ran

    headline = page.get_by_test_id("headline").inner_text()
    assert re.search(r"Tess's Dawn wins \d+\.\d % of \d+ games \(95 % interval", headline)
    assert "40 of 40 games" in page.locator("#progress").inner_text()
    assert page.locator("svg.chart").count() == 2
    assert page.get_by_test_id("ruleset").inner_text().strip() == \
        "Standard rules, as in the rule book."
    page.screenshot(path=str(ARTIFACTS / "simulation-results.png"), full_page=True)

    # A kept game, turn by turn.
    page.get_by_role("link", name="Game 1").click()
    page.wait_for_url(re.compile(r"/replays/1/"))
    page.get_by_test_id("next-turn").click()
    assert "Turn 1" in page.get_by_test_id("events").inner_text()
    page.screenshot(path=str(ARTIFACTS / "simulation-replay.png"), full_page=True)
    # The log reads in names and sentences, with the board's P1/P2 labels, to the end.
    for _ in range(12):
        page.get_by_test_id("next-step").click()
        events = page.get_by_test_id("events").inner_text()
        assert not re.search(r"\bT-[HMI]\d\d\b|player \d|_", events), events
    assert re.search(r"▶ P[12]: ", events)
    page.get_by_role("link", name="End »").click()
    last = page.get_by_test_id("events").inner_text()
    assert re.search(r"Game over: (P[12] wins|a draw) \(", last), last
