"""Other games in a real browser (Debian's headless Chromium): a legal Sorcery deck built only
from the card panel — the avatar, a 40-card spellbook and a 20-card atlas, each card put in
its pile by its + button — shown with its avatar, saved, and its page right; and a 斗巫师 list
whose heroes are cards of the deck imported as a legal deck. With this game's test set and
every other game loaded side by side. Screenshots in artifacts/other-games-*.png."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM, PASSWORD, log_in

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"
DECK_PAGE = re.compile(r"/decks/(?!build/|import/|compare/)[\w-]+/$")
# SCR.spellbook (at least 40 spells) within SCR.copies (ordinary 4, exceptional 3, elite 2).
SPELLBOOK = {"Pebble Squire": 4, "Marsh Lurker": 4, "Kite Rider": 4, "Cinder Hound": 4,
             "Hailstone": 4, "Second Wind": 4, "Low Fog": 4, "Brass Compass": 4,
             "Tide Oracle": 3, "Quake Call": 3, "Storm Colossus": 2}
# SCR.atlas: at least 20 sites.
ATLAS = {"Windy Hill": 4, "Still Lake": 4, "Red Quarry": 4, "Old Cairn": 4, "Salt Flat": 4}

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def site(live_server):
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from cards.services import card_set_import
    from decks.formats.standard import format_standard_create
    from rules.decks.cardset import TEST_SET

    # The standard format comes from a migration, which an earlier browser test's flush of the
    # database removed: made again as `migrate` makes it.
    format_standard_create()
    card_set_import(source=TEST_SET)
    call_command("load_formats", *sorted(str(p) for p in GAMES.glob("*.yaml")),
                 stdout=io.StringIO())
    get_user_model().objects.create_user("tess", password=PASSWORD)
    return live_server.url


def add(page, name: str, pile: str, times: int) -> None:
    """Press a card's + button in the card panel ``times`` times, waiting after each press for
    the pile's size and the card panel's count of the card (as a person would see them)."""
    from playwright.sync_api import expect

    button = page.get_by_role("button", name=f"Add one {name}", exact=True)
    in_deck = page.locator(".card-row", has=button).locator(".in-deck span").first
    size = page.get_by_test_id(f"pile-count-{pile}")
    for _ in range(times):
        before, copies = int(size.inner_text().split("/")[0]), int(in_deck.inner_text())
        button.click()
        expect(size).to_have_text(re.compile(rf"^{before + 1} / "))
        expect(in_deck).to_have_text(str(copies + 1))


def test_SCR_piles_a_legal_sorcery_deck_built_from_the_card_panel(site, browser):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    log_in(page, site)
    page.goto(f"{site}/decks/build/")
    # The standard format: this game's cards; no other game's card is offered.
    expect(page.locator("#card-results")).not_to_contain_text("Pebble Squire")

    page.get_by_text("Name, description, format and visibility").click()
    page.get_by_label("Name").fill("Lantern Sites")
    page.get_by_label("Format").select_option("sorcery")
    page.get_by_role("button", name="Apply").click()
    # Another game: the builder is drawn again for it, the card panel lists Sorcery's cards.
    expect(page.get_by_test_id("deck-piles")).to_be_visible()
    expect(page.locator("#card-results")).to_contain_text("Lantern Warden")
    expect(page.locator("#card-results")).not_to_contain_text("Ember Pup")
    expect(page.locator("#hero-select option").first).to_have_text(
        "— choose a card for Avatar —")

    add(page, "Lantern Warden", "avatar", 1)
    for name, copies in SPELLBOOK.items():
        add(page, name, "spellbook", copies)
    for name, copies in ATLAS.items():
        add(page, name, "atlas", copies)

    expect(page.get_by_test_id("pile-count-avatar")).to_have_text("1 / 1")
    expect(page.get_by_test_id("pile-count-spellbook")).to_have_text("40 / ≥ 40")
    expect(page.get_by_test_id("pile-count-atlas")).to_have_text("20 / ≥ 20")
    expect(page.locator("#legality")).to_contain_text(
        "This deck follows every rule of Sorcery constructed.")
    status = page.locator("#deck-status")
    expect(status).to_contain_text("61 cards")
    expect(status).to_contain_text("Lantern Warden")
    expect(status).not_to_contain_text("hero")
    expect(page.locator("#hero-select")).to_have_value("SC-A01")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "other-games-sorcery-built.png"), full_page=True)

    page.get_by_role("button", name="Save deck").click()
    page.wait_for_url(DECK_PAGE)
    expect(page.get_by_role("heading", name="Lantern Sites", level=1)).to_be_visible()
    expect(page.locator(".hero-line")).to_contain_text("Avatar: Lantern Warden")
    expect(page.locator("#legality")).to_contain_text("follows every rule")
    expect(page.get_by_test_id("deck-pile-spellbook")).to_contain_text("40 / ≥ 40")
    expect(page.get_by_test_id("deck-pile-atlas")).to_contain_text("20 / ≥ 20")
    expect(page.locator("main")).not_to_contain_text("No cards.")
    expect(page.get_by_test_id("tune-deck")).to_have_count(0)
    expect(page.get_by_test_id("stats-scope")).to_have_text(
        "Counted over every pile: Spellbook, Atlas.")
    page.screenshot(path=str(ARTIFACTS / "other-games-sorcery-page.png"), full_page=True)


DW_LIST = ("2x Ashen Duelist\n1x Brine Sage\n2x Tin Sabre\n2x Reed Bow\n2x Moth Cloak\n"
           "2x Clay Buckler\n2x Lantern Staff\n2x Twin Daggers\n1x Iron Gauntlet\n"
           "2x Spark Rain\n2x Mending Mist\n2x Sudden Frost\n2x Echo Step\n2x Bounty Call\n"
           "2x Dust Veil\n2x Loud Omen\n")


def test_DW_hero_a_duel_wizards_list_with_heroes_in_the_deck_imports(site, browser):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{site}/decks/import/")
    help_panel = page.locator("#import-help")
    expect(help_panel).to_contain_text("Format: standard")
    # Choosing the format shows its game's examples: heroes are cards of this deck.
    page.get_by_label("Format", exact=True).select_option("duwushi")
    expect(page.get_by_test_id("import-heroes-in-deck")).to_contain_text("2x Ashen Duelist")
    expect(help_panel).to_contain_text("Format: duwushi")
    page.get_by_label("Deck list or deck code").fill(DW_LIST)
    page.get_by_role("button", name="Import into the builder").click()
    page.wait_for_url("**/decks/build/")
    status = page.locator("#deck-status")
    expect(status).to_contain_text("30 cards")
    expect(status).to_contain_text("legal")
    expect(status).not_to_contain_text("hero")
    expect(page.locator("#legality")).to_contain_text("This deck follows every rule of "
                                                      "Duel Wizards.")
    expect(page.get_by_test_id("pile-count-deck")).to_have_text("30 / ≥ 30")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "other-games-duwushi-imported.png"), full_page=True)
