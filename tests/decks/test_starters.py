"""Starter decks are decks: listed with the others, opened like any deck, downloaded, copied
into the builder, and picked by name as a simulation's deck or opponent."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.html import escape

from decks.starters.selectors import starter_decks, starter_get
from decks.starters.views import COPIED

pytestmark = pytest.mark.django_db


def test_the_catalogue_s_starter_decks_are_read_with_their_heroes(catalogue):
    decks = starter_decks(with_heroes=True)
    assert [d.name for d in decks] == ["Dawn Test", "Dusk Test"]
    assert decks[0].hero_card.name_en == "Flame Warden" and decks[0].size == 30
    assert starter_get(slug="dusk-test").spec == "starter:Dusk Test"
    with pytest.raises(LookupError):
        starter_get(slug="no-such-deck")


def test_the_deck_list_shows_the_starter_decks(client, catalogue):
    page = client.get("/decks/").content.decode()
    assert 'id="starters"' in page and 'href="/decks/starter/dawn-test/"' in page
    assert "Flame Warden" in page
    assert "starter decks below" in page          # the empty public list points at them


def test_a_starter_deck_opens_like_any_deck(client, catalogue):
    response = client.get("/decks/starter/dawn-test/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Dawn Test</h1>" in page and "Flame Warden" in page and "Ember Pup" in page
    assert "This deck follows every rule" in page
    assert 'id="share-code"' in page and "Copy code" in page
    assert client.get("/decks/starter/nothing-here/").status_code == 404


def test_a_starter_deck_downloads(client, catalogue):
    response = client.get("/decks/starter/dawn-test/download/text/")
    assert response.status_code == 200 and "Ember Pup" in response.content.decode()
    assert client.get("/decks/starter/dawn-test/download/nope/").status_code == 404


def test_a_starter_deck_copies_into_the_builder(client, catalogue):
    response = client.post("/decks/starter/dusk-test/copy/", follow=True)
    page = response.content.decode()
    assert response.redirect_chain[-1][0] == reverse("decks:build")
    assert escape(COPIED.format(name="Dusk Test")) in page
    assert "Tide Oracle" in page and "30/30" in page


def test_a_starter_deck_is_picked_by_name_to_simulate(client, alice, catalogue):
    client.force_login(alice)
    page = client.get("/decks/starter/dawn-test/").content.decode()
    assert "/simulations/new/?deck=starter%3ADawn%20Test" in page
    form = client.get("/simulations/new/", {"deck": "starter:Dawn Test",
                                            "opponent": "starter:Dusk Test"}).content.decode()
    assert '<option value="starter:Dawn Test" selected>Dawn Test</option>' in form
    assert 'value="starter:Dusk Test"' in form and "checked" in form


def test_home_sends_builders_to_the_builder_and_the_starter_decks(client, catalogue):
    page = client.get("/").content.decode()
    assert 'href="/decks/build/">Build a deck' in page
    assert 'href="/decks/#starters"' in page
