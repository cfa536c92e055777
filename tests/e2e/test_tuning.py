"""Deck tuning in a real browser (Debian's headless Chromium driven by Playwright), played by a
real Celery worker: from a deck's page, "Tune this deck", fill the form, watch the live progress
move, read a suggestion (a diff in card names with its paired improvement) and save it as a new
version of the deck. Screenshots go to artifacts/ for a human to look at."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import ARTIFACTS, CHROMIUM
from tests.e2e.test_balance import PASSWORD, site  # noqa: F401  (the fixture)

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


def _progress_shot(page) -> bool:
    """Keep one picture of the progress for a human; the page may be reloading into its
    suggestions at that very moment (a tuning that finishes while watched does), and then
    Chromium has no frame to capture: the picture is skipped, the test goes on."""
    try:
        page.screenshot(path=str(ARTIFACTS / "tuning-progress.png"))
    except PlaywrightError:
        return False
    return True


def test_tune_a_deck_from_its_page_and_save_a_suggestion_as_a_new_version(
        browser, site, settings):  # noqa: F811
    # Each piece of games waits a moment first, so the tuning outlasts the page's 2-s poll
    # however fast the machine: the progress is seen to move, not only to finish.
    settings.SIMULATIONS_CHUNK_PAUSE = 0.25
    from django.contrib.auth import get_user_model

    from decks.drafts import Draft
    from decks.services import deck_create
    from decks.starters.selectors import starter_decks

    starter = next(d for d in starter_decks() if d.name == "Dawn Test")
    deck = deck_create(owner=get_user_model().objects.get(username="tess"),
                       draft=Draft(name="Tess Dawn", hero=starter.hero,
                                   cards=dict(starter.cards)))
    url = site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))

    page.goto(f"{url}{deck.get_absolute_url()}")
    page.get_by_test_id("tune-deck").click()
    page.wait_for_url(re.compile(r"/balance/tune/new/\?deck="))
    page.get_by_label("Dusk Test").check()
    page.get_by_label("Ember Pup ×3").check()           # keep the Ember Pups
    page.fill("#id_max_swaps", "1")
    page.fill("#id_budget_games", "2000")
    page.fill("#id_verify_games", "100")
    page.fill("#id_seed", "7")
    page.screenshot(path=str(ARTIFACTS / "tuning-form.png"), full_page=True)
    page.get_by_role("button", name="Start tuning").click()
    page.wait_for_url(re.compile(r"/balance/tune/[\w-]+/$"))

    seen, shot_taken = set(), False
    for _ in range(1800):
        games = page.get_by_test_id("games")
        if games.count():
            seen.add(int(games.inner_text()))
        # Finished while watched: the page shows the suggestions themselves, no link to them.
        if page.get_by_role("heading", name="Suggestions").count():
            break
        if len(seen) == 2 and not shot_taken:
            shot_taken = _progress_shot(page)
        page.wait_for_timeout(100)
    assert len(seen) >= 2, f"progress never moved: {sorted(seen)}"
    assert re.search(r"/balance/tune/[\w-]+/$", page.url)

    suggestion = page.get_by_test_id("suggestion").first
    text = suggestion.inner_text()
    assert "×" in text and "McNemar" in text and "T-M" not in text   # names, not codes
    assert re.search(r"McNemar p (= [\d.e-]+|< 0\.0001) \(", text), text
    assert "p = <" not in text
    assert suggestion.get_by_test_id("verdict").count() == 1
    assert not any("Ember Pup" in t for t in suggestion.locator("del").all_inner_texts())
    page.screenshot(path=str(ARTIFACTS / "tuning-suggestions.png"), full_page=True)
    versions = deck.versions.count()
    suggestion.get_by_role("button", name="Save as a new version").click()
    page.wait_for_url(re.compile(re.escape(deck.get_absolute_url()) + "$"))
    assert "Saved as a new version of Tess Dawn." in page.content()
    assert deck.versions.count() == versions + 1
    page.screenshot(path=str(ARTIFACTS / "tuning-saved.png"), full_page=True)
