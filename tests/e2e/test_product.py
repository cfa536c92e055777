"""The walk of a new user, in a real browser (Debian's headless Chromium driven by Playwright):
home → starter decks → a starter deck's page → share it → paste its code into the builder →
a finished run's lists, what-if and replay. Screenshots go to artifacts/ for a human to look at;
the shared fixture fails any test whose pages log a console error.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import CHROMIUM, PASSWORD, log_in, shot
from tests.e2e.network import quiet, track_requests

CODE = re.compile(r"\bT-[HMI]\d\d\b")

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed"),
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]


@pytest.fixture
def site(live_server):
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    card_set_import(source=TEST_SET)
    get_user_model().objects.create_user("tess", "tess@example.com", PASSWORD)
    return live_server.url


@pytest.fixture
def finished_run(site):
    """A played match of Tess's copy of a starter deck against the other starter deck."""
    from django.contrib.auth import get_user_model

    from decks.services import deck_create
    from decks.starters.selectors import starter_get
    from simulations.services import simulation_request
    from tests.simulations.helpers import play_all

    tess = get_user_model().objects.get(username="tess")
    deck = deck_create(owner=tess, draft=starter_get(slug="dawn-test").draft())
    run = simulation_request(user=tess, deck_specs=[deck.uid, "starter:Dusk Test"],
                             kind="match", games=12, agent_a="greedy", agent_b="random",
                             seed=4, chunk_size=4)
    play_all(run)
    return run, deck


def test_starter_decks_are_decks_to_open_share_and_build_from(browser, console, site):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    track_requests(page)

    # Home: "Build a deck" opens the builder; the starter decks are one click away.
    page.goto(f"{site}/")
    page.get_by_role("link", name="Start from a starter deck").click()
    starters = page.get_by_test_id("starter-decks")
    expect(starters).to_be_visible()
    assert "Dawn Test" in starters.inner_text() and "Flame Warden" in starters.inner_text()
    shot(page, "product-starter-list")

    # A starter deck opens like any deck: hero, cards, legality, downloads.
    starters.get_by_role("link", name="Dawn Test").click()
    page.wait_for_url(re.compile(r"/decks/starter/dawn-test/$"))
    expect(page.get_by_role("heading", name="Dawn Test", exact=True)).to_be_visible()
    assert "follows every rule" in page.locator("#legality").inner_text()
    assert page.locator("table.entries tbody tr").count() == 11

    # Hovering a card name shows the card.
    page.locator("table.entries a.card-link").first.hover()
    preview = page.locator(".card-preview img")
    expect(preview).to_be_visible()
    page.wait_for_function("document.querySelector('.card-preview img').naturalWidth > 0")
    shot(page, "product-starter-deck-hover", full_page=False)

    # Copy the link and the deck code.
    page.get_by_test_id("copy-link").click()
    expect(page.get_by_test_id("copy-link")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()").endswith("/decks/starter/dawn-test/")
    page.get_by_test_id("copy-code").click()
    expect(page.get_by_test_id("copy-code")).to_have_text("Copied")
    code = page.evaluate("navigator.clipboard.readText()")
    assert code == page.input_value("#share-code") and len(code) > 20

    # Paste the code straight into an empty builder.
    page.goto(f"{site}/decks/build/")
    page.get_by_label("Paste a deck code").fill(code)
    page.get_by_role("button", name="Load").click()
    expect(page.locator("#deck-panel")).to_contain_text("30/30")
    quiet(page)
    assert page.locator("#hero-select").input_value() == "T-H01"
    assert "follows every rule" in page.locator("#legality").inner_text()
    shot(page, "product-builder-pasted-code")

    # A damaged code says so (a 400 answer, on purpose) and changes nothing.
    console.allow(r"status of 400 .*/decks/build/new/code/")
    page.get_by_label("Paste a deck code").fill(code[:-3] + "AAA")
    page.get_by_role("button", name="Load").click()
    expect(page.locator("#deck-panel [role=alert]").first).to_contain_text("damaged")
    expect(page.locator("#deck-panel")).to_contain_text("30/30")

    # Copy a starter deck into the builder from its page.
    page.goto(f"{site}/decks/starter/dusk-test/")
    page.get_by_role("button", name="Copy to the builder").click()
    page.wait_for_url(re.compile(r"/decks/build/$"))
    expect(page.locator("#deck-panel")).to_contain_text("Dusk Test")
    assert page.locator("#hero-select").input_value() == "T-H02"
    context.close()


def test_runs_show_status_agents_rates_what_if_and_readable_replays(browser, site,
                                                                   finished_run):
    from playwright.sync_api import expect

    run, deck = finished_run
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    track_requests(page)
    log_in(page, site)

    # The runs list and the deck page's panel: agents and deck A's win rate.
    page.goto(f"{site}/simulations/")
    rate = page.get_by_test_id("win-rate").first.inner_text()
    assert re.fullmatch(r"\d+\.\d % of 12", rate), rate
    assert "greedy (A) vs random" in page.locator("table.run-table").inner_text()
    shot(page, "product-run-list")
    page.goto(f"{site}/decks/{deck.uid}/")
    assert page.get_by_test_id("panel-win-rate").inner_text() == f"wins {rate}"

    # The run page: one status, the ruleset in words, names not codes.
    page.goto(f"{site}{run.get_absolute_url()}")
    assert page.locator("#run-status").inner_text() == "Done"
    assert page.get_by_test_id("ruleset").inner_text().strip() == \
        "Standard rules, as in the rule book."

    # What-if: only the chosen deck's cards to swap out, swap-ins found by query.
    form = page.locator("#what-if-form")
    outs = form.locator("#id_card_out option").all_inner_texts()
    assert any(o.startswith("Thorn Boar ×") for o in outs)
    assert not any(o.startswith("Tide Caller") for o in outs)          # a Dusk Test card
    form.locator("#id_deck").select_option(label="Dusk Test")
    expect(form.locator("#id_card_out")).to_contain_text("Tide Caller")
    quiet(page)
    assert not any(o.startswith("Thorn Boar ×")
                   for o in page.locator("#id_card_out option").all_inner_texts())
    page.locator("#id_card_out").select_option("T-M09")           # Tide Caller
    quiet(page)
    page.get_by_label("Find the card to swap in").fill("a:fire k:minion")
    quiet(page)
    candidates = page.get_by_test_id("candidates")
    expect(candidates.locator("label")).to_have_count(2)
    assert "Ember Pup" in candidates.inner_text() and "Tide Caller" not in candidates.inner_text()
    shot(page, "product-what-if-form", full_page=False)
    candidates.get_by_text("Ember Pup").click()
    page.get_by_role("button", name="Run the what-if").click()
    page.wait_for_url(re.compile(r"/simulations/[\w-]+/$"))
    heading = page.locator("h1").inner_text()
    assert "what if Tide Caller → Ember Pup" in heading and not CODE.search(heading)

    # A replay reads as sentences.
    page.goto(f"{site}{run.get_absolute_url()}replays/1/?step=30")
    events = page.get_by_test_id("events").inner_text()
    assert re.search(r"▶ P[12]: ", events) and not CODE.search(events)
    shot(page, "product-replay")


def test_forgotten_password_profile_and_password_change(browser, site):
    from django.core import mail
    from playwright.sync_api import expect

    new_password = "a-New-and-longer-passphrase-99"
    page = browser.new_page(viewport={"width": 1280, "height": 900})

    # Forgot the password: the log-in page links to the reset; the link arrives by e-mail.
    page.goto(f"{site}/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("E-mail address").fill("tess@example.com")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    link = re.search(r"http://\S+/accounts/password/reset/\S+/", mail.outbox[-1].body).group(0)
    page.goto(link)
    expect(page.get_by_role("heading", name="Choose a new password")).to_be_visible()
    page.get_by_label("New password", exact=True).fill(new_password)
    page.get_by_label("New password confirmation").fill(new_password)
    shot(page, "product-password-reset")
    page.get_by_role("button", name="Set the password").click()
    expect(page.get_by_role("heading", name="Password changed")).to_be_visible()

    # Log in with it; the header leads to the profile.
    page.goto(f"{site}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", new_password)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))
    page.locator(".site-nav").get_by_role("link", name="tess").click()
    expect(page.get_by_role("heading", name="tess")).to_be_visible()
    assert "No decks yet" in page.inner_text("main")
    shot(page, "product-profile")

    # Change the password from the profile.
    page.get_by_role("link", name="Change your password").click()
    page.get_by_label("Old password").fill(new_password)
    page.get_by_label("New password", exact=True).fill(PASSWORD)
    page.get_by_label("New password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Change the password").click()
    expect(page.locator(".messages")).to_contain_text("Your password is changed.")


def test_every_card_has_its_own_picture_and_named_keywords(browser, site):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{site}/cards/?q=k%3Aminion")
    page.wait_for_function("[...document.querySelectorAll('#results img')]"
                           ".every(img => img.complete && img.naturalWidth > 0)")
    sources = page.locator("#results img").evaluate_all("imgs => imgs.map(i => i.src)")
    assert len(sources) >= 10
    pictures = page.evaluate("""async urls => Promise.all(urls.map(async u => {
        const svg = await (await fetch(u)).text();
        // the art window only: between its clip path and the type line
        return svg.slice(svg.indexOf('-window'), svg.indexOf('type line'))
                  .replace(/url\\(#[^)]*\\)|id="[^"]*"/g, '');
    }))""", sources)
    assert len(set(pictures)) == len(pictures), "two minions share a picture"
    shot(page, "product-gallery-art", full_page=False)

    page.goto(f"{site}/cards/T-M05/")
    keywords = page.locator("dt:text('Keywords') + dd").inner_text()
    assert keywords == "Re-act"
    shot(page, "product-card-page", full_page=False)


def test_the_builder_panel_sorts_filters_and_keeps_its_query(browser, site):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    track_requests(page)
    page.goto(f"{site}/decks/build/")
    page.select_option("#hero-select", "T-H01")                     # Flame Warden: fire
    expect(page.locator("#deck-panel")).to_contain_text("Flame Warden")
    quiet(page)
    page.get_by_label("Only the hero's attribute, and items").check()
    quiet(page)
    page.select_option("#card-order", "name")
    quiet(page)
    page.wait_for_url(re.compile(r"/decks/build/\?(?=.*order=name)(?=.*hero_only=1)"))
    metas = page.locator("#card-results .card-meta").all_inner_texts()
    assert metas and all("fire" in m.lower() or "item" in m.lower() for m in metas), metas
    names = page.locator("#card-results .card-name > a").all_inner_texts()
    assert names == sorted(names, key=str.casefold)
    page.locator("#card-results .card-name > a").first.hover()
    expect(page.locator(".card-preview img")).to_be_visible()
    shot(page, "product-builder-panel", full_page=False)

    page.reload()
    assert page.locator("#card-order").input_value() == "name"
    assert page.get_by_label("Only the hero's attribute, and items").is_checked()
    assert page.locator("#card-results .card-name > a").all_inner_texts() == names
