"""What the site's frame shows a person in a real browser (Debian's headless Chromium driven by
Playwright): the header's "Admin" link for staff alone, the account pages outside the Decks
section's sub-navigation, and the balance search's form showing the chosen objective's fields
(every field without the script) with ε typed in points (tests/balance/test_api_and_pages.py
checks that a search gets it as a share)."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import ARTIFACTS, PASSWORD, log_in

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

META_ONLY = ("#id_epsilon", "#id_min_share", "#id_field_band_low", "#id_matchup_band_high",
             "#id_strong_agent")
BAND_ONLY = ("#id_band_low", "#id_band_high")


def test_the_admin_link_shows_for_staff_alone(browser, site):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    admin = page.get_by_role("navigation", name="Main").get_by_role("link", name="Admin")
    page.goto(site)
    expect(admin).to_have_count(0)
    log_in(page, site)                                        # tess: a player, not staff
    page.goto(site)
    expect(admin).to_have_count(0)
    get_user_model().objects.filter(username="tess").update(is_staff=True)
    page.reload()
    expect(admin).to_have_count(1)


@pytest.mark.parametrize("path", ["/accounts/signup/", "/accounts/login/"])
def test_the_account_pages_sit_under_no_sections_sub_navigation(browser, site, path):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 390, "height": 800}, is_mobile=True)
    page.goto(f"{site}{path}")
    expect(page.locator("main h1")).to_have_count(1)
    expect(page.get_by_role("navigation", name="Decks")).to_have_count(0)
    expect(page.get_by_role("link", name="Public decks")).to_have_count(0)
    page.screenshot(path=str(ARTIFACTS / f"account{path.strip('/').replace('/', '-')}.png"),
                    full_page=True)


def test_the_balance_form_shows_the_chosen_objectives_fields(browser, site):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, site)
    page.goto(f"{site}/balance/new/")
    # A healthy meta is the default: its fields show, the band's do not.
    expect(page.locator("input[name=objective][value=meta]")).to_be_checked()
    for field in META_ONLY:
        expect(page.locator(field)).to_be_visible()
    for field in BAND_ONLY:
        expect(page.locator(field)).to_be_hidden()
    expect(page.get_by_label("ε (win-rate points a deck may give up)")).to_have_value("0.5")
    page.check("input[name=objective][value=band]")
    for field in BAND_ONLY:
        expect(page.locator(field)).to_be_visible()
    for field in META_ONLY:
        expect(page.locator(field)).to_be_hidden()
    page.screenshot(path=str(ARTIFACTS / "balance-form-band.png"), full_page=True)
    page.check("input[name=objective][value=meta]")
    expect(page.locator("#id_epsilon")).to_be_visible()
    expect(page.locator("#id_band_low")).to_be_hidden()


def test_without_the_script_the_balance_form_shows_every_field(browser, site):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))
    page.goto(f"{site}/balance/new/")
    for field in META_ONLY + BAND_ONLY:
        expect(page.locator(field)).to_be_visible()
