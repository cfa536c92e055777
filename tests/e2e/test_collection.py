"""The collection in a real browser (Debian's headless Chromium driven by Playwright): the
table's quick +/− and exact count, "only cards I own" in the builder's card panel with the
copies left after the deck, and a deck page's missing cards with the shopping list."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM, log_in

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"collection-{name}.png"), full_page=True)


def test_the_collection_table_counts_with_plus_minus_and_an_exact_number(site, browser):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from collection.selectors import collection_counts

    page = browser.new_page()
    log_in(page, site)
    page.goto(f"{site}/collection/")
    count = page.get_by_test_id("own-count-T-M01")
    expect(count).to_have_value("0")
    page.get_by_test_id("own-plus-T-M01").click()
    expect(page.get_by_test_id("own-count-T-M01")).to_have_value("1")
    page.get_by_test_id("own-plus-T-M01").click()
    expect(page.get_by_test_id("own-count-T-M01")).to_have_value("2")
    page.get_by_test_id("own-minus-T-M01").click()
    expect(page.get_by_test_id("own-count-T-M01")).to_have_value("1")
    page.get_by_test_id("own-count-T-M02").fill("4")
    page.get_by_test_id("own-count-T-M02").dispatch_event("change")
    expect(page.locator("tr[data-code='T-M02']")).to_have_class(re.compile("is-owned"))
    expect(page.locator("#own-sets")).to_contain_text("2 / 22")   # the set totals follow
    page.get_by_test_id("owned-only").check()
    expect(page.get_by_test_id("collection-table").locator("tbody tr")).to_have_count(2)
    shot(page, "table")
    tess = get_user_model().objects.get(username="tess")
    assert collection_counts(user=tess) == {"T-M01": 1, "T-M02": 4}


def test_only_cards_i_own_in_the_builder_with_the_copies_left(site, browser):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from cards.models import Card
    from collection.services import collection_card_set

    tess = get_user_model().objects.get(username="tess")
    collection_card_set(user=tess, card=Card.objects.get(code="T-M01"), count=4)
    page = browser.new_page()
    log_in(page, site)
    page.goto(f"{site}/decks/build/")
    page.get_by_test_id("builder-owned").check()
    rows = page.locator("#card-results .card-row")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Ember Pup")
    expect(page.get_by_test_id("owned-left-T-M01")).to_have_text("4 left")
    page.get_by_role("button", name="Add one Ember Pup", exact=True).click()
    expect(page.get_by_test_id("owned-left-T-M01")).to_have_text("3 left")
    assert "owned=1" in page.url            # a reload shows the same panel
    shot(page, "builder")


def test_a_deck_page_lists_the_missing_cards_and_offers_the_shopping_list(site, browser):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from cards.models import Card
    from collection.services import collection_card_set
    from decks.drafts import Draft
    from decks.services import deck_create

    tess = get_user_model().objects.get(username="tess")
    deck = deck_create(owner=tess, draft=Draft(name="Ember Rush", hero="T-H01",
                                               cards={"T-M01": 3, "T-M02": 3}))
    collection_card_set(user=tess, card=Card.objects.get(code="T-M01"), count=3)
    collection_card_set(user=tess, card=Card.objects.get(code="T-M02"), count=1)
    page = browser.new_page()
    log_in(page, site)
    page.goto(f"{site}{deck.get_absolute_url()}")
    missing = page.get_by_test_id("missing-cards")
    expect(missing).to_contain_text("Thorn Boar")
    expect(missing.locator("tr[data-code='T-M02'] td").last).to_have_text("2")
    expect(missing.locator("tr[data-code='T-M01']")).to_have_count(0)
    expect(missing.locator("tr[data-code='T-H01']")).to_have_count(1)   # the hero, too
    with page.expect_download() as download:
        missing.locator("a[data-format='text']").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "2x Thorn Boar" in text and "Ember Pup" not in text
    shot(page, "missing")
    collection_card_set(user=tess, card=Card.objects.get(code="T-M02"), count=3)
    collection_card_set(user=tess, card=Card.objects.get(code="T-H01"), count=1)
    page.reload()
    expect(page.get_by_test_id("buildable")).to_be_visible()
