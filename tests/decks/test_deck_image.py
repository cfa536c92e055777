"""The deck image (/decks/<id>/image.png): drawn once per deck version and language and kept,
answered with an ETag (a revalidation is a 304), the same image whatever else the query string
says, throttled for anonymous visitors (429 with Retry-After), and every word of a Chinese image
Chinese (the format's name, the hero's HP from the game's words)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from common.throttles import DECK_IMAGE_PER_IP
from decks.drafts import Draft
from decks.services import deck_save
from decks.sharing import image as deck_image


@pytest.fixture
def renders(monkeypatch):
    """How many times an image was drawn."""
    drawn: list[str] = []
    draw = deck_image.deck_image_png

    def counted(deck, *, lang=None):
        drawn.append(deck.uid)
        return draw(deck, lang=lang)

    monkeypatch.setattr(deck_image, "deck_image_png", counted)
    return drawn


def url(deck, query: str = "") -> str:
    return reverse("decks:image", args=[deck.uid]) + query


def test_an_image_is_drawn_once_per_version_and_language_whatever_the_query(
        client, alice, make_deck, renders):
    deck = make_deck(alice, visibility="public")
    first = client.get(url(deck, "?lang=en"))
    assert first.status_code == 200 and first["Content-Type"] == "image/png"
    for query in ("?lang=en", "?lang=en&x=1", "?lang=en&cache-buster=42"):
        again = client.get(url(deck, query))
        assert again.content == first.content and again["ETag"] == first["ETag"]
    assert len(renders) == 1
    chinese = client.get(url(deck, "?lang=zh"))
    assert chinese["ETag"] != first["ETag"] and len(renders) == 2
    cards = dict(deck.entries.values_list("card__code", "count"))
    deck_save(deck=deck, by=alice,
              draft=Draft(name="Renamed", hero="T-H01", visibility="public", cards=cards))
    changed = client.get(url(deck, "?lang=en"))
    assert changed["ETag"] != first["ETag"] and len(renders) == 3


def test_a_revalidation_with_the_etag_is_a_304_without_drawing(client, alice, make_deck,
                                                                 renders):
    deck = make_deck(alice, visibility="public")
    etag = client.get(url(deck))["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    again = client.get(url(deck, "?ref=feed"), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and not again.content and len(renders) == 1


def test_anonymous_visitors_are_throttled_with_retry_after(client, alice, make_deck, settings):
    settings.THROTTLE_RATES = {**getattr(settings, "THROTTLE_RATES", {}),
                               DECK_IMAGE_PER_IP.scope: "3/min"}
    deck = make_deck(alice, visibility="public")
    assert [client.get(url(deck)).status_code for _ in range(3)] == [200] * 3
    refused = client.get(url(deck))
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 61
    client.force_login(alice)                      # a signed-in player is not counted
    assert client.get(url(deck)).status_code == 200


def test_another_users_private_deck_has_no_image(client, alice, bob, make_deck):
    deck = make_deck(alice)
    client.force_login(bob)
    assert client.get(url(deck)).status_code == 404


def test_a_chinese_image_names_the_format_and_the_heros_hp_in_chinese(alice, make_deck):
    deck = make_deck(alice, visibility="public")
    with translation.override("zh-hans"):
        words = deck_image.header_words(deck)
    assert "Standard" not in words.format_line and "标准" in words.format_line
    assert "HP" not in words.hero_line and "血量" in words.hero_line
    with translation.override("en"):
        words = deck_image.header_words(deck)
    assert "Standard" in words.format_line and "HP" in words.hero_line
