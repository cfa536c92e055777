"""A balance designer's walk in a real browser (Debian's headless Chromium, Playwright), runs
played by a real Celery worker: patch a card on the patch page (the preview redraws the card),
sweep its attack over a range, read the chart, open one point's run and compare it with the
unpatched baseline game by game. Screenshots go to artifacts/."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:   # the shared fixtures are imported as tests.e2e.test_simulations
    sys.path.insert(0, ROOT)

from tests.e2e.test_simulations import (  # noqa: E402, F401  (fixtures used by name)
    ARTIFACTS,
    CHROMIUM,
    PASSWORD,
    site,
)

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


def test_patch_a_card_sweep_it_open_a_point_and_compare_with_the_baseline(browser, site,  # noqa: F811
                                                                        console):
    url, _deck = site
    # On SQLite the sweep page's live poll can meet the in-memory test database's table lock
    # while the in-process worker writes (seen once in a full run): a test-database artifact.
    console.allow(r"status of 500 .*/simulations/sweeps/")
    console.allow(r"Response Status Error Code 500 from /simulations/sweeps/")
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "tess")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))

    # Patch: pick Ember Pup, raise its attack; the preview redraws the card live.
    page.goto(f"{url}/simulations/patch/?card=T-M01")
    page.fill("#id_attack", "4")
    page.locator("[data-testid=patch-diff]").wait_for(timeout=10_000)
    assert "Ember Pup: attack 2 → 4" in page.locator("[data-testid=patch-diff]").inner_text()
    assert page.locator("#patch-preview svg").count() == 1
    page.screenshot(path=str(ARTIFACTS / "patch-page.png"), full_page=True)

    # Sweep its attack from 1 to 3 against Dusk Test.
    page.select_option("#id_deck", "starter:Dawn Test")
    page.check("input[name=opponents][value='starter:Dusk Test']")
    page.fill("#id_games", "8")
    page.select_option("#id_agent_b", "random")
    page.select_option("#id_sweep_field", "attack")
    page.fill("#id_sweep_from", "1")
    page.fill("#id_sweep_to", "3")
    page.locator("button[value=sweep]").click()
    page.wait_for_url(re.compile(r"/simulations/sweeps/[^/]+/$"))

    # The chart fills in as the runs finish (the page polls); three points, one per value.
    page.locator("[data-testid=point-run]").nth(2).wait_for(timeout=60_000)
    page.wait_for_function("!document.body.innerText.includes('Still playing')",
                           timeout=90_000)
    assert page.locator("[data-testid=sweep-chart] circle").count() == 3
    assert "McNemar p" in page.locator("[data-testid=sweep]").inner_text()
    page.screenshot(path=str(ARTIFACTS / "sweep-page.png"), full_page=True)

    # Open the point at attack 3 (a patched run), then compare it with the baseline.
    page.locator("[data-testid=sweep-chart] a").nth(2).click()
    page.wait_for_url(re.compile(r"/simulations/(?!sweeps)[^/]+/$"))
    assert "Ember Pup: attack 2 → 3" in page.locator("[data-testid=patch]").inner_text()
    page.locator("[data-testid=compare-baseline]").click()
    page.wait_for_url(re.compile(r"/simulations/compare/\?"))
    assert "Paired" in page.locator("[data-testid=method]").inner_text()
    assert page.locator("[data-testid=change]").count() == 1
    page.screenshot(path=str(ARTIFACTS / "compare-page.png"), full_page=True)
    assert errors == []
