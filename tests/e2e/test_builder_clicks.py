"""The deck builder's card panel in a real browser (Debian's headless Chromium driven by
Playwright), on the core set: the first "+" after typing a search adds the card, by mouse at
desktop width and by tap on a phone; the panel pages through every card a search finds; its
quick searches cover all five attributes; and a problem's "remove" fix is one click.
Screenshots go to artifacts/ for a human to look at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM
from tests.e2e.network import quiet, track_requests

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


@pytest.fixture
def site(live_server):
    from cards.services import card_set_import
    from decks.formats.standard import format_standard_create
    from rules.decks.cardset import CORE_SET

    format_standard_create()
    card_set_import(source=CORE_SET)
    return live_server.url


def _builder(browser, site: str, width: int):
    phone = width < 500
    context = browser.new_context(viewport={"width": width, "height": 900}, is_mobile=phone,
                                  has_touch=phone)
    page = context.new_page()
    track_requests(page)
    page.goto(f"{site}/decks/build/")
    return page


def _count(page, name: str):
    button = page.get_by_role("button", name=f"Add one {name}", exact=True)
    return page.locator("#card-results .card-row", has=button).locator(".in-deck span").first


def _plus(page, name: str):
    """The card panel's "+" of a card (the deck panel has its own)."""
    return page.locator("#card-results").get_by_role("button", name=f"Add one {name}",
                                                      exact=True)


@pytest.mark.parametrize("width", [1280, 390])
def test_the_first_plus_after_typing_a_search_adds_the_card(browser, site, width):
    from playwright.sync_api import expect

    page = _builder(browser, site, width)
    box = page.get_by_label("Search cards")
    if width < 500:
        box.tap()
    else:
        box.click()
    # Typed into the box in one input event: typed a key at a time on a loaded machine, the
    # pause after "a:" can outlast the search's delay, and that half-typed filter is refused.
    page.keyboard.insert_text("a:water")
    page.wait_for_url(re.compile(r"q=a%3Awater"))      # the search has landed
    quiet(page)
    plus = _plus(page, "Ironshell Crab")
    # The focus is still in the search box: this press leaves it (its "change" event).
    expect(box).to_be_focused()
    if width < 500:
        plus.tap()
    else:
        plus.click()
    expect(_count(page, "Ironshell Crab")).to_have_text("1")
    expect(page.locator("#deck-status")).to_contain_text("1")
    quiet(page)
    expect(_count(page, "Ironshell Crab")).to_have_text("1")   # and stays
    page.screenshot(path=str(ARTIFACTS / f"builder-first-plus-{width}.png"), full_page=True)


def test_the_card_panel_pages_through_every_card_and_keeps_its_page(browser, site):
    from playwright.sync_api import expect

    page = _builder(browser, site, 1280)
    pages = page.get_by_test_id("panel-pages")
    expect(pages).to_contain_text(re.compile(r"Cards 1–60 of \d{3}"))
    total = int(re.search(r"of (\d+)", pages.inner_text()).group(1))
    first_page = set(page.locator("#card-results .card-name > a").all_inner_texts())
    pages.get_by_role("link", name="Next →").click()
    expect(pages).to_contain_text(f"Cards 61–120 of {total}")
    page.wait_for_url(re.compile(r"page=2"))
    second_page = page.locator("#card-results .card-name > a").all_inner_texts()
    assert len(second_page) == 60 and not first_page & set(second_page)
    # A card of the second page is added, and the panel stays on the second page.
    name = next(n for n in second_page if _plus(page, n).count())
    _plus(page, name).click()
    expect(_count(page, name)).to_have_text("1")
    quiet(page)
    expect(pages).to_contain_text(f"Cards 61–120 of {total}")
    # The last page holds the rest, and a reload of its address shows it (no script needed).
    last = -(-total // 60)
    for number in range(3, last + 1):
        pages.get_by_role("link", name="Next →").click()
        expect(pages).to_contain_text(f"Cards {(number - 1) * 60 + 1}–")
    expect(pages.get_by_role("link", name="Next →")).to_have_count(0)
    quiet(page)
    page.reload()
    expect(pages).to_contain_text(f"of {total}")
    expect(pages).to_contain_text(f"Cards {(last - 1) * 60 + 1}–{total}")
    page.screenshot(path=str(ARTIFACTS / "builder-pages.png"), full_page=True)


@pytest.mark.parametrize("attribute", ["Light", "Dark"])
def test_the_quick_searches_offer_every_attribute(browser, site, attribute):
    from playwright.sync_api import expect

    page = _builder(browser, site, 1280)
    chips = page.get_by_role("paragraph").filter(has=page.locator("a.chip"))
    for name in ("Fire", "Water", "Grass", "Light", "Dark"):
        expect(chips.get_by_role("link", name=name, exact=True)).to_have_count(1)
    chips.get_by_role("link", name=attribute, exact=True).click()
    page.wait_for_url(re.compile(rf"q=a%3A{attribute.lower()}"))
    quiet(page)
    metas = page.locator("#card-results .card-meta").all_inner_texts()
    assert metas and all(attribute in meta for meta in metas), metas


def test_a_problems_remove_fix_is_one_click(browser, site):
    from playwright.sync_api import expect

    page = _builder(browser, site, 1280)
    box = page.get_by_label("Search cards")
    box.fill("Infernal Wyrm")
    box.press("Enter")
    quiet(page)
    plus = _plus(page, "Infernal Wyrm")
    for copies in ("1", "2"):
        plus.click()
        expect(_count(page, "Infernal Wyrm")).to_have_text(copies)
        quiet(page)
    problem = page.locator("#legality .problem[data-code=copy_limit]")
    fix = problem.get_by_role("button", name="Fix: remove 1 × Infernal Wyrm")
    expect(fix).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "builder-fix.png"), full_page=True)
    fix.click()
    expect(problem).to_have_count(0)
    expect(_count(page, "Infernal Wyrm")).to_have_text("1")
    # A fix the reader must choose ("add 29 more cards") stays words, not a button.
    expect(page.locator("#legality .problem[data-code=deck_too_small] button")).to_have_count(0)
    expect(page.locator("#legality .problem[data-code=deck_too_small] .problem-fix")
           ).to_contain_text("Fix: add")
