"""A collection keeps at most 999 copies of a card. An import or a whole set that would go past
it keeps 999 and says so: which cards, how many were asked, how many were kept; and every
figure in the answer is what was stored, never what was asked."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from cards.models import Card
from collection.selectors import collection_counts
from collection.services import collection_card_set, collection_set_add
from collection.transfer import collection_export, collection_import


def own(user, code: str, count: int) -> None:
    collection_card_set(user=user, card=Card.objects.get(code=code), count=count)


@pytest.fixture
def api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


def test_an_import_past_the_cap_keeps_999_and_says_what_it_capped(alice, catalogue):
    own(alice, "T-M01", 6)
    result = collection_import(user=alice, text="998x Ember Pup\n2x Thorn Boar\n")
    assert collection_counts(user=alice) == {"T-M01": 999, "T-M02": 2}
    assert [(c.code, c.asked, c.kept) for c in result.capped] == [("T-M01", 1004, 999)]
    assert (result.cards, result.copies, result.changed) == (2, 993 + 2, 2)


def test_lines_adding_up_past_the_cap_are_capped_and_said(alice, catalogue):
    result = collection_import(user=alice, text="99x Ember Pup\n" * 12)
    assert collection_counts(user=alice) == {"T-M01": 999}
    assert [(c.code, c.asked, c.kept) for c in result.capped] == [("T-M01", 1188, 999)]
    assert result.copies == 999


def test_replacing_with_a_list_past_the_cap_says_so_too(alice, catalogue):
    own(alice, "T-M01", 500)
    result = collection_import(user=alice, text="600x T-M01\n600x T-M01\n", replace=True)
    assert collection_counts(user=alice) == {"T-M01": 999}
    assert [(c.code, c.asked, c.kept) for c in result.capped] == [("T-M01", 1200, 999)]
    assert result.copies == 999


def test_a_whole_set_past_the_cap_reports_the_copies_it_stored(alice, catalogue):
    own(alice, "T-M01", 913)
    size = Card.objects.filter(card_set__code="TEST").count()
    added = collection_set_add(user=alice, set_code="TEST", copies=999)
    counts = collection_counts(user=alice)
    assert set(counts.values()) == {999} and len(counts) == size
    assert added.stored == (size - 1) * 999 + 86
    assert [(c.code, c.asked, c.kept) for c in added.capped] == [("T-M01", 1912, 999)]


def test_the_api_answers_the_stored_figures_and_the_capped_cards(api, alice, catalogue):
    own(alice, "T-M01", 6)
    answer = api.post("/api/collection/import/", {"text": "998x Ember Pup"}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {"cards": 1, "copies": 993, "changed": 1, "capped": [
        {"code": "T-M01", "asked": 1004, "kept": 999}]}
    size = Card.objects.filter(card_set__code="TEST").count()
    whole = api.post("/api/collection/sets/TEST/", {"copies": 999}, format="json").json()
    assert whole["copies"] == (size - 1) * 999 and whole["changed"] == size - 1
    assert {"code": "T-M01", "asked": 1998, "kept": 999} in whole["capped"]
    assert sum(collection_counts(user=alice).values()) == size * 999


def test_an_import_within_the_cap_names_no_capped_card(api, alice, catalogue):
    answer = api.post("/api/collection/import/", {"text": "2x Ember Pup"}, format="json")
    assert answer.json() == {"cards": 1, "copies": 2, "changed": 1, "capped": []}


def test_the_pages_say_which_cards_were_capped(client, alice, catalogue):
    client.force_login(alice)
    own(alice, "T-M01", 6)
    done = client.post(reverse("collection:import"), {"text": "998x Ember Pup", "mode": "add"},
                       follow=True).content.decode()
    assert "993 copies" in done and "Ember Pup" in done and "1004" in done and "999" in done
    own(alice, "T-M02", 913)
    added = client.post(reverse("collection:set-add"), {"set": "TEST", "copies": "999"},
                        follow=True).content.decode()
    assert "Thorn Boar" in added and "1912" in added


def test_the_text_export_files_heroes_under_heroes_with_no_empty_hero_line(alice, bob,
                                                                           catalogue):
    collection_import(user=alice, text="2x Flame Warden\n1 Tide Oracle\n3x Ember Pup\n")
    listing = collection_export(user=alice, format_name="text").content
    lines = listing.splitlines()
    assert not any(line.strip() in ("Hero:", "英雄：") for line in lines)
    heroes = lines.index("# Heroes (3)")
    assert {"2x Flame Warden", "1x Tide Oracle"} <= set(lines[heroes + 1:heroes + 3])
    assert "Other cards" not in listing and "# Minions (3)" in lines
    collection_import(user=bob, text=listing, replace=True)
    assert collection_counts(user=bob) == collection_counts(user=alice)


def test_the_collection_import_page_draws_on_the_api_imports_budget(client, alice, catalogue):
    from common.throttles import IMPORT_PER_CLIENT

    client.force_login(alice)
    api = APIClient()
    api.force_authenticate(alice)
    for _ in range(IMPORT_PER_CLIENT.count):
        assert api.post("/api/collection/import/", {"text": "1x Ember Pup"},
                        format="json").status_code == 200
    refused = client.post(reverse("collection:import"), {"text": "1x Ember Pup", "mode": "add"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "Too many imports" in refused.content.decode()
    assert collection_counts(user=alice) == {"T-M01": IMPORT_PER_CLIENT.count}
