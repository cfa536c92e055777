"""The deck pages as a user meets them: build without an account, live validation, save,
history and restore, fork, compare, downloads, import, the public list and its search."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from decks.models import Deck
from decks.session import NEW, SESSION_KEY
from tests.decks.conftest import LEGAL_CARDS, PASSWORD

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def add(client, code, delta=1, key=NEW, **extra):
    return client.post(reverse("decks:build-card", args=[key]), {"code": code, "delta": delta},
                       **extra)


def draft(client, key=NEW) -> dict:
    return client.session[SESSION_KEY][key]


def test_anyone_can_build_validate_and_download_without_an_account(client, catalogue):
    page = client.get(reverse("decks:build"))
    assert page.status_code == 200
    assert "The deck has no hero" in page.content.decode()
    panel = add(client, "T-M01", **HTMX)
    assert panel.status_code == 200
    html = panel.content.decode()
    assert "The deck has 1 cards; the Standard format needs exactly 30." in html
    assert panel["HX-Trigger"] == "deck-changed"   # the card panel refreshes its counts
    cards = client.get(reverse("decks:build-cards", args=[NEW]), {"q": "ember"}).content.decode()
    assert '<span id="count-T-M01">1</span>' in cards
    client.post(reverse("decks:build-hero", args=[NEW]), {"code": "T-H01"})
    for code, n in LEGAL_CARDS.items():
        client.post(reverse("decks:build-card", args=[NEW]),
                    {"code": code, "set": n})
    assert draft(client)["cards"] == LEGAL_CARDS and draft(client)["hero"] == "T-H01"
    html = client.get(reverse("decks:build")).content.decode()
    assert "This deck follows every rule of Standard." in html
    text = client.get(reverse("decks:build-download", args=[NEW, "text"]))
    assert text.status_code == 200 and "3x Ember Pup" in text.content.decode()
    assert text["Content-Disposition"] == 'attachment; filename="Untitled-deck.txt"'


def test_live_validation_lists_every_problem_with_its_fix(client, catalogue):
    add(client, "T-M12", 2)
    html = add(client, "T-H02", **HTMX).content.decode()  # a hero card goes to the hero slot
    assert draft(client)["hero"] == "T-H02"
    assert "Night Wyrm: 2 copies — UR cards are limited to 1." in html
    assert "Fix: remove 1 × Night Wyrm" in html
    assert "Fix: add 28 more cards" in html


def test_bad_builder_input_is_a_400_with_a_message(client, catalogue):
    response = add(client, "NOPE", **HTMX)
    assert response.status_code == 400
    assert "There is no card &#x27;NOPE&#x27;" in response.content.decode()
    response = client.post(reverse("decks:build-hero", args=[NEW]), {"code": "T-M01"}, **HTMX)
    assert response.status_code == 400 and "not a hero" in response.content.decode()
    response = client.post(reverse("decks:build-card", args=[NEW]),
                           {"code": "T-M01", "delta": "lots"}, **HTMX)
    assert response.status_code == 400
    response = client.get(reverse("decks:build-cards", args=[NEW]), {"q": "c<=three"})
    assert response.status_code == 400 and "That search has a problem" in (
        response.content.decode())


def test_the_card_panel_searches_with_the_catalogue_query_language(client, catalogue):
    html = client.get(reverse("decks:build-cards", args=[NEW]), {"q": "k:minion a:fire"}
                      ).content.decode()
    assert "Ember Pup" in html and "Ash Phoenix" in html and "Thorn Boar" not in html
    assert "Make hero" in client.get(reverse("decks:build-cards", args=[NEW]),
                                     {"q": "k:hero"}).content.decode()


def test_saving_needs_an_account_and_the_draft_survives_logging_in(client, alice, catalogue):
    add(client, "T-M01", 3)
    response = client.post(reverse("decks:build-save", args=[NEW]))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD})
    response = client.post(reverse("decks:build-save", args=[NEW]))
    deck = Deck.objects.get(owner=alice)
    assert response["Location"] == deck.get_absolute_url()
    assert {e.card_id and e.card.code: e.count for e in deck.entries.all()} == {"T-M01": 3}
    assert NEW not in client.session[SESSION_KEY]


def test_a_saved_deck_is_edited_as_a_draft_and_saved_as_a_new_version(client, alice,
                                                                      make_deck):
    deck = make_deck(alice)
    client.force_login(alice)
    html = client.get(reverse("decks:edit", args=[deck.uid])).content.decode()
    assert "Editing" in html and "This deck follows every rule" in html
    add(client, "T-M01", -1, key=deck.uid)
    assert "unsaved changes" in client.get(reverse("decks:edit", args=[deck.uid])
                                           ).content.decode()
    client.post(reverse("decks:build-save", args=[deck.uid]))
    page = client.get(deck.get_absolute_url()).content.decode()
    assert "Version 2" in page and "−1 Ember Pup" in page
    assert "Fix: add 1 more card" in page


def test_history_restores_any_version(client, alice, make_deck):
    deck = make_deck(alice)
    client.force_login(alice)
    add(client, "T-M12", 1, key=deck.uid)
    client.post(reverse("decks:build-save", args=[deck.uid]))
    html = client.get(reverse("decks:versions", args=[deck.uid])).content.decode()
    assert "Restore version 1" in html and "+1 Night Wyrm" in html
    client.post(reverse("decks:restore", args=[deck.uid, 1]))
    assert deck.versions.count() == 3
    assert deck.versions.get(number=3).cards == LEGAL_CARDS


def test_fork_copy_and_compare(client, alice, bob, make_deck):
    deck = make_deck(alice, visibility="public")
    client.force_login(bob)
    response = client.post(reverse("decks:fork", args=[deck.uid]))
    fork = Deck.objects.get(owner=bob)
    assert response["Location"] == fork.get_absolute_url()
    client.post(reverse("decks:copy", args=[deck.uid]))
    assert draft(client)["name"] == "Ember Rush (copy)"
    html = client.get(reverse("decks:compare"), {"a": deck.uid, "b": fork.uid}
                      ).content.decode()
    assert "30</strong> cards in common" in html
    page_url = f"http://testserver{fork.get_absolute_url()}"
    assert client.get(reverse("decks:compare"), {"a": deck.uid, "b": page_url}
                      ).status_code == 200
    # The deck page's "Compare…" opens the form with A chosen, waiting for B: not an error.
    waiting = client.get(reverse("decks:compare"), {"a": deck.uid})
    assert waiting.status_code == 200 and 'data-testid="compare-waiting"' in waiting.text
    assert f'<option value="{deck.uid}" selected>' in waiting.text


def test_compare_picks_both_decks_from_mine_and_the_public_ones(client, alice, bob, make_deck):
    mine = make_deck(alice, name="Alice private")
    theirs = make_deck(bob, visibility="public", name="Bob public")
    hidden = make_deck(bob, name="Bob private")
    client.force_login(alice)
    page = client.get(reverse("decks:compare"))
    assert page.status_code == 200
    html = page.text
    picker_b = html[html.index('<select id="cmp-b"'):]
    picker_b = picker_b[:picker_b.index("</select>")]
    assert mine.uid in picker_b and theirs.uid in picker_b and hidden.uid not in picker_b
    assert "My decks" in picker_b and "Public decks" in picker_b


@pytest.mark.parametrize("name", ["text", "json", "csv", "code"])
def test_every_download_of_a_saved_deck(client, alice, make_deck, name):
    deck = make_deck(alice, visibility="public", name='Say "hi"\n/../炎')
    response = client.get(reverse("decks:download", args=[deck.uid, name]))
    assert response.status_code == 200
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;") and "\n" not in disposition
    assert "filename*=utf-8''Say-hi-%E7%82%8E" in disposition
    if name == "json":
        assert json.loads(response.content)["hero"]["code"] == "T-H01"
    assert client.get(reverse("decks:download", args=[deck.uid, "yaml"])).status_code == 404


def test_printable_sheet(client, alice, make_deck):
    deck = make_deck(alice, visibility="unlisted")
    html = client.get(reverse("decks:print", args=[deck.uid])).content.decode()
    assert "Deck code:" in html and "Ember Pup" in html and "window.print()" in html


def test_import_by_pasting_then_the_builder_shows_it(client, catalogue):
    pasted = "Deck: Pasted\nHero: 炎之守望者\r\n３x Ember Pup\nFire Bolt x2\n"
    response = client.post(reverse("decks:import"), {"text": pasted, "format": "auto"})
    assert response.status_code == 302 and response["Location"] == reverse("decks:build")
    assert draft(client)["cards"] == {"T-M01": 3, "T-I01": 2}
    html = client.get(reverse("decks:build")).content.decode()
    assert "Imported “Pasted” from a text list: 5 cards." in html


def test_import_errors_name_their_line_and_suggest(client, catalogue):
    response = client.post(reverse("decks:import"), {"text": "3x Embr Pup\n\nFire Blot",
                                                     "format": "auto"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Line 1</span> No card is called &#x27;Embr Pup&#x27;." in html
    assert "Did you mean" in html and ">Ember Pup</button>?" in html and "Line 3" in html


def test_a_did_you_mean_applies_with_one_click_and_keeps_the_right_lines(client, catalogue):
    """Each suggestion is a button of the import form: it puts the name on its line and
    imports again, the other lines as they were typed."""
    text = "3x Embr Pup\n2x Thorn Boar\n"
    page = client.post(reverse("decks:import"), {"text": text, "format": "auto"})
    html = page.content.decode()
    fix = re.search(r'<button type="submit" form="import-form" name="fix" value="([^"]+)"',
                    html)
    assert page.status_code == 400 and fix
    response = client.post(reverse("decks:import"), {
        "text": text, "format": "auto", "fix": unescape(fix[1])})
    assert response.status_code == 302
    assert draft(client)["cards"] == {"T-M01": 3, "T-M02": 2}
    # A button that no longer fits what is in the box changes nothing.
    stale = client.post(reverse("decks:import"), {
        "text": "3x Other\n", "format": "auto", "fix": unescape(fix[1])})
    assert stale.status_code == 400


def test_import_caps_and_throttle(client, catalogue):
    assert client.post(reverse("decks:import"), {"text": "x" * 40_000}).status_code == 413
    assert client.post(reverse("decks:import"), {"text": "\n" * 600 + "x"}).status_code == 413
    assert client.post(reverse("decks:import"),
                       {"text": "99x Ember Pup\n" * 4}).status_code == 400
    for _ in range(30):
        client.post(reverse("decks:import"), {"text": "1x Ember Pup"})
    assert client.post(reverse("decks:import"), {"text": "1x Ember Pup"}).status_code == 429


def test_import_a_file(client, catalogue):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("deck.csv", b"section,count,code\nhero,1,T-H01\ncard,2,T-M01\n")
    response = client.post(reverse("decks:import"), {"file": upload, "format": "auto"})
    assert response.status_code == 302 and draft(client)["cards"] == {"T-M01": 2}
    bad = SimpleUploadedFile("deck.txt", "3x Ember Pup".encode("utf-16"))
    assert client.post(reverse("decks:import"), {"file": bad}).status_code == 400


def test_public_list_with_search(client, alice, bob, make_deck):
    public = make_deck(alice, visibility="public", name="Fire Rush")
    make_deck(alice, visibility="public", name="Tide Control", hero="T-H02",
              cards={"T-M03": 3})
    make_deck(bob, name="Bob's secret")
    make_deck(bob, visibility="unlisted", name="Bob's link-only")
    html = client.get(reverse("decks:list")).content.decode()
    assert "Fire Rush" in html and "Tide Control" in html
    assert "secret" not in html and "link-only" not in html
    for params in ({"q": "fire"}, {"hero": "Flame"}, {"hero": "t-h01"},
                   {"attribute": "fire"}, {"card": "Ember Pup, T-I01"}):
        html = client.get(reverse("decks:list"), params).content.decode()
        assert public.name in html and "Tide Control" not in html, params
    html = client.get(reverse("decks:list"), {"card": "Nothing like it"}).content.decode()
    assert "No deck matches this search" in html
    assert client.get(reverse("decks:list"), {"attribute": "plaid"}).status_code == 400
    client.force_login(bob)
    html = client.get(reverse("decks:list"), {"mine": "true"}).content.decode()
    assert "secret" in html and "link-only" in html and "Fire Rush" not in html


def test_delete_asks_then_deletes(client, alice, make_deck):
    deck = make_deck(alice)
    client.force_login(alice)
    assert "Delete “Ember Rush”?" in client.get(reverse("decks:delete", args=[deck.uid])
                                                ).content.decode()
    client.post(reverse("decks:delete", args=[deck.uid]))
    assert not Deck.objects.exists()


def test_sample_opening_hand(client, catalogue):
    add(client, "T-M01", 3)
    add(client, "T-I01", 3)
    html = client.get(reverse("decks:build-hand", args=[NEW]), {"seed": 5}).content.decode()
    assert html.count('class="hand-card') == 6
    again = client.get(reverse("decks:build-hand", args=[NEW]), {"seed": 5}).content.decode()
    assert html == again


@pytest.mark.parametrize("url_name", ["decks:detail", "decks:edit", "decks:print",
                                      "decks:versions"])
def test_deck_pages_issue_no_query_per_card(client, alice, make_deck, url_name):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    small = make_deck(alice, cards={"T-M01": 3})
    big = make_deck(alice)
    client.force_login(alice)
    counts = []
    for deck in (small, big):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse(url_name, args=[deck.uid])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_card_panel_issues_no_query_per_card(client, catalogue):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for query in ("k:hero", ""):   # 2 cards, then all 22
        with CaptureQueriesContext(connection) as queries:
            client.get(reverse("decks:build-cards", args=[NEW]), {"q": query})
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_saving_a_renamed_deck_names_it_by_its_new_name(client, alice, make_deck):
    deck = make_deck(alice)
    client.force_login(alice)
    client.post(reverse("decks:build-meta", args=[deck.uid]),
                {"name": "Soggy Wall v3", "description": "", "format": "standard",
                 "visibility": "private"})
    page = client.post(reverse("decks:build-save", args=[deck.uid]), follow=True)
    html = page.content.decode()
    assert "Saved “Soggy Wall v3”" in html and "Ember Rush" not in html.split("<main")[-1][:400]


def test_saving_a_visibility_change_says_so_not_nothing_changed(client, alice, make_deck):
    deck = make_deck(alice)
    client.force_login(alice)
    client.post(reverse("decks:build-meta", args=[deck.uid]),
                {"name": deck.name, "description": deck.description, "format": "standard",
                 "visibility": "public"})
    assert "unsaved changes" in client.get(reverse("decks:edit", args=[deck.uid])
                                           ).content.decode()
    html = client.post(reverse("decks:build-save", args=[deck.uid]), follow=True
                       ).content.decode()
    assert "Nothing changed" not in html and "it is now Public" in html
    deck.refresh_from_db()
    assert deck.visibility == "public" and deck.versions.count() == 1
