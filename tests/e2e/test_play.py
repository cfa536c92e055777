"""Playing in a real browser (Debian's headless Chromium driven by Playwright): a whole game
against greedy by clicking, a hot-seat turn with its cover, an undo, a reload mid-game, the
replay of a finished game, and the page at 390 px. Screenshots go to artifacts/.

The AI's moves come from the site's own thread pool here (not inside the request), shown one
step at a time at a fast pace (``PLAY_STEP_SECONDS``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, shot

PASSWORD = "a-Long-and-unusual-passphrase-42"
# A plain player's order of preference among the engine's buttons.
PREFERENCE = ("keep", "place", "ready", "awaken", "attack", "use", "replenish", "pick",
              "target", "choose", "discard", "discard_display", "item", "end", "pass",
              "decline")

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


@pytest.fixture
def site(live_server, transactional_db, settings):
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    settings.PLAY_STEP_SECONDS = 0.05
    card_set_import(source=TEST_SET)
    get_user_model().objects.create_user("tess", password=PASSWORD)
    return live_server.url


def _log_in(page, url: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))


def _start(page, url: str, opponent: str = "greedy", first: str = "me") -> None:
    page.goto(f"{url}/play/")
    page.select_option("#id_deck", "starter:Dawn Test")
    page.select_option("#id_opponent_deck", "starter:Dusk Test")
    page.check(f"input[name=opponent][value={opponent}]")
    page.select_option("#id_first", first)
    page.fill("#id_seed", "11")
    page.get_by_test_id("start-game").click()
    page.wait_for_url(re.compile(r"/play/[\w-]+/$"))


# Records every board the page shows as (step, steps): the board is replaced, not edited.
STEP_RECORDER = """() => {
    window.shownSteps = [];
    new MutationObserver(() => {
        const b = document.querySelector('.play-board');
        if (b) window.shownSteps.push([+b.dataset.step, +b.dataset.steps]);
    }).observe(document.getElementById('play-board'), {childList: true});
}"""


def _wait_for_decision(page, timeout: float = 30_000) -> str:
    """Wait until the person must decide or the game is over; returns "act" or "over"."""
    page.wait_for_function("""() => {
        const b = document.querySelector('.play-board');
        return b && (document.querySelector('[data-testid=actions]')
                     || document.querySelector('[data-testid=replay-link]')
                     || document.querySelector('[data-testid=cover]'));
    }""", timeout=timeout)
    return "over" if page.get_by_test_id("replay-link").count() else "act"


def _click_preferred(page) -> str:
    buttons = page.locator("[data-testid=actions] button")
    kinds = buttons.evaluate_all("bs => bs.map(b => b.dataset.kind)")
    kind = next(k for k in PREFERENCE if k in kinds)
    version = page.get_by_test_id("board").get_attribute("data-version")
    page.locator(f"[data-testid=actions] button[data-kind={kind}]").first.click()
    page.wait_for_function(
        f"() => document.querySelector('.play-board')?.dataset.version !== '{version}'")
    return kind


def test_a_whole_game_against_greedy_is_played_by_clicking(browser, site):
    from play.models import PlayGame

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _log_in(page, site)
    _start(page, site)
    page.evaluate(STEP_RECORDER)
    expect_status = page.get_by_test_id("play-status")
    assert "your decision" in expect_status.inner_text()
    shot(page, "play-mulligan")
    clicks = 0
    while _wait_for_decision(page) == "act" and clicks < 400:
        _click_preferred(page)
        clicks += 1
        if clicks == 25:
            shot(page, "play-mid-game")
    assert "Game over" in page.get_by_test_id("play-status").inner_text()
    game = PlayGame.objects.get()
    assert game.status == "finished" and clicks > 10
    assert len(game.actions) > clicks                 # the AI played its own moves too
    shown = page.evaluate("() => window.shownSteps")
    # The AI's moves were shown one at a time: boards at earlier steps came before the latest.
    assert sum(1 for step, steps in shown if step < steps) >= 10
    page.get_by_test_id("replay-link").click()
    page.wait_for_url(re.compile(r"/replay/$"))
    page.get_by_test_id("next-step").click()
    assert page.get_by_test_id("events").inner_text()
    shot(page, "play-replay")


def test_a_hot_seat_turn_hides_each_seats_cards_from_the_other(browser, site):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _log_in(page, site)
    _start(page, site, opponent="human", first="me")
    seen = []
    for _ in range(60):
        _wait_for_decision(page)
        if page.get_by_test_id("cover").count():
            assert page.get_by_test_id("my-hand").count() == 0       # nothing of either hand
            shot(page, "play-hot-seat-cover")
            page.get_by_test_id("show-seat").click()
            page.get_by_test_id("my-hand").wait_for()
            continue
        status = page.get_by_test_id("play-status").inner_text()
        seen.append(status[:2])
        if "Your turn" in status:
            break
        _click_preferred(page)
    assert {"P1", "P2"} <= set(seen)
    assert page.get_by_test_id("enemy-hand").locator(".card-back").count() > 0


def test_undo_and_a_reload_mid_game_keep_the_game_where_it_stood(browser, site):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _log_in(page, site)
    _start(page, site)
    while True:
        _wait_for_decision(page)
        if "Your turn" in page.get_by_test_id("play-status").inner_text():
            break
        _click_preferred(page)
    steps = page.get_by_test_id("board").get_attribute("data-steps")
    hand = page.get_by_test_id("my-hand").inner_text()
    page.locator("[data-testid=actions] button:not([data-kind=end])").first.click()
    page.get_by_test_id("undo").wait_for()
    page.get_by_test_id("undo").click()
    page.wait_for_function(
        f"() => document.querySelector('.play-board')?.dataset.steps === '{steps}'")
    assert page.get_by_test_id("my-hand").inner_text() == hand
    page.locator("[data-testid=actions] button:not([data-kind=end])").first.click()
    page.wait_for_function(
        f"() => document.querySelector('.play-board')?.dataset.steps !== '{steps}'")
    board = page.get_by_test_id("board")
    before = (board.get_attribute("data-steps"), page.get_by_test_id("my-hand").inner_text())
    page.reload()
    _wait_for_decision(page)
    board = page.get_by_test_id("board")
    assert (board.get_attribute("data-steps"), page.get_by_test_id("my-hand").inner_text()) \
        == before


def test_the_game_page_fits_a_phone(browser, site):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    _log_in(page, site)
    _start(page, site)
    _wait_for_decision(page)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, width
    page.keyboard.press("Tab")
    shot(page, "play-phone")


def test_the_board_is_played_from_the_keyboard_and_in_chinese(browser, site):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN",
                                  extra_http_headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    page = context.new_page()
    _log_in(page, site)
    _start(page, site)
    _wait_for_decision(page)
    assert "请你决定" in page.get_by_test_id("play-status").inner_text()
    assert "保留手牌" in page.get_by_test_id("actions").inner_text()
    version = page.get_by_test_id("board").get_attribute("data-version")
    page.locator("[data-testid=actions] button[data-kind=keep]").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelector('.play-board')?.dataset.version !== '{version}'")
    _wait_for_decision(page)
    # After each answer the first of the new choices has the focus: Enter plays it.
    focused = page.evaluate("() => document.activeElement?.dataset.kind")
    assert focused in ("place", "ready")
    version = page.get_by_test_id("board").get_attribute("data-version")
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => document.querySelector('.play-board')?.dataset.version !== '{version}'")
    shot(page, "play-chinese")


def test_the_ais_turn_can_be_skipped(browser, site, settings):
    settings.PLAY_STEP_SECONDS = 5          # a slow pace: only a skip ends the turn quickly
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _log_in(page, site)
    _start(page, site, first="opponent")
    for _ in range(40):
        _wait_for_decision(page)
        kind = _click_preferred(page)
        if kind == "ready":
            break
    page.get_by_test_id("skip").click(timeout=10_000)
    page.get_by_test_id("actions").wait_for(timeout=4_000)
    board = page.get_by_test_id("board")
    assert board.get_attribute("data-step") == board.get_attribute("data-steps")
    assert "Your turn" in page.get_by_test_id("play-status").inner_text()
