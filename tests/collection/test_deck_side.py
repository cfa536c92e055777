"""The players' side of decks: tags and the tag filter, favourites and the week's most
favoured, the active mark, "buildable" from the visitor's collection, the builder's "only
cards I own" with the copies left, and the deck image."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.urls import reverse
from PIL import Image
from rest_framework.test import APIClient

from cards.models import Card
from collection.services import collection_card_set, collection_counts_merge
from decks.models import DeckFavourite
from decks.sharing.services import (
    TAG_RULE,
    SharingInputError,
    deck_favourite_set,
    deck_tags_set,
    decks_most_favoured,
    tags_parse,
)
from tests.e2e.conftest import ARTIFACTS
from tests.fixtures import LEGAL_CARDS


def own_the_deck(user) -> None:
    collection_counts_merge(user=user, counts={**LEGAL_CARDS, "T-H01": 1})


def test_tags_are_words_in_either_language_and_bad_ones_are_named():
    assert tags_parse("Aggro, #budget 新手 aggro") == ["aggro", "budget", "新手"]
    with pytest.raises(SharingInputError) as refused:
        tags_parse("ok, no/slashes")
    assert str(refused.value) == TAG_RULE.format(tag="no/slashes")


def test_the_deck_list_filters_by_tag(client, alice, make_deck):
    aggro = make_deck(alice, visibility="public", name="Ember Rush")
    make_deck(alice, visibility="public", name="Tidewall")
    deck_tags_set(deck=aggro, tags="aggro")
    page = client.get(reverse("decks:list") + "?tag=aggro").content.decode()
    assert "Ember Rush" in page and "Tidewall" not in page
    api = client.get("/api/decks/?tag=aggro").json()
    assert [d["name"] for d in api["results"]] == ["Ember Rush"]
    assert api["results"][0]["tags"] == ["aggro"]


def test_buildable_is_the_visitors_own_collection(alice_client, alice, bob, make_deck):
    deck = make_deck(bob, visibility="public", name="Bob's Rush")
    own_the_deck(bob)                   # bob's copies say nothing about alice
    url = reverse("decks:list")
    assert "buildable-badge" not in alice_client.get(url).content.decode()
    assert "Bob&#x27;s Rush" not in alice_client.get(url + "?buildable=true").content.decode()
    own_the_deck(alice)
    page = alice_client.get(url + "?buildable=true").content.decode()
    assert "Bob&#x27;s Rush" in page and "buildable-badge" in page
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=2)
    assert "Bob&#x27;s Rush" not in alice_client.get(url + "?buildable=true").content.decode()
    assert "Bob&#x27;s Rush" in alice_client.get(url + "?buildable=false").content.decode()
    assert deck.uid


def test_favourites_count_on_public_decks_and_the_week_list(alice, bob, make_deck, client):
    public = make_deck(alice, visibility="public", name="Loved")
    unlisted = make_deck(alice, visibility="unlisted", name="Hidden")
    for deck in (public, unlisted):
        deck_favourite_set(deck=deck, user=bob, favourite=True)
    deck_favourite_set(deck=public, user=alice, favourite=True)
    assert [(d.name, d.recent_favourites) for d in decks_most_favoured()] == [("Loved", 2)]
    DeckFavourite.objects.update(created_at=public.created_at - timedelta(days=8))
    assert list(decks_most_favoured()) == []            # last week's favourites are old news
    answer = client.get(f"/api/decks/{public.uid}/").json()
    assert answer["favourite_count"] == 2
    assert client.get(f"/api/decks/{unlisted.uid}/").json()["favourite_count"] is None


def test_favourite_and_active_through_the_api(alice, bob, make_deck):
    deck = make_deck(alice, visibility="public")
    api = APIClient()
    api.force_authenticate(bob)
    assert api.put(f"/api/decks/{deck.uid}/favourite/").json() == \
        {"favourite": True, "favourite_count": 1}
    assert api.put(f"/api/decks/{deck.uid}/active/", {"active": True},
                   format="json").status_code == 403        # only the owner plays it
    assert api.put(f"/api/decks/{deck.uid}/tags/", {"tags": ["x"]},
                   format="json").status_code == 403
    api.force_authenticate(alice)
    assert api.put(f"/api/decks/{deck.uid}/active/", {"active": True},
                   format="json").json() == {"active": True}
    bad = api.put(f"/api/decks/{deck.uid}/tags/", {"tags": ["no spaces here"]}, format="json")
    assert bad.status_code == 400 and "not a tag" in bad.json()["tags"][0]
    # A number is no tag: refused, not kept as its digits (schemathesis found [0] taken as "0").
    number = api.put(f"/api/decks/{deck.uid}/tags/", {"tags": [0]}, format="json")
    assert number.status_code == 400 and "tags" in number.json()
    assert api.get("/api/decks/most-favoured/").json()[0]["favourites_this_week"] == 1


@pytest.mark.parametrize("not_a_boolean", [0, 1, "false", "yes", None])
def test_a_json_yes_or_no_must_be_true_or_false(alice, make_deck, not_a_boolean):
    """The schema says boolean: {"active": 0} once switched the deck off with a 200."""
    deck = make_deck(alice)
    api = APIClient()
    api.force_authenticate(alice)
    api.put(f"/api/decks/{deck.uid}/active/", {"active": True}, format="json")
    refused = api.put(f"/api/decks/{deck.uid}/active/", {"active": not_a_boolean},
                      format="json")
    assert refused.status_code == 400 and "active" in refused.json()
    deck.refresh_from_db()
    assert deck.active is True                              # nothing changed



def test_the_deck_pages_box_favourites_and_marks_active(alice_client, alice, make_deck):
    deck = make_deck(alice, visibility="public")
    box = alice_client.post(reverse("decks:favourite", args=[deck.uid]), {"favourite": "on"},
                            HTTP_HX_REQUEST="true").content.decode()
    assert "1 favourite" in box
    alice_client.post(reverse("decks:active", args=[deck.uid]), {"active": "on"},
                      HTTP_HX_REQUEST="true")
    deck.refresh_from_db()
    assert deck.active
    bad = alice_client.post(reverse("decks:tags", args=[deck.uid]), {"tags": "a/b"},
                            HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "not a tag" in bad.content.decode()


def test_the_builder_shows_only_owned_cards_with_the_copies_left(alice_client, alice,
                                                                 catalogue):
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=4)
    alice_client.post(reverse("decks:build-card", args=["new"]), {"code": "T-M01", "delta": 1})
    panel = alice_client.get(reverse("decks:build-cards", args=["new"]) + "?owned=1",
                             HTTP_HX_REQUEST="true").content.decode()
    assert "Ember Pup" in panel and "Thorn Boar" not in panel
    assert "3 left" in panel


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_deck_image_is_a_png_with_a_tile_per_card(client, alice, make_deck, lang):
    deck = make_deck(alice, visibility="public")
    answer = client.get(reverse("decks:image", args=[deck.uid]) + f"?lang={lang}")
    assert answer["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(answer.content))
    ARTIFACTS.mkdir(exist_ok=True)                     # for a human to look at
    (ARTIFACTS / f"deck-image-{lang}.png").write_bytes(answer.content)
    rows = -(-len(LEGAL_CARDS) // 5)
    assert image.size == (1000, 150 + rows * 130 + 10)


def test_the_catalogue_filters_to_owned_cards(alice_client, alice, catalogue):
    collection_card_set(user=alice, card=Card.objects.get(code="T-M02"), count=1)
    page = alice_client.get(reverse("cards:list") + "?view=table&owned=true").content.decode()
    assert "Thorn Boar" in page and "Ember Pup" not in page
