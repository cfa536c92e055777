"""The catalogue in a real browser (Debian's headless Chromium driven by Playwright): open the
gallery, type a query, filter, open a card page, see the card image; the designer's admin;
screenshots go to artifacts/ for a human to look at."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM
from tests.e2e.network import quiet, track_requests

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


@pytest.fixture
def catalogue(live_server, transactional_db):
    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    card_set_import(source=TEST_SET)
    return live_server.url


def gallery_codes(page) -> list[str]:
    hrefs = page.locator("#results a.gallery-card").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")
    return [href.strip("/").split("/")[-1] for href in hrefs]


def image_loaded(page, selector: str) -> bool:
    return page.locator(selector).first.evaluate("img => img.complete && img.naturalWidth > 0")


def test_browse_query_filter_and_open_a_card(browser, catalogue):
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    track_requests(page)

    page.goto(f"{catalogue}/cards/")
    assert len(gallery_codes(page)) == 22
    page.wait_for_function("[...document.querySelectorAll('#results img')].slice(0, 6)"
                           ".every(img => img.complete && img.naturalWidth > 0)")
    page.screenshot(path=str(ARTIFACTS / "catalogue-gallery.png"), full_page=False)

    # Type a query: "/" jumps to the box, Enter searches, the URL keeps the query.
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("k:minion a:fire")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"q=k%3Aminion\+a%3Afire|q=k%3Aminion%20a%3Afire"))
    page.wait_for_function("document.querySelectorAll('#results a.gallery-card').length == 2")
    quiet(page)
    assert gallery_codes(page) == ["T-M01", "T-M06"]
    # The address holds only what was asked: no empty filter fields.
    assert not re.search(r"[?&][a-z_]+=(&|$)", page.url), page.url
    assert "kind is minion and attribute is fire" in page.inner_text("#results")

    # Filter: tick a keyword; the results and the URL follow.
    page.get_by_label("Regenerate").check()
    page.wait_for_url(re.compile(r"keyword=regenerate"))
    page.wait_for_function("document.querySelectorAll('#results a.gallery-card').length == 1")
    quiet(page)
    assert gallery_codes(page) == ["T-M06"]

    # The address holds the whole query: reloading it shows the same page.
    page.reload()
    assert gallery_codes(page) == ["T-M06"]
    assert page.input_value("#q") == "k:minion a:fire"
    assert page.is_checked("input[name=keyword][value=regenerate]")

    # A malformed query says what and where, and shows no cards.
    page.fill("#q", "a:fire)")
    page.keyboard.press("Enter")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "has no matching" in alert.inner_text()
    assert page.locator("#results mark").inner_text() == ")"
    page.screenshot(path=str(ARTIFACTS / "catalogue-query-error.png"))

    # Back to a good query, then open the card with the keyboard.
    page.fill("#q", "phoenix")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#results a.gallery-card').length == 1")
    quiet(page)    # the search box's debounced request must not replace the card being opened
    page.locator("#results a.gallery-card").first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/cards/T-M06/$"))
    assert page.locator("h1").inner_text() == "Ash Phoenix"
    svg = page.locator("#card-image svg")
    box = svg.bounding_box()
    assert box and box["width"] > 200 and box["height"] > 280
    assert "Ash Phoenix" in svg.text_content()
    assert "Regenerate." in svg.text_content()
    assert page.get_by_text("No simulated games have played this card yet").is_visible()
    assert image_loaded(page, ".neighbours img")
    page.screenshot(path=str(ARTIFACTS / "catalogue-card.png"), full_page=True)

    # The table view, sorted from its header.
    page.goto(f"{catalogue}/cards/?view=table&q=k:minion")
    page.get_by_role("link", name="Attack").click()
    page.wait_for_url(re.compile(r"order=attack"))
    page.get_by_role("link", name=re.compile("Attack")).click()
    page.wait_for_url(re.compile(r"order=-attack"))
    first = page.locator(".card-table tbody tr").first.locator("td").first.inner_text()
    assert first == "T-M12"
    page.screenshot(path=str(ARTIFACTS / "catalogue-table.png"))
    # At 1280 px nothing is clipped: the table fits its box, rules text included.
    fits = page.locator(".table-wrap").first.evaluate("w => w.scrollWidth <= w.clientWidth")
    assert fits, "the table is wider than its box"
    rules = page.locator(".card-table td.rules-cell").first.bounding_box()
    box = page.locator(".table-wrap").first.bounding_box()
    assert rules["x"] + rules["width"] <= box["x"] + box["width"]
    page.close()


def test_phone_width_layout(browser, catalogue):
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(f"{catalogue}/cards/?q=k:minion")
    assert not page.is_visible("input[name=kind]")            # filters folded on a phone
    page.locator("#filters summary").click()
    assert page.is_visible("input[name=kind]")
    page.locator("#filters summary").click()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "the page scrolls sideways on a phone"
    page.screenshot(path=str(ARTIFACTS / "catalogue-phone.png"))
    page.goto(f"{catalogue}/cards/T-H01/?lang=zh")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert "炎之守望者" in page.locator("#card-image svg").text_content()
    page.screenshot(path=str(ARTIFACTS / "catalogue-card-phone.png"), full_page=True)
    page.close()


def test_help_links_run_their_query_and_lead_to_the_vocabulary(browser, catalogue):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{catalogue}/cards/help/")
    page.screenshot(path=str(ARTIFACTS / "catalogue-help.png"), full_page=True)
    # Every example is made from the loaded cards and finds some of them.
    rows = page.locator("[data-testid=examples] tbody tr")
    assert rows.count() >= 10
    for row in rows.all():
        assert int(row.locator("td.num").inner_text()) > 0, row.inner_text()
    example = rows.nth(3).locator("code").inner_text()
    expected = rows.nth(3).locator("td.num").inner_text()
    rows.nth(3).get_by_role("link").click()
    page.wait_for_url(re.compile(r"/cards/\?q="))
    assert page.input_value("#q") == example
    assert page.locator("#results a.gallery-card").count() == int(expected)
    page.go_back()
    page.get_by_role("link", name="vocabulary reference").click()
    page.wait_for_url(re.compile(r"/cards/vocabulary/$"))
    assert page.locator("#effect-draw").is_visible()
    page.screenshot(path=str(ARTIFACTS / "catalogue-vocabulary.png"))
    page.close()


def test_designer_edits_an_ability_and_sees_the_engines_verdict(browser, catalogue,
                                                                django_user_model):
    django_user_model.objects.create_superuser("designer", "d@example.com", "pw-designer-1")
    page = browser.new_page(viewport={"width": 1280, "height": 1000}, accept_downloads=True)
    page.goto(f"{catalogue}/admin/login/?next=/admin/cards/card/")
    page.fill("#id_username", "designer")
    page.fill("#id_password", "pw-designer-1")
    page.click("input[type=submit]")
    page.wait_for_url(re.compile(r"/admin/cards/card/$"))

    page.fill("#searchbar", "squire")
    page.keyboard.press("Enter")
    page.get_by_role("link", name="T-M04").click()
    page.wait_for_selector("#id_abilities")
    bad = [{"trigger": "awaken", "effects": [{"do": "draw", "count": "two"}]}]
    page.fill("#id_abilities", json.dumps(bad))
    page.click("input[name=_continue]")
    error = page.locator(".field-abilities .errorlist")
    assert "abilities[0].effects[0].count" in error.inner_text()
    page.screenshot(path=str(ARTIFACTS / "catalogue-admin-error.png"), full_page=True)

    good = [{"trigger": "awaken", "effects": [{"do": "draw", "count": 2}]}]
    page.fill("#id_abilities", json.dumps(good, indent=2))
    page.click("input[name=_continue]")
    page.wait_for_selector(".messagelist .success")
    assert "Awaken: Draw 2 cards." in page.locator(".field-rules_text").inner_text()
    assert "抽2张卡" in page.locator(".field-rules_text").inner_text()
    page.screenshot(path=str(ARTIFACTS / "catalogue-admin-card.png"), full_page=True)

    page.goto(f"{catalogue}/admin/cards/cardset/")
    assert page.get_by_role("link", name="Import a card set (YAML)").is_visible()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download YAML").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert "T-M04" in text and "count: 2" in text
    page.close()
