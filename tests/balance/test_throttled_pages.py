"""The balance pages share the simulation submissions' budget with the API; once it is used up
they say so on the page (the API's 429 is an exception a page cannot show: it was a 500)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from balance.search.services import balance_job_request
from balance.views import THROTTLED
from tests.balance.conftest import DAWN, DUSK, TINY

pytestmark = pytest.mark.django_db


@pytest.fixture
def used_up(client, alice, catalogue, settings):
    """alice, signed in, has used her one submission of the hour through the API."""
    settings.SIMULATIONS_SUBMIT_RATE = "1/hour"
    api = APIClient()
    api.force_authenticate(alice)
    assert api.post("/api/simulations/", {"decks": []}, format="json").status_code == 400
    assert api.post("/api/simulations/", {"decks": []}, format="json").status_code == 429
    client.force_login(alice)
    return client


def test_the_search_form(used_up):
    response = used_up.post(reverse("balance:new"), {
        "decks": [DAWN, DUSK], "objective": "band", "agent": "greedy", "band_low": 45,
        "band_high": 55, "field_band_low": 47, "field_band_high": 53, "matchup_band_low": 30,
        "matchup_band_high": 70, "epsilon": 0.5, "min_share": 5,
        "max_changes": 2, "fields": ["cost"], "budget_games": 2000, "verify_games": 100})
    assert response.status_code == 400 and str(THROTTLED) in response.content.decode()


def test_the_tuning_form(used_up):
    response = used_up.post(reverse("balance:tune-new"), {
        "deck": DAWN, "field": [DUSK], "agent": "greedy", "max_swaps": 1,
        "budget_games": 2000, "verify_games": 100, "seed": 7})
    assert response.status_code == 400 and str(THROTTLED) in response.content.decode()


def test_opening_a_candidate(used_up, alice):
    job = balance_job_request(user=alice, **TINY)
    response = used_up.post(reverse("balance:candidate-run", args=[job.uid, 0]), follow=True)
    assert response.status_code == 200 and str(THROTTLED) in response.content.decode()
