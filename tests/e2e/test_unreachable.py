"""A page that polls keeps going after a failed answer (Debian's headless Chromium; the server's
failures are made by the browser's own routing, as a restarting server or a lost connection
would answer): the challenger's waiting page, the board showing the AI's turn and the Play
page's list of challenges (an htmx poll) each say that the server is not answering, ask again
after a pause, and carry on as soon as an answer comes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM
from tests.e2e.test_play import _log_in, _start, _wait_for_decision
from tests.e2e.test_play import site as play_site  # noqa: F401   (the fixture, for these tests)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")

# The console's line for each failed answer: the browser's own, and htmx's.
SERVER_ERRORS = r"status of 50[0-9]|Response Status Error Code 50[0-9]"


def _fail_first(page, pattern: str, times: int, status: int = 502) -> list[str]:
    """Answer the first ``times`` requests matching ``pattern`` with ``status``; the rest go
    through. Returns the list of failed addresses, filled as they come."""
    failed: list[str] = []

    def route(handle):
        if len(failed) < times:
            failed.append(handle.request.url)
            handle.fulfill(status=status, body="Bad gateway", content_type="text/plain")
        else:
            handle.continue_()

    page.route(re.compile(pattern), route)
    return failed


def test_the_challengers_page_keeps_asking_and_goes_to_the_accepted_game(
        browser, play_site, console):  # noqa: F811
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    from decks.formats.standard import format_standard_create

    console.allow(SERVER_ERRORS)
    format_standard_create()
    ben = get_user_model().objects.create_user("ben", password="a-Long-and-unusual-42")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _log_in(page, play_site)
    tess = APIClient()
    tess.force_authenticate(get_user_model().objects.get(username="tess"))
    made = tess.post("/api/play/challenges/", {"opponent": "ben", "deck": "starter:Dawn Test",
                                               "first": "me"}, format="json").json()
    failed = _fail_first(page, r"/api/play/challenges/[\w-]+/$", 1)
    page.goto(play_site + made["url"])
    note = page.get_by_test_id("challenge-unreachable")
    note.wait_for(timeout=15_000)
    assert "not answering" in note.inner_text() and "3 s" in note.inner_text()
    answer = APIClient()
    answer.force_authenticate(ben)
    accepted = answer.post(f"/api/play/challenges/{made['uid']}/accept/",
                           {"deck": "starter:Dusk Test"}, format="json")
    assert accepted.status_code == 201, accepted.json()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"), timeout=20_000)
    assert len(failed) == 1 and "/challenges/" not in page.url


def test_the_ais_turn_goes_on_after_the_board_failed_to_come(
        browser, play_site, console, settings):  # noqa: F811
    console.allow(SERVER_ERRORS)
    settings.PLAY_STEP_SECONDS = 0.2
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _log_in(page, play_site)
    failed = _fail_first(page, r"/play/[\w-]+/board/", 2)
    _start(page, play_site, first="opponent")
    note = page.get_by_test_id("play-unreachable")
    note.wait_for(timeout=20_000)
    assert "not answering" in note.inner_text()
    assert _wait_for_decision(page) in ("act", "over")
    assert len(failed) == 2 and note.count() == 0          # said while it lasted, then gone
    assert page.get_by_test_id("play-logged-out").count() == 0   # no "reload the game"


def test_the_play_pages_challenge_list_keeps_polling_after_a_failed_answer(
        browser, play_site, console, settings):  # noqa: F811
    """An htmx poll (hx-trigger "every …"): the note comes with the failure and goes with
    the next answer."""
    console.allow(SERVER_ERRORS)
    settings.PLAY_CHALLENGE_POLL_SECONDS = 1
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _log_in(page, play_site)
    failed = _fail_first(page, r"/play/challenges/\?", 1, status=500)
    page.goto(f"{play_site}/play/")
    note = page.get_by_test_id("poll-unreachable")
    note.wait_for(timeout=15_000)
    assert "not answering" in note.inner_text()
    note.wait_for(state="detached", timeout=15_000)
    assert len(failed) == 1
