"""Deck tuning with the other games loaded: only this game's cards may come into a tuned deck
(another game's cards share kind codes, not the engine), and another game's deck is refused
with a 400 that says why, neither offered "Tune this deck" nor simulations."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from balance.models import BalanceJob
from decks.drafts import Draft
from decks.services import deck_create
from tests.balance.conftest import DAWN, DUSK

pytestmark = pytest.mark.django_db

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"
BODY = {"field": [DUSK], "agent": "greedy", "max_swaps": 1, "budget_games": 2000,
        "verify_games": 100, "seed": 7}


@pytest.fixture
def api(alice, catalogue):
    call_command("load_formats", *sorted(str(p) for p in GAMES.glob("*.yaml")),
                 stdout=io.StringIO())
    client = APIClient()
    client.force_authenticate(alice)
    return client


def test_R5_2_a_standard_deck_tunes_with_this_games_cards_only(api):
    response = api.post("/api/deck-tunings/", {**BODY, "deck": DAWN}, format="json")
    assert response.status_code == 201, response.json()
    pool = BalanceJob.objects.get(uid=response.json()["uid"]).tuning["pool"]
    assert pool and all(code.startswith("T-") for code in pool)


def test_another_games_deck_is_refused_and_offers_no_tuning(api, alice, client):
    deck = deck_create(owner=alice, draft=Draft(
        name="Duel", format_code="duwushi", cards={"DW-H01": 2, "DW-I01": 2}))
    response = api.post("/api/deck-tunings/", {**BODY, "deck": deck.uid}, format="json")
    assert response.status_code == 400
    assert "cannot be simulated" in response.json()["deck"][0]
    simulation = api.post("/api/simulations/", {"decks": [deck.uid, DUSK], "games": 10,
                                                 "kind": "match"}, format="json")
    assert simulation.status_code == 400
    client.force_login(alice)
    page = client.get(deck.get_absolute_url()).content.decode()
    assert 'data-testid="tune-deck"' not in page and "simulations/new/?deck=" not in page
    form = client.get(reverse("balance:tune-new") + f"?deck={deck.uid}")
    assert form.status_code in (200, 400)
    assert "cannot be simulated" in form.content.decode() or deck.uid not in (
        form.content.decode())
