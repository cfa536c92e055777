"""A run shows its decks as they were when it was submitted: a deck renamed and made private
afterwards keeps its new name to itself (the run list filtered by deck, the run page's
breadcrumb)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from decks.selectors import draft_from_deck
from decks.services import deck_save
from simulations.services import simulation_request
from tests.simulations.helpers import DUSK

pytestmark = pytest.mark.django_db

SECRET = "Secret Plans For Friday"


@pytest.fixture
def public_run_then_private_deck(alice, make_deck):
    deck = make_deck(alice, visibility="public", name="Ember Test")
    run = simulation_request(user=alice, deck_specs=[deck.uid, DUSK], kind="match", games=4,
                             agent_a="random", agent_b="random", seed=1, is_public=True)
    deck_save(deck=deck, by=alice, note="renamed",
              draft=replace(draft_from_deck(deck), name=SECRET, visibility="private"))
    return deck, run


def test_a_decks_run_history_shows_the_name_frozen_at_submission(
        client, bob, public_run_then_private_deck):
    deck, run = public_run_then_private_deck
    client.force_login(bob)
    page = client.get(f"/simulations/?deck={deck.uid}").content.decode()
    assert run.uid in page and "Ember Test" in page
    assert SECRET not in page


def test_a_run_page_breadcrumb_shows_the_frozen_name(client, public_run_then_private_deck):
    _, run = public_run_then_private_deck
    page = client.get(run.get_absolute_url()).content.decode()
    assert "Ember Test" in page
    assert SECRET not in page
