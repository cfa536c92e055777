"""A round-robin's meta beside the same field played by another agent, in a real browser
(Debian's headless Chromium driven by Playwright), in English and in Chinese, at desktop and
phone width: the run names its agents' level of play, the reader follows the link to the other
agent's run of the field, and both metas stand side by side."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


@pytest.fixture
def two_levels(live_server, transactional_db):
    """One public field of three decks played twice: greedy on both sides, random on both."""
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from decks.drafts import Draft
    from decks.services import deck_create
    from rules.decks.cardset import TEST_SET
    from simulations.services import simulation_request
    from tests.simulations.helpers import DAWN, DUSK, LEGAL_CARDS, play_all

    card_set_import(source=TEST_SET)
    user = get_user_model().objects.create_user("tess", password="a-Long-passphrase-42")
    deck = deck_create(owner=user, draft=Draft(name="Tess's Crusade", hero="T-H01",
                                               cards=dict(LEGAL_CARDS), visibility="public"))
    runs = []
    for agent in ("random", "greedy"):
        run = simulation_request(user=user, kind="round_robin",
                                 deck_specs=[deck.uid, DAWN, DUSK], games=16, agent_a=agent,
                                 agent_b=agent, seed=3, chunk_size=8, is_public=True)
        play_all(run)
        runs.append(run)
    return f"{live_server.url}{runs[1].get_absolute_url()}"


@pytest.mark.parametrize("locale,skill,other", [("en-GB", "casual play", "Random"),
                                                ("zh-CN", "休闲水平", "随机")])
@pytest.mark.parametrize("width", [1280, 390])
def test_a_run_compares_its_meta_with_the_same_field_under_another_agent(
        browser, two_levels, locale, skill, other, width):
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    page = context.new_page()
    page.goto(two_levels)
    assert skill in page.get_by_test_id("run-skill").inner_text()
    assert skill in page.get_by_test_id("meta-played-by").inner_text()
    section = page.get_by_test_id("skill-compare")
    section.get_by_test_id("versus-link").click()
    page.wait_for_url("**?versus=*")
    table = page.get_by_test_id("skill-table")
    assert table.is_visible()
    assert table.locator("tbody tr").count() == 3
    assert other in table.locator("thead").inner_text()
    # the table scrolls inside its own box on a phone: the page itself does not
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    ARTIFACTS.mkdir(exist_ok=True)
    page.get_by_test_id("skill-compare").screenshot(
        path=str(ARTIFACTS / f"skill-{locale[:2]}-{width}.png"))
    context.close()
