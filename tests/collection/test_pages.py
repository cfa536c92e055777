"""The collection pages: the table and its quick +/−, the count box on the card page, import
and export, a whole set, and a deck's missing cards — and that nobody sees anyone else's."""

from __future__ import annotations

from django.urls import reverse

from cards.models import Card
from collection.selectors import collection_counts
from collection.services import collection_card_set


def test_the_collection_needs_an_account(client, catalogue):
    response = client.get(reverse("collection:page"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_table_lists_cards_with_counts_and_filters_to_the_owned(alice_client, alice,
                                                                     catalogue):
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=2)
    page = alice_client.get(reverse("collection:page")).content.decode()
    assert 'data-testid="own-count-T-M01"' in page and 'value="2"' in page
    assert "Thorn Boar" in page
    owned = alice_client.get(reverse("collection:page") + "?owned=true").content.decode()
    assert "Ember Pup" in owned and "Thorn Boar" not in owned


def test_plus_and_minus_answer_the_row_for_htmx(alice_client, alice, catalogue):
    url = reverse("collection:card", args=["T-M02"]) + "?as=row"
    row = alice_client.post(url, {"delta": "1", "count": "0"}, HTTP_HX_REQUEST="true")
    assert row.status_code == 200 and row.content.decode().lstrip().startswith("<tr")
    alice_client.post(url, {"delta": "1"}, HTTP_HX_REQUEST="true")
    alice_client.post(url, {"delta": "-1"}, HTTP_HX_REQUEST="true")
    changed = alice_client.post(url, {"count": "7"}, HTTP_HX_REQUEST="true")
    assert collection_counts(user=alice) == {"T-M02": 7}
    assert changed["HX-Trigger"] == "collection-changed"
    sets = alice_client.get(reverse("collection:sets"), HTTP_HX_REQUEST="true").content.decode()
    assert "1 / 22" in sets


def test_a_bad_count_is_a_400_that_says_the_range(alice_client, alice, catalogue):
    url = reverse("collection:card", args=["T-M02"])
    answer = alice_client.post(url, {"count": "lots"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400
    assert "whole number from 0 to 999" in answer.content.decode()
    assert alice_client.post(reverse("collection:card", args=["NOPE"]),
                             {"delta": "1"}).status_code == 404


def test_the_card_page_loads_the_count_apart_from_its_stored_copy(alice_client, alice,
                                                                  catalogue):
    detail = alice_client.get(reverse("cards:detail", args=["T-M01"])).content.decode()
    assert reverse("collection:card", args=["T-M01"]) in detail
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=5)
    box = alice_client.get(reverse("collection:card", args=["T-M01"]),
                           HTTP_HX_REQUEST="true").content.decode()
    assert "5 copies" in box
    # Opened directly, the box's address leads to the card's page, where the box lives.
    direct = alice_client.get(reverse("collection:card", args=["T-M01"]))
    assert direct.status_code == 302 and direct["Location"] == "/cards/T-M01/"


def test_import_page_adds_a_list_and_names_bad_lines(alice_client, alice, catalogue):
    url = reverse("collection:import")
    bad = alice_client.post(url, {"text": "2x Ember Pupp\n", "mode": "add"})
    assert bad.status_code == 400
    body = bad.content.decode()
    assert "Line 1" in body and "Ember Pup" in body
    good = alice_client.post(url, {"text": "2x Ember Pup\n1 潮汐先知\n", "mode": "add"})
    assert good.status_code == 302
    assert collection_counts(user=alice) == {"T-M01": 2, "T-H02": 1}


def test_export_downloads_text_and_csv(alice_client, alice, catalogue):
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=2)
    text = alice_client.get(reverse("collection:export", args=["text"]))
    assert "2x Ember Pup" in text.content.decode()
    assert "attachment" in text["Content-Disposition"]
    csv = alice_client.get(reverse("collection:export", args=["csv"])).content.decode()
    assert "card,2,T-M01,Ember Pup,余烬幼犬" in csv
    assert alice_client.get(reverse("collection:export", args=["xml"])).status_code == 404


def test_adding_a_whole_set_and_a_bad_set_is_a_400(alice_client, alice, catalogue):
    url = reverse("collection:set-add")
    assert alice_client.post(url, {"set": "TEST", "copies": "3"}).status_code == 302
    assert set(collection_counts(user=alice).values()) == {3}
    refused = alice_client.post(url, {"set": "TEST", "copies": "0"})
    assert refused.status_code == 400 and "from 1 to 999" in refused.content.decode()


def test_a_deck_page_missing_list_is_the_visitors_own(alice_client, alice, bob, make_deck,
                                                      client):
    deck = make_deck(bob, visibility="public")
    collection_card_set(user=bob, card=Card.objects.get(code="T-M01"), count=3)
    url = reverse("collection:deck-missing", args=[deck.uid])
    mine = alice_client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert 'data-code="T-M01"' in mine          # alice owns none: bob's copies are not hers
    assert reverse("collection:shopping-list", args=[deck.uid, "text"]) in mine
    shopping = alice_client.get(reverse("collection:shopping-list", args=[deck.uid, "csv"]))
    assert "card,3,T-M01" in shopping.content.decode()


def test_another_users_private_deck_has_no_missing_list(alice_client, bob, make_deck):
    deck = make_deck(bob, visibility="private")
    url = reverse("collection:deck-missing", args=[deck.uid])
    assert alice_client.get(url).status_code == 404


def test_the_collection_pages_are_chinese_on_a_chinese_page(client, bob, make_deck):
    from decks.sharing.services import deck_favourite_set, deck_tags_set
    from tests.fixtures import UserFactory
    from tests.test_chinese_pages import ZH, english_words

    player = UserFactory(username="xiaoming")
    client.force_login(player)
    deck = make_deck(player, visibility="public", name="我的火焰卡组")
    deck_tags_set(deck=deck, tags="快攻")
    deck_favourite_set(deck=deck, user=bob, favourite=True)
    collection_card_set(user=player, card=Card.objects.get(code="T-M01"), count=2)
    pages = [reverse("collection:page"), reverse("collection:import"),
             reverse("collection:deck-missing", args=[deck.uid]),
             reverse("collection:card", args=["T-M01"]), reverse("decks:players", args=[deck.uid]),
             reverse("decks:list") + "?buildable=false", deck.get_absolute_url()]
    problems = {}
    for url in pages:
        response = client.get(url, HTTP_HX_REQUEST="true", **ZH) if (
            "players" in url or "/collection/cards/" in url) else client.get(url, **ZH)
        assert response.status_code == 200, url
        found = english_words(response.content.decode())
        if found:
            problems[url] = found
    assert not problems, "\n".join(f"{url}: {words}" for url, words in problems.items())


def test_the_page_names_cards_active_decks_claim_beyond_the_copies_owned(alice_client, alice,
                                                                         make_deck):
    from decks.sharing.services import deck_active_set

    for name in ("Ember Rush", "Tidewall"):
        deck_active_set(deck=make_deck(alice, name=name), active=True)
    collection_card_set(user=alice, card=Card.objects.get(code="T-M01"), count=4)
    page = " ".join(alice_client.get(reverse("collection:page")).content.decode().split())
    assert "Ember Rush</a> (3) and <a" in page
    assert "Tidewall</a> (3) need 6 Ember Pup together; you own 4 (2 short)." in page


def test_the_set_totals_opened_directly_lead_to_the_collection_page(alice_client):
    """The side panel's address is an htmx fragment; a browser opening it (a reload, a shared
    link) gets the whole page the panel belongs to, never a bare fragment."""
    response = alice_client.get(reverse("collection:sets"))
    assert response.status_code == 302
    assert response["Location"] == reverse("collection:page") + "#own-sets"


def test_a_did_you_mean_on_the_collection_import_applies_with_one_click(alice_client, alice,
                                                                       catalogue):
    """The suggestion is a button: one click puts it on its line and imports the whole list,
    the lines that were right kept as typed."""
    import re
    from html import unescape

    url = reverse("collection:import")
    text = "2x Ember Pupp\n1 潮汐先知\n"
    bad = alice_client.post(url, {"text": text, "mode": "add"})
    fix = re.search(r'form="own-import-form" name="fix" value="([^"]+)"', bad.text)
    assert bad.status_code == 400 and fix and collection_counts(user=alice) == {}
    good = alice_client.post(url, {"text": text, "mode": "add", "fix": unescape(fix[1])})
    assert good.status_code == 302
    assert collection_counts(user=alice) == {"T-M01": 2, "T-H02": 1}


def test_every_count_answer_says_the_collection_version_it_was_read_at(alice_client, alice,
                                                                      catalogue):
    """A page keeps the newer of two answers about a count by this number (site.js): every
    write adds one, and a row read after a write says at least that write's number."""
    from collection.selectors import collection_version

    assert collection_version(user=alice) == 0
    url = reverse("collection:card", args=["T-M01"]) + "?as=row"
    first = alice_client.post(url, {"delta": "1"}, HTTP_HX_REQUEST="true")
    second = alice_client.post(url, {"delta": "1"}, HTTP_HX_REQUEST="true")
    assert 'data-version="1"' in first.text and 'data-version="2"' in second.text
    table = alice_client.get(reverse("collection:page"), HTTP_HX_REQUEST="true")
    assert table.text.count('data-version="2"') >= 1 and 'data-version="1"' not in table.text
    alice_client.post(reverse("collection:import"), {"text": "1 Ember Pup\n", "mode": "add"})
    assert collection_version(user=alice) == 3


def test_the_import_page_replaces_with_replace_and_names_an_unknown_format(alice_client, alice,
                                                                          catalogue):
    """The page's form hands the importer what was posted: "replace" makes the collection the
    list, anything else adds to it, and the importer names a format it does not read."""
    url = reverse("collection:import")
    collection_card_set(user=alice, card=Card.objects.get(code="T-M02"), count=3)
    alice_client.post(url, {"text": "1 Ember Pup\n", "mode": "add"})
    assert collection_counts(user=alice) == {"T-M01": 1, "T-M02": 3}
    alice_client.post(url, {"text": "2 Ember Pup\n", "mode": "replace"})
    assert collection_counts(user=alice) == {"T-M01": 2}
    alice_client.post(url, {"text": "1 Ember Pup\n", "mode": "more"})
    assert collection_counts(user=alice) == {"T-M01": 3}
    unknown = alice_client.post(url, {"text": "1 Ember Pup\n", "format": "xml"})
    assert unknown.status_code == 400 and "Unknown list format &#x27;xml&#x27;" in unknown.text
    assert collection_counts(user=alice) == {"T-M01": 3}
