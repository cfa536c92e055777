"""Counts that never race, in a real browser (Debian's headless Chromium): a collection row
and the builder's panel and status line show what the server stored, whatever order the
answers arrive in; and the card page, the patch page and an import's "did you mean" as a
keyboard user and axe-core (every rule, every impact) meet them."""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

import pytest

from tests.e2e.axe import axe_violations
from tests.e2e.conftest import CHROMIUM, log_in

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


def stored(code: str) -> int:
    from django.contrib.auth import get_user_model

    from collection.selectors import collection_counts
    return collection_counts(user=get_user_model().objects.get(username="tess")).get(code, 0)


@pytest.fixture
def slow_tables(monkeypatch):
    """The collection table's answers, once read, wait before they leave: a search's refresh
    read before a row's "+" was stored arrives after that row's answer, as on a busy site."""
    from collection import views

    table_context = views._table_context
    delay = {"seconds": 0.0}
    read = threading.Event()

    def slow(request):
        context = table_context(request)
        list(context.get("cards") or [])
        read.set()
        time.sleep(delay["seconds"])
        return context

    monkeypatch.setattr(views, "_table_context", slow)
    return delay, read


def test_a_search_then_fast_clicks_leave_every_row_true(site, browser, slow_tables):
    from playwright.sync_api import expect

    delay, read = slow_tables
    page = browser.new_page()
    log_in(page, site)
    page.goto(f"{site}/collection/")
    delay["seconds"] = 0.8
    for attempt, query in enumerate(["ember", "pup", "", "ember"]):
        read.clear()
        search = page.locator("#f-q")
        # The search's refresh on blur alone (no typing, whose own refresh would come later).
        search.evaluate("(box, q) => { box.value = q; }", query)
        search.dispatch_event("change")
        deadline = time.monotonic() + 5
        while not read.is_set() and time.monotonic() < deadline:
            page.wait_for_timeout(20)                # the table was read: count still old
        plus = page.get_by_test_id("own-plus-T-M01")
        plus.click()
        plus = page.get_by_test_id("own-plus-T-M01")
        plus.click()
        page.wait_for_timeout(1200)                  # the stale table arrives last
        expect(page.get_by_test_id("own-count-T-M01")).to_have_value(str(stored("T-M01")))
        assert stored("T-M01") == 2 * (attempt + 1)
    delay["seconds"] = 0.0
    page.reload()
    expect(page.get_by_test_id("own-count-T-M01")).to_have_value("8")


def test_keyboard_presses_on_plus_each_count_and_the_focus_stays(site, browser):
    """Enter pressed fast on a focused "+" adds one a press (none waits for the last answer)
    and the focus stays on the button; Enter in the number box sets the typed count."""
    from playwright.sync_api import expect

    page = browser.new_page()
    log_in(page, site)
    page.goto(f"{site}/collection/")
    plus = page.get_by_test_id("own-plus-T-M01")
    plus.focus()
    for _ in range(3):
        page.keyboard.press("Enter")
    expect(page.get_by_test_id("own-count-T-M01")).to_have_value("3")
    page.wait_for_load_state("networkidle")
    assert stored("T-M01") == 3
    assert page.evaluate("document.activeElement.dataset.testid") == "own-plus-T-M01"
    box = page.get_by_test_id("own-count-T-M02")
    box.fill("6")
    box.press("Enter")
    expect(page.get_by_test_id("own-minus-T-M02")).to_be_enabled()
    page.wait_for_load_state("networkidle")
    assert stored("T-M02") == 6
    box.blur()                                       # the change after Enter is not sent again
    page.wait_for_load_state("networkidle")
    page.reload()
    expect(page.get_by_test_id("own-count-T-M02")).to_have_value("6")


def test_the_card_page_box_counts_and_says_when_a_change_fails(site, browser, console):
    from playwright.sync_api import expect

    console.allow(r"ERR_FAILED")                     # the answer cut off on purpose

    page = browser.new_page()
    log_in(page, site)
    page.goto(f"{site}/cards/T-M06/")
    box = page.get_by_test_id("own-box")
    box.get_by_test_id("own-plus-T-M06").click()
    expect(box).to_contain_text("1")
    expect(page.get_by_test_id("own-count-T-M06")).to_have_value("1")
    page.route("**/collection/cards/**", lambda route: route.abort())
    box.get_by_test_id("own-plus-T-M06").click()
    expect(box.get_by_role("alert")).to_contain_text("not saved")
    assert stored("T-M06") == 1


def test_a_double_click_in_the_builder_keeps_panel_and_status_true(site, browser):
    from playwright.sync_api import expect

    page = browser.new_page()
    page.goto(f"{site}/decks/build/")
    plus = page.locator("#plus-T-M01")
    plus.dblclick()
    for _ in range(3):
        page.locator("#plus-T-M02").click(delay=0)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    status = page.locator("#deck-status").inner_text()
    panel = page.locator("#deck-panel .deck-list h3 .muted").inner_text()
    size = re.search(r"(\d+)\s*/\s*30", status)
    assert size and panel.replace(" ", "") == f"{size[1]}/30", (status, panel)
    in_deck = int(page.locator("#count-T-M01").inner_text()) + int(
        page.locator("#count-T-M02").inner_text())
    assert in_deck == int(size[1])
    page.reload()                                    # what the server stored
    expect(page.locator("#deck-status")).to_contain_text(f"{size[1]}/30")


def test_the_card_page_is_axe_clean_and_its_figures_have_headers(site, browser):
    from cards.card_stats import card_stats_add

    card_stats_add(totals={"T-M06": {"games_played_in": 40, "times_played": 50,
                                     "times_awakened": 30, "wins_when_played": 22,
                                     "games_drawn": 60, "wins_when_drawn": 30}},
                   agent="greedy", card_data_version="v1")
    page = browser.new_page()
    log_in(page, site)
    page.goto(f"{site}/cards/T-M06/")
    page.get_by_test_id("card-rates").wait_for()
    page.get_by_test_id("own-box").wait_for()
    assert axe_violations(page) == []


def test_the_patch_page_card_menu_waits_for_its_button(site, browser):
    page = browser.new_page()
    log_in(page, site)
    page.goto(f"{site}/simulations/patch/?card=T-M01")
    menu = page.locator("#id_card_pick")
    menu.focus()
    page.keyboard.press("ArrowDown")                 # moving through the menu stays here
    page.wait_for_timeout(300)
    assert "card=T-M01" in page.url
    chosen = menu.input_value()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.testid") == "patch-pick"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"card={chosen}"))
    assert axe_violations(page) == []


def test_a_did_you_mean_is_one_click_in_the_browser(site, browser, console):
    console.allow(r"status of 400")                  # the list with a typo, refused
    page = browser.new_page()
    page.goto(f"{site}/decks/import/")
    page.fill("textarea[name=text]", "3x Embr Pup\n2x Thorn Boar\n")
    page.locator("#import-form button.button-primary").click()
    fix = page.locator("button.fix-button").first
    fix.wait_for()
    assert fix.inner_text() == "Ember Pup"
    fix.click()
    page.wait_for_url(re.compile(r"/decks/build/"))
    assert page.locator("#deck-status").inner_text().startswith("5/30")
