"""A collection is private: the stored pages (common/page_cache.py), the deck pages, the lists'
badges and the API never show one user's counts to another."""

from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from cards.models import Card
from collection.services import collection_card_set
from tests.fixtures import LEGAL_CARDS


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_catalogues_owned_filter_is_stored_per_user_and_moves_with_the_collection(
        alice, bob, catalogue):
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=2)
    url = reverse("cards:list") + "?view=table&owned=true"
    a, b = signed_in(alice), signed_in(bob)
    assert "Ember Pup" in a.get(url).content.decode()
    assert "Ember Pup" not in b.get(url).content.decode()       # bob's own (empty) collection
    collection_card_set(user=alice, card=Card.objects.get(code="T-M02"), count=1)
    assert "Thorn Boar" in a.get(url).content.decode()          # not the stored copy
    assert "Thorn Boar" not in b.get(url).content.decode()


def test_the_builder_panel_stored_page_is_each_visitors_own(alice, bob, catalogue):
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=4)
    url = reverse("decks:build") + "?owned=1"
    assert "Ember Pup" in signed_in(alice).get(url).content.decode()
    assert "Ember Pup" not in signed_in(bob).get(url).content.decode()
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=0)
    assert "Ember Pup" not in signed_in(alice).get(url).content.decode()


def _shows_999(page: str) -> bool:
    """The count 999 as a number of its own, not digits inside another (an image's ?v= stamp)."""
    return re.search(r"(?<!\d)999(?!\d)", page) is not None


def test_the_stored_deck_and_card_pages_hold_no_counts(alice, bob, make_deck):
    deck = make_deck(bob, visibility="public")
    for code in LEGAL_CARDS:
        collection_card_set(user=alice, card=Card.objects.get(code=code), count=999)
    a = signed_in(alice)
    for url in (deck.get_absolute_url(), reverse("cards:detail", args=["T-M01"])):
        assert not _shows_999(a.get(url).content.decode())        # fetched apart, per visitor
        assert not _shows_999(signed_in(bob).get(url).content.decode())
    missing = signed_in(bob).get(reverse("collection:deck-missing", args=[deck.uid]),
                                 HTTP_HX_REQUEST="true").content.decode()
    assert not _shows_999(missing) and 'data-code="T-M01"' in missing


def test_another_users_count_is_not_in_the_api(alice, bob, catalogue):
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=7)
    b = signed_in(bob)
    assert b.get("/api/collection/cards/T-M01/").json()["count"] == 0
    assert b.get("/api/collection/").json()["results"] == []
    assert "T-M01" not in b.get("/api/collection/export/").content.decode()
