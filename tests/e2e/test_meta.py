"""The meta view of a round-robin in a real browser (Debian's headless Chromium driven by
Playwright), in English and in Chinese, at desktop (1280 px) and phone (390 px) width: every
text of its charts is inside the chart's box and no two of them overlap. Screenshots go to
artifacts/meta-*.png for a human to look at."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM
from tests.e2e.layout import CHART_TEXTS, SLACK, layout_problems

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


@pytest.fixture
def round_robin(live_server, transactional_db):
    """A public round-robin of four decks — two saved ones with long names, English and
    Chinese, and the test set's two starter decks — played by the service a worker calls."""
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from decks.drafts import Draft
    from decks.services import deck_create
    from rules.decks.cardset import TEST_SET
    from simulations.services import simulation_request
    from tests.simulations.helpers import DAWN, DUSK, LEGAL_CARDS, play_all

    card_set_import(source=TEST_SET)
    user = get_user_model().objects.create_user("tess", password="a-Long-passphrase-42")
    long_names = ("Tess's Endless Crusade of the Burning Dawn Above the Sea",
                  "晨曦十字军的漫长远征与燃烧之海的火焰卡组")
    decks = [deck_create(owner=user, draft=Draft(name=name, hero="T-H01",
                                                 cards=dict(LEGAL_CARDS), visibility="public"))
             for name in long_names]
    run = simulation_request(user=user, kind="round_robin",
                             deck_specs=[decks[0].uid, decks[1].uid, DAWN, DUSK], games=16,
                             agent_a="greedy", agent_b="greedy", seed=3, chunk_size=8,
                             is_public=True)
    play_all(run)
    return f"{live_server.url}{run.get_absolute_url()}"


@pytest.mark.parametrize("locale,heading", [("en-GB", "Meta: is this field healthy?"),
                                            ("zh-CN", "环境：这组卡组是否健康？")])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_meta_charts_fit_and_keep_their_labels_apart(browser, round_robin, locale, heading,
                                                        width):
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    page = context.new_page()
    page.goto(round_robin)
    section = page.get_by_test_id("meta")
    assert section.locator("h2").inner_text() == heading
    charts = section.evaluate(CHART_TEXTS)
    assert len(charts) == 2 and all(len(c["texts"]) > 8 for c in charts), charts
    assert not layout_problems(charts), "\n".join(layout_problems(charts))
    # Both charts are on screen at a readable size: as wide as the section allows, not more.
    section_box = section.bounding_box()
    for chart in charts:
        left, _, right, _ = chart["box"]
        assert section_box["x"] - SLACK <= left and right <= section_box["x"] + \
            section_box["width"] + SLACK
    ARTIFACTS.mkdir(exist_ok=True)
    section.screenshot(path=str(ARTIFACTS / f"meta-{locale[:2]}-{width}.png"))
    context.close()


def test_a_pairing_of_the_field_opens_with_its_charts_on_demand(browser, round_robin):
    """The page lists every pairing closed, without its charts (a six-deck field's page was
    527 KB); opening one loads its figures and charts in place, with the keyboard too."""
    page = browser.new_page()
    page.goto(round_robin)
    pairing = page.get_by_test_id("pairing").nth(2)
    assert pairing.locator("svg").count() == 0
    pairing.locator("summary").focus()
    page.keyboard.press("Enter")
    pairing.locator("section.matchup svg").first.wait_for()
    assert pairing.get_by_test_id("headline").inner_text()


def test_the_check_finds_overlaps_and_clipping():
    """The check itself, on boxes made to fail it."""
    chart = {"box": [0, 0, 100, 50], "texts": [
        {"label": "a", "box": [10, 10, 40, 20]}, {"label": "b", "box": [30, 15, 60, 25]},
        {"label": "c", "box": [90, 30, 120, 40]}, {"label": "d", "box": [60, 30, 89.8, 40]}]}
    found = layout_problems([chart])
    assert len(found) == 2
    assert "'c'" in found[0] and "clipped" in found[0]
    assert "'a'" in found[1] and "'b'" in found[1] and "overlaps" in found[1]


@pytest.fixture
def balance_search_page(live_server, transactional_db, settings):
    """A public balance search for a healthy meta over a field of three (the test set's two
    starter decks and a saved deck), run to the end by the service a worker calls."""
    from django.contrib.auth import get_user_model

    from balance import runner
    from balance.search.services import balance_job_request
    from cards.services import card_set_import
    from decks.drafts import Draft
    from decks.services import deck_create
    from rules.decks.cardset import TEST_SET
    from tests.simulations.helpers import DAWN, DUSK, LEGAL_CARDS

    settings.BALANCE_PIECE_BLOCKS = 2
    card_set_import(source=TEST_SET)
    user = get_user_model().objects.create_user("tess", password="a-Long-passphrase-42")
    third = deck_create(owner=user, draft=Draft(name="Tess's Mix", hero="T-H02",
                                                cards=dict(LEGAL_CARDS), visibility="public"))
    job = balance_job_request(user=user, objective="meta", deck_specs=[DAWN, DUSK, third.uid],
                              agent="random", max_changes=2, budget_games=2000,
                              verify_games=100, seed=5, fields=["hp"],
                              allowed_cards=["T-H01", "T-H02"], is_public=True)
    runner.job_execute(job_id=job.pk, claim="t", worker="test@host")
    return f"{live_server.url}{job.get_absolute_url()}"


@pytest.mark.parametrize("locale,titles", [
    ("en-GB", ("The meta of the unpatched field", "The meta with the best verified patch")),
    ("zh-CN", ("未改动环境的卡组生态", "复核后最佳补丁下的卡组生态"))])
def test_a_balance_search_shows_the_meta_of_its_field_unpatched_and_patched(
        browser, balance_search_page, locale, titles):
    context = browser.new_context(locale=locale, viewport={"width": 390, "height": 900},
                                  is_mobile=True)
    page = context.new_page()
    page.goto(balance_search_page)
    for section_id, title in zip(("meta-unpatched", "meta-best"), titles, strict=True):
        section = page.get_by_test_id(section_id)
        assert section.locator("h2").inner_text() == title
        assert section.get_by_test_id("meta-sentence").inner_text()
        assert section.locator("table.meta-table tbody tr").count() == 3
        charts = section.evaluate(CHART_TEXTS)
        assert len(charts) == 2 and all(len(c["texts"]) > 5 for c in charts), charts
        assert not layout_problems(charts), "\n".join(layout_problems(charts))
    ARTIFACTS.mkdir(exist_ok=True)
    page.get_by_test_id("meta-best").screenshot(
        path=str(ARTIFACTS / f"balance-meta-{locale[:2]}.png"))
    context.close()
