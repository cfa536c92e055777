"""A balance search with the adapted objective in a real browser (Debian's headless Chromium
driven by Playwright): the form shows the adapted objective's fields (and the meta's bands) when
it is chosen; a finished search's page — each patch's printed-list and adapted figures side by
side — reads at a phone's width (390 px) and a desktop's, in English and Chinese, with no
serious axe violation and nothing wider than the window but the scrolling tables. Screenshots go
to artifacts/ for a human to look at."""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest

from tests.balance.test_adapted_objective import LIVE_PATCH, SMALL
from tests.e2e.axe import axe_problems
from tests.e2e.conftest import ARTIFACTS, CHROMIUM
from tests.e2e.test_forecast import WIDER_THAN_WINDOW

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PASSWORD = "pw-adapted-search-59"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason="Debian's chromium is not installed")


@pytest.fixture
def ada(live_server, transactional_db):
    """Ada, signed up on the live site with the test set's cards."""
    from django.contrib.auth import get_user_model

    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    card_set_import(source=TEST_SET)
    return get_user_model().objects.create_user("ada", password=PASSWORD)


@pytest.fixture
def searched(ada, live_server, settings):
    """A finished adapted search of three test-set decks from a live patch, bands wide enough
    (10–90 %) that the live patch's adapted meta meets them: one forecast, and the live patch is
    the patch chosen (the search's own games: ``test_balance_adapted``)."""
    from balance import runner
    from balance.search.services import balance_job_request
    from decks.drafts import Draft
    from decks.services import deck_create
    from tests.fixtures import LEGAL_CARDS

    settings.BALANCE_PIECE_BLOCKS = 2
    mix = deck_create(owner=ada, draft=Draft(name="Ada Mix", hero="T-H02",
                                             cards=dict(LEGAL_CARDS)))
    job = balance_job_request(
        user=ada, deck_specs=["starter:Dawn Test", "starter:Dusk Test", mix.uid],
        agent="greedy", objective="adapted", field_band=(0.1, 0.9), matchup_band=(0.05, 0.95),
        min_share=0.0, max_changes=2, budget_games=2000, verify_games=100, fields=["hp"],
        allowed_cards=["T-H01", "T-H02"], seed=5, is_public=True,
        live_patch=LIVE_PATCH, adapted={**SMALL, "exploit_limit": 1.0, "forecast_seeds": 1})
    assert runner.job_execute(job_id=job.pk, claim="t", worker="test@host") == "done"
    return live_server.url, job.get_absolute_url()


@pytest.mark.long
def test_an_adapted_searchs_page_reads_on_a_phone_and_a_desktop(browser, searched):
    # One search for every reading: a search is the test's cost, a page a second.
    url, path = searched
    ARTIFACTS.mkdir(exist_ok=True)
    for locale, width in itertools.product(("en-US", "zh-CN"), (390, 1280)):
        context = browser.new_context(locale=locale, viewport={"width": width, "height": 900},
                                      is_mobile=width < 500)
        page = context.new_page()
        page.goto(url + path)
        assert page.get_by_test_id("adapted-patch").count() >= 1
        assert page.get_by_test_id("chosen").count() == 1
        assert page.get_by_test_id("adapted").locator("table tbody tr").first.is_visible()
        assert page.evaluate(WIDER_THAN_WINDOW) == []
        assert axe_problems(page) == []
        page.screenshot(path=str(ARTIFACTS / f"adapted-{width}-{locale}.png"), full_page=True)
        context.close()


def test_the_form_shows_the_adapted_objectives_fields_when_it_is_chosen(browser, ada,
                                                                       live_server):
    url = live_server.url
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "ada")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"^(?!.*/accounts/login/)"))
    page.goto(f"{url}/balance/new/")
    tries, band = page.locator("#id_iterations"), page.locator("#id_band_low")
    field_band = page.locator("#id_field_band_low")
    assert not tries.is_visible() and field_band.is_visible()        # meta, by default
    page.locator("input[name=objective][value=adapted]").check()
    assert tries.is_visible() and field_band.is_visible() and not band.is_visible()
    page.locator("input[name=objective][value=band]").check()
    assert not tries.is_visible() and not field_band.is_visible() and band.is_visible()
    assert axe_problems(page) == []
    page.close()
