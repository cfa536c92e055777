"""A deck in two piles in the builder (Debian's headless Chromium): a Sorcery deck — an avatar
beside a spellbook and an atlas — loaded by its deck code, checked pile by pile, completed with
the card panel's + button (which puts a site in the atlas and a spell in the spellbook) and
legal; the page says the game is not simulated. The catalogue filters the sample set by its
game and its declared kinds. Screenshots in artifacts/piles-*.png and
artifacts/catalogue-other-game.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]

SPELLBOOK = {"SC-S01": 4, "SC-S02": 4, "SC-S03": 4, "SC-S04": 4, "SC-S05": 4, "SC-S06": 4,
             "SC-S07": 4, "SC-S08": 4, "SC-E01": 3, "SC-E02": 3, "SC-L01": 2}
ATLAS_19 = {"SC-T01": 4, "SC-T02": 4, "SC-T03": 4, "SC-T04": 4, "SC-T05": 3}


@pytest.fixture
def site(live_server):
    from django.core.management import call_command

    call_command("load_formats", str(GAMES / "sorcery.yaml"), stdout=None)
    return live_server.url


def test_building_a_spellbook_and_atlas_deck_shows_its_validation(site, browser):
    from playwright.sync_api import expect

    from rules.decks.deckcode import encode_deck_code
    from rules.decks.legality import Deck

    code = encode_deck_code(Deck(heroes=("SC-A01",), counts=SPELLBOOK,
                                 piles={"atlas": ATLAS_19}), format_code="sorcery")
    page = browser.new_page()
    page.goto(f"{site}/decks/build/?q=s:sorcery-sample")
    page.fill("#paste-code-input", code)
    page.get_by_role("button", name="Load").click()

    piles = page.get_by_test_id("deck-piles")
    expect(piles).to_be_visible()
    expect(page.get_by_test_id("pile-count-avatar")).to_have_text("1 / 1")
    expect(page.get_by_test_id("pile-count-spellbook")).to_have_text("40 / ≥ 40")
    expect(page.get_by_test_id("pile-count-atlas")).to_have_text("19 / ≥ 20")
    problem = page.locator("#legality .problem")
    expect(problem).to_have_count(1)
    expect(problem.first).to_contain_text("Atlas: 19 cards; the Sorcery constructed format "
                                          "needs at least 20.")
    expect(problem.first).to_contain_text("add 1 more card to Atlas")
    expect(page.locator("#deck-panel").get_by_test_id("not-simulated")).to_be_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "piles-atlas-short.png"), full_page=True)

    def in_deck(name: str):
        """The card panel's count of a card: it refreshes after each change (wait for it
        before the next click, as a person would see it)."""
        button = page.get_by_role("button", name=f"Add one {name}", exact=True)
        return page.locator(".card-row", has=button).locator(".in-deck span").first

    # A site from the card panel goes to the atlas: the deck is legal.
    expect(in_deck("Salt Flat")).to_have_text("3")
    page.get_by_role("button", name="Add one Salt Flat", exact=True).click()
    expect(page.get_by_test_id("pile-count-atlas")).to_have_text("20 / ≥ 20")
    expect(in_deck("Salt Flat")).to_have_text("4")
    expect(page.locator("#legality")).to_contain_text("This deck follows every rule of "
                                                      "Sorcery constructed.")

    # A fifth ordinary spell goes to the spellbook and breaks the copy limit by rarity.
    page.get_by_role("button", name="Add one Pebble Squire", exact=True).click()
    expect(page.get_by_test_id("pile-count-spellbook")).to_have_text("41 / ≥ 40")
    expect(in_deck("Pebble Squire")).to_have_text("5")
    expect(page.locator("#legality .problem")).to_contain_text(
        "Pebble Squire: 5 copies — Ordinary cards are limited to 4.")
    page.screenshot(path=str(ARTIFACTS / "piles-copy-limit.png"), full_page=True)

    # Taking it back out of the spellbook makes the deck legal again.
    page.get_by_role("button", name="Remove one Pebble Squire from Spellbook").click()
    expect(page.get_by_test_id("pile-count-spellbook")).to_have_text("40 / ≥ 40")
    expect(in_deck("Pebble Squire")).to_have_text("4")
    expect(page.locator("#legality")).to_contain_text("This deck follows every rule")
    expect(page.locator("#deck-status")).to_contain_text("61 cards")
    page.screenshot(path=str(ARTIFACTS / "piles-legal.png"), full_page=True)
    assert "simulations/new" not in page.content()


def test_the_catalogue_filters_another_games_cards_by_game_and_declared_kind(site, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{site}/cards/")
    page.check("input[name=game][value=sorcery]")
    page.wait_for_url(lambda url: "game=sorcery" in url)
    page.check("input[name=kind][value=site]")
    page.wait_for_url(lambda url: "kind=site" in url)
    page.wait_for_function("document.querySelectorAll('#results a.gallery-card').length == 6")
    hrefs = page.locator("#results a.gallery-card").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")
    assert sorted(h.strip("/").split("/")[-1] for h in hrefs) == [
        "SC-T01", "SC-T02", "SC-T03", "SC-T04", "SC-T05", "SC-T06"]
    # The query language knows the kind by its Chinese name and the tiers in Sorcery's order.
    page.fill("#q", "k:地标 r>=elite")
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelectorAll('#results a.gallery-card').length == 1")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "catalogue-other-game.png"), full_page=False)
