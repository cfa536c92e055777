"""Stored pages (common/page_cache.py): the busiest pages are served from memory, and a stored
page is never stale, never someone else's, and never carries someone else's CSRF token."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.db import connection
from django.middleware.csrf import CSRF_ALLOWED_CHARS, _unmask_cipher_token
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards.models import Card, Faction
from cards.services import card_save, card_set_import, card_tag_renamed
from common.page_cache import (
    _BYTE_TO_LETTER,
    _UNEVEN_BYTES,
    CSRF_PLACEHOLDER,
    _random_letters,
    clear_stored_pages,
)
from decks.drafts import Draft
from decks.services import deck_create, deck_save
from rules.decks.cardset import TEST_SET
from tests.fixtures import LEGAL_CARDS, PASSWORD

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _token(html: str) -> str:
    match = TOKEN.search(html)
    assert match, "the page has no CSRF token"
    return match.group(1)


def _deck(owner, **changes):
    fields = {"name": "Ember Rush", "hero": "T-H01", "cards": dict(LEGAL_CARDS),
              "visibility": "public"}
    fields.update(changes)
    return deck_create(owner=owner, draft=Draft(**fields))


def test_a_card_list_seen_twice_is_served_from_the_store(client, catalogue):
    client.get("/cards/")
    with CaptureQueriesContext(connection) as second:
        page = client.get("/cards/")
    assert page.status_code == 200
    # At most the catalogue's generation is read (from the cache, a table without Redis): no
    # card, faction or set query.
    assert not [q["sql"] for q in second.captured_queries if "cardlab_cache" not in q["sql"]]


def test_an_edited_card_shows_at_once_on_every_stored_page(client, catalogue):
    for url in ("/cards/", "/cards/T-M01/", "/cards/?q=k:minion"):
        client.get(url)
    card = Card.objects.get(code="T-M01")
    card.names = {**card.names, "en": "Renamed Imp"}
    card_save(card=card)
    for url in ("/cards/", "/cards/T-M01/", "/cards/?q=k:minion"):
        assert "Renamed Imp" in client.get(url).content.decode(), url


def test_a_deck_page_shows_an_edited_card_at_once_even_after_the_cache_is_emptied(
        client, alice, catalogue):
    from django.core.cache import cache

    url = _deck(alice).get_absolute_url()
    assert "Renamed Imp" not in client.get(url).content.decode()
    card = Card.objects.get(code="T-M01")
    card.names = {**card.names, "en": "Renamed Imp"}
    card_save(card=card)
    assert "Renamed Imp" in client.get(url).content.decode()
    cache.clear()                      # the generation is gone: a new one, never an old page
    Card.objects.filter(pk=card.pk).update(names={"en": "Imp Again"})    # no signal: only the clear
    assert "Imp Again" in client.get(url).content.decode()


def test_a_renamed_faction_and_a_reloaded_set_move_the_stored_pages_on(client, catalogue):
    before = client.get("/cards/T-M01/").content.decode()
    faction = Faction.objects.get(pk=Card.objects.get(code="T-M01").faction_id)
    faction.names = {**faction.names, "en": "The Renamed Host"}
    faction.save()
    card_tag_renamed(tag=faction)
    after = client.get("/cards/T-M01/").content.decode()
    assert "The Renamed Host" in after and "The Renamed Host" not in before
    # A reload from the card set file (bulk writes, no per-row signals) also moves it on.
    Card.objects.filter(code="T-M01").update(names={"en": "Changed Behind The Site's Back"})
    assert "Changed Behind" not in client.get("/cards/T-M01/").content.decode()  # stored
    card_set_import(source=TEST_SET)
    assert "Changed Behind" not in client.get("/cards/T-M01/").content.decode()
    assert Card.objects.get(code="T-M01").name_en in client.get("/cards/T-M01/").content.decode()


def test_each_visitor_gets_their_own_csrf_token_and_can_post_with_it(db, catalogue):
    first, second = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    first_page = first.get("/cards/").content.decode()
    second_page = second.get("/cards/").content.decode()   # served from the store
    assert CSRF_PLACEHOLDER not in first_page + second_page
    assert first.cookies["csrftoken"].value != second.cookies["csrftoken"].value
    for visitor, page in ((first, first_page), (second, second_page)):
        switched = visitor.post("/i18n/setlang/", {"language": "zh-hans", "next": "/cards/",
                                                   "csrfmiddlewaretoken": _token(page)})
        assert switched.status_code == 302, switched.content[:300]
    # Another visitor's token is refused, as on any page.
    stolen = second.post("/i18n/setlang/", {"language": "en", "next": "/cards/",
                                            "csrfmiddlewaretoken": "x" * 64})
    assert stolen.status_code == 403


def test_a_returning_visitor_gets_a_fresh_mask_of_their_own_secret_each_time(db, catalogue):
    visitor = Client(enforce_csrf_checks=True)
    visitor.get("/cards/")
    secret = visitor.cookies["csrftoken"].value
    tokens = [_token(visitor.get("/cards/").content.decode()) for _ in range(2)]
    assert tokens[0] != tokens[1]              # masked anew (BREACH), as Django does
    assert all(_unmask_cipher_token(token) == secret for token in tokens)
    assert visitor.cookies["csrftoken"].value == secret
    switched = visitor.post("/i18n/setlang/", {"language": "en", "next": "/cards/",
                                               "csrfmiddlewaretoken": tokens[0]})
    assert switched.status_code == 302


def test_every_letter_of_a_csrf_token_is_equally_likely():
    """Each letter comes from as many random byte values as any other: the bytes that would
    favour the alphabet's first letters are dropped, not folded onto them."""
    every_byte = bytes(range(256))
    kept = every_byte.translate(_BYTE_TO_LETTER, _UNEVEN_BYTES)
    assert Counter(kept.decode()) == {letter: 256 // len(CSRF_ALLOWED_CHARS)
                                      for letter in CSRF_ALLOWED_CHARS}
    assert set(_random_letters(4000)) == set(CSRF_ALLOWED_CHARS)


def test_a_signed_in_page_never_reaches_anyone_else(client, alice, catalogue):
    client.login(username=alice.username, password=PASSWORD)
    assert alice.username in client.get("/cards/").content.decode()
    anonymous = Client().get("/cards/").content.decode()
    assert alice.username not in anonymous
    assert reverse("accounts:login") in anonymous


def test_stored_pages_follow_the_language(client, catalogue):
    english = client.get("/cards/T-M01/").content.decode()
    chinese = client.get("/cards/T-M01/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert 'lang="en"' in english and 'lang="zh-Hans"' in chinese


def test_a_deck_page_shows_a_rename_at_once_and_a_private_deck_to_no_one_else(
        client, alice, bob, catalogue):
    deck = _deck(alice)
    assert "Ember Rush" in client.get(deck.get_absolute_url()).content.decode()
    deck_save(deck=deck, draft=Draft(name="Ember Rush II", hero="T-H01",
                                     cards=dict(LEGAL_CARDS), visibility="private"), by=alice)
    assert client.get(deck.get_absolute_url()).status_code == 404      # no stored copy
    owner = Client()
    owner.login(username=alice.username, password=PASSWORD)
    assert "Ember Rush II" in owner.get(deck.get_absolute_url()).content.decode()
    stranger = Client()
    stranger.login(username=bob.username, password=PASSWORD)
    assert stranger.get(deck.get_absolute_url()).status_code == 404


def test_a_deck_page_shares_the_address_it_was_asked_at(client, alice, catalogue):
    """The share link is absolute: a copy stored for one host or scheme is never served at
    another."""
    url = _deck(alice).get_absolute_url()
    assert f'value="http://localhost{url}"' in client.get(
        url, HTTP_HOST="localhost").content.decode()
    assert f'value="https://localhost{url}"' in client.get(
        url, HTTP_HOST="localhost", secure=True).content.decode()
    assert f'value="http://127.0.0.1{url}"' in client.get(
        url, HTTP_HOST="127.0.0.1").content.decode()


def test_a_stored_deck_page_stops_linking_its_source_when_that_turns_private(
        client, alice, bob, catalogue):
    source = _deck(alice, name="Tide Source")
    client.login(username=bob.username, password=PASSWORD)
    fork = client.post(reverse("decks:fork", args=[source.uid])).url
    client.get(fork)                                      # shown once (its message)
    assert source.get_absolute_url() in client.get(fork).content.decode()   # stored
    deck_save(deck=source, draft=Draft(name="Tide Source", hero="T-H01",
                                       cards=dict(LEGAL_CARDS), visibility="private"), by=alice)
    page = client.get(fork).content.decode()
    assert source.get_absolute_url() not in page and "forked from a private deck" in page
    assert Client().get(fork).status_code == 404           # the fork is bob's alone


def test_the_builder_page_follows_the_draft(client, catalogue):
    empty = client.get(reverse("decks:build")).content.decode()
    client.post(reverse("decks:build-card", args=["new"]), {"code": "T-M01", "delta": 2})
    built = client.get(reverse("decks:build")).content.decode()
    assert built != empty
    assert re.search(r"\b2\b", built)


def test_a_page_with_a_message_is_not_stored(client, alice, catalogue):
    deck = _deck(alice)
    client.login(username=alice.username, password=PASSWORD)
    fork_url = client.post(reverse("decks:fork", args=[deck.uid])).url
    first = client.get(fork_url).content.decode()
    again = client.get(fork_url).content.decode()
    assert 'class="messages"' in first       # "Forked …": what just happened
    assert 'class="messages"' not in again   # shown once, never stored with the page


def test_a_browser_holding_the_page_gets_304_until_it_changes(client, catalogue):
    first = client.get("/cards/T-M01/")
    etag = first["ETag"]
    assert client.get("/cards/T-M01/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    card = Card.objects.get(code="T-M01")
    card.names = {**card.names, "en": "Another Name"}
    card_save(card=card)
    assert client.get("/cards/T-M01/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_another_csrf_cookie_gets_the_whole_page_not_a_304(client, catalogue):
    etag = client.get("/cards/").get("ETag")
    other = Client()
    other.get("/cards/")
    assert other.get("/cards/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_api_lists_and_card_images_answer_304_to_a_matching_etag(client, catalogue):
    for url in ("/api/cards/?page_size=5", "/cards/T-M01/image.svg"):
        first = client.get(url)
        assert first.status_code == 200 and first.has_header("ETag"), url
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304, url


MAIN_PAGES = ["/cards/", "/cards/?q=k:minion+c<=3", "/cards/T-M01/", "builder", "deck"]


@pytest.mark.parametrize("page", MAIN_PAGES)
def test_each_main_page_costs_a_fixed_number_of_queries(client, alice, catalogue, page):
    """Rendered afresh (nothing stored), a page's queries do not grow with the cards in the
    catalogue or the versions of a deck."""
    deck = _deck(alice)
    url = {"builder": reverse("decks:build"), "deck": deck.get_absolute_url()}.get(page, page)

    def queries() -> int:
        clear_stored_pages()
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    small = queries()
    _grow(deck, alice)
    assert queries() == small
    assert small <= 12


def _grow(deck, alice) -> None:
    """40 more cards in the catalogue and 6 more versions of the deck."""
    card = Card.objects.get(code="T-M01")
    for i in range(40):
        Card.objects.create(code=f"T-Q{i:03}", card_set=card.card_set, kind="minion",
                            names={"en": f"Extra {i}", "zh-hans": "多"}, cost=1, attack=1,
                            attribute="fire", faction=card.faction, race=card.race,
                            keyword_tags="|shield|")
    for i in range(6):
        deck_save(deck=deck, draft=Draft(name=f"Ember Rush v{i}", hero="T-H01",
                                         cards=dict(LEGAL_CARDS), visibility="public"),
                  by=alice)


@pytest.mark.parametrize("page", MAIN_PAGES)
def test_each_main_page_served_from_the_store_reads_only_what_it_is_keyed_by(
        client, alice, catalogue, settings, page):
    """Served again to a visitor, a page reads the catalogue's generation (a query when the
    cache is a database table, not on Redis) or, for a deck, the deck's stamp with the
    generation in the same statement: nothing more, however many cards or versions there
    are."""
    deck = _deck(alice)
    url = {"builder": reverse("decks:build"), "deck": deck.get_absolute_url()}.get(page, page)
    expected = 1 if page == "deck" else ("Database" in settings.CACHES["default"]["BACKEND"])

    def queries() -> list[str]:
        assert client.get(url).status_code == 200         # stored
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return [q["sql"] for q in captured.captured_queries]

    assert len(queries()) == expected, queries()
    _grow(deck, alice)
    assert len(queries()) == expected, queries()
