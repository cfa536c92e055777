"""The AI players' strength table and the simulation form's time estimate, in a real browser
(Debian's headless Chromium driven by Playwright). Screenshots go to artifacts/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import ARTIFACTS, CHROMIUM

PASSWORD = "a-Long-and-unusual-passphrase-42"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


@pytest.fixture
def site(live_server, transactional_db):
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    card_set_import(source=TEST_SET)
    get_user_model().objects.create_user("tess", password=PASSWORD)
    return live_server.url


def _log_in(page, url: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))


def test_the_strength_table_rates_every_agent_best_first(browser, site):
    from simulations.agents.strength import agent_strength

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{site}/simulations/")
    page.get_by_role("link", name="AI players").click()
    page.wait_for_url(re.compile(r"/simulations/agents/$"))
    assert page.locator("h1").inner_text() == "AI players and their strength"
    rows = page.locator("[data-testid=strength-table] tbody tr")
    stored = [r["name"] for r in agent_strength()["ratings"]]
    assert [rows.nth(i).get_attribute("data-agent") for i in range(rows.count())] == stored
    elos = [float(e) for e in page.locator("[data-testid=elo]").all_inner_texts()]
    assert elos == sorted(elos, reverse=True)
    assert page.locator("#agent-random").get_by_text("the zero point").is_visible()
    assert page.locator("[data-testid=ladder-table] tbody tr").count() >= 4
    page.screenshot(path=str(ARTIFACTS / "agents-strength.png"), full_page=True)


def test_the_form_estimates_the_runs_time_from_agents_and_games(browser, site):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    _log_in(page, site)
    page.goto(f"{site}/simulations/new/")
    estimate = page.get_by_test_id("run-estimate")
    page.fill("#id_games", "200")
    page.select_option("#id_agent_a", "greedy")
    page.select_option("#id_agent_b", "greedy")
    fast = estimate.inner_text()
    assert fast.startswith("Estimated time from submission to figures: about")
    assert "200 games" in fast
    assert re.search(r"in \d+ chunks ÷ 2 workers, and [\d.]+ s to start", fast)
    page.select_option("#id_agent_a", "planner")
    slow = estimate.inner_text()
    ms = [float(re.search(r"([\d.]+) ms a game", text).group(1)) for text in (fast, slow)]
    assert ms[1] > ms[0] * 10                     # the planner thinks; greedy does not
    page.fill("#id_games", "400")
    assert "400 games" in estimate.inner_text()
    assert "planner" in page.locator("#id_agent_a").locator("option:checked").inner_text().lower()
    page.screenshot(path=str(ARTIFACTS / "simulation-estimate.png"), full_page=True)
    page.get_by_test_id("agents-link").click()
    page.wait_for_url(re.compile(r"/simulations/agents/$"))
