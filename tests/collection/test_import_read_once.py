"""Importing a collection reads its text once: the size and characters are checked in one
place (the importer), a pasted deck code is decoded once, and a list over the caps is a 413
that names the cap."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

import decks.codecs
import decks.codecs.base
import decks.codecs.deckcode
from collection.selectors import collection_counts
from rules.decks.deckcode import encode_deck_code
from rules.decks.legality import Deck
from tests.collection.conftest import LEGAL_CARDS


@pytest.fixture
def api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.fixture
def counted(monkeypatch):
    """How often the importer checks a text's characters and decodes a deck code."""
    calls = {"checks": 0, "decodes": 0}
    check, decode = decks.codecs.base.bad_characters, decks.codecs.deckcode.read_checked_code

    def counting_check(text):
        calls["checks"] += 1
        return check(text)

    def counting_decode(*args, **kwargs):
        calls["decodes"] += 1
        return decode(*args, **kwargs)

    monkeypatch.setattr(decks.codecs.base, "bad_characters", counting_check)
    monkeypatch.setattr(decks.codecs, "read_checked_code", counting_decode)
    monkeypatch.setattr(decks.codecs.deckcode, "read_checked_code", counting_decode)
    return calls


def test_a_pasted_deck_code_is_checked_once_and_decoded_once(api, alice, catalogue, counted):
    code = encode_deck_code(Deck(heroes=("T-H01",), counts=dict(LEGAL_CARDS)))
    answer = api.post("/api/collection/import/", {"text": code}, format="json")
    assert answer.status_code == 200, answer.content
    assert counted == {"checks": 1, "decodes": 1}
    owned = collection_counts(user=alice)
    assert owned["T-H01"] == 1 and all(owned[c] == n for c, n in LEGAL_CARDS.items())


@pytest.mark.parametrize("text", ["3x Ember Pup\n2 T-M02\n", "count,code\n3,T-M01\n"])
def test_a_list_is_checked_once(api, catalogue, counted, text):
    answer = api.post("/api/collection/import/", {"text": text}, format="json")
    assert answer.status_code == 200, answer.content
    assert counted["checks"] == 1 and counted["decodes"] == 0


def test_a_list_over_the_line_cap_is_a_413_naming_it(api, alice, catalogue):
    answer = api.post("/api/collection/import/", {"text": "1 T-M01\n" * 5001}, format="json")
    assert answer.status_code == 413
    assert "5,000" in answer.json()["detail"] or "5000" in answer.json()["detail"]
    assert collection_counts(user=alice) == {}
