"""A finished meta forecast's page in a real browser (Debian's headless Chromium driven by
Playwright), at a phone's width (390 px) and a desktop's, in English and Chinese: no serious
axe violation, nothing wider than the window but the scrolling tables and chart, the chart of
the meta drawn, each archetype's verdict under two agents, the cards adopted and dropped shown
with their art. A screenshot goes to
artifacts/ for a human to look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.axe import axe_problems
from tests.e2e.conftest import ARTIFACTS, CHROMIUM

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")

WIDER_THAN_WINDOW = """() => [...document.querySelectorAll('body *')].filter(e => {
  if (e.closest('.table-wrap, .chart-figure')) return false;
  const box = e.getBoundingClientRect();
  return box.width > 0 && box.right > window.innerWidth + 1;
}).map(e => e.tagName + '.' + e.className).slice(0, 5)"""


@pytest.fixture
def forecast(live_server, transactional_db, settings):
    from django.contrib.auth import get_user_model

    from balance import runner
    from balance.forecast.services import forecast_job_request
    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    settings.BALANCE_PIECE_BLOCKS = 2
    card_set_import(source=TEST_SET)
    ada = get_user_model().objects.create_user("ada", password="pw-forecast-1")
    job = forecast_job_request(
        user=ada, deck_specs=["starter:Dawn Test", "starter:Dusk Test"], agent="greedy",
        max_changes=3, max_rounds=2, budget_games=20_000, verify_games=100,
        tune_games=2_000, round_games=100, final_games=100, swaps_per_round=1,
        exploit_swaps=1, seed=3, is_public=True, further_agents=("random",))
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    return f"{live_server.url}{job.get_absolute_url()}"


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("width", [390, 1280])
def test_a_forecasts_page_reads_on_a_phone_and_a_desktop(browser, forecast, locale, width):
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 900},
                                  is_mobile=width < 500)
    page = context.new_page()
    page.goto(forecast)
    assert page.get_by_test_id("meta-chart").locator("svg polyline").count() == 2
    assert page.get_by_test_id("settled").count() == 1
    assert page.get_by_test_id("exploit").count() == 1
    assert page.get_by_test_id("verdicts").locator("tbody tr").count() == 2   # two agents
    moved = page.locator(".card-moves img")
    if moved.count():                                   # the card's art loads
        moved.first.scroll_into_view_if_needed()
        assert moved.first.evaluate("i => i.decode().then(() => i.naturalWidth)") > 0
    assert page.evaluate(WIDER_THAN_WINDOW) == []
    assert axe_problems(page) == []
    page.screenshot(path=str(ARTIFACTS / f"forecast-{width}-{locale}.png"), full_page=True)
    context.close()
