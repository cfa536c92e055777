"""The collection API: your own counts only, bad input a 400 that says what to fix."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from cards.models import Card
from collection.selectors import collection_counts
from collection.services import collection_card_set


@pytest.fixture
def api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


def test_the_api_needs_an_account(catalogue):
    answer = APIClient().get("/api/collection/")
    assert answer.status_code in (401, 403)


def test_a_count_is_read_and_set(api, alice, catalogue):
    assert api.get("/api/collection/cards/T-M01/").json() == {"code": "T-M01", "count": 0}
    assert api.put("/api/collection/cards/T-M01/", {"count": 3}, format="json").json() == \
        {"code": "T-M01", "count": 3}
    listed = api.get("/api/collection/").json()
    assert [(c["code"], c["count"]) for c in listed["results"]] == [("T-M01", 3)]
    every = api.get("/api/collection/?owned=false").json()
    assert every["count"] == Card.objects.count()


@pytest.mark.parametrize("body", [{"count": -1}, {"count": 1000}, {"count": "x"}, {}])
def test_a_bad_count_is_a_400_naming_the_field(api, catalogue, body):
    answer = api.put("/api/collection/cards/T-M01/", body, format="json")
    assert answer.status_code == 400 and "count" in answer.json()


def test_import_reports_lines_and_suggestions(api, alice, catalogue):
    bad = api.post("/api/collection/import/", {"text": "2x Ember Pupp\n3 荆棘野猪"},
                   format="json")
    assert bad.status_code == 400
    (problem,) = bad.json()["problems"]
    assert problem["line"] == 1 and "Ember Pup" in problem["suggestions"]
    good = api.post("/api/collection/import/", {"text": "2x Ember Pup\n3 荆棘野猪"},
                    format="json")
    assert good.json() == {"cards": 2, "copies": 5, "changed": 2, "capped": []}
    text = api.get("/api/collection/export/?as=text").content.decode()
    assert "2x Ember Pup" in text
    assert api.get("/api/collection/export/?as=xml").status_code == 400


def test_a_set_is_added_and_an_unknown_one_is_a_404(api, alice, catalogue):
    answer = api.post("/api/collection/sets/TEST/", {"copies": 2}, format="json")
    assert answer.status_code == 200 and set(collection_counts(user=alice).values()) == {2}
    assert api.post("/api/collection/sets/NOPE/", {}, format="json").status_code == 404
    assert api.post("/api/collection/sets/TEST/", {"copies": 0},
                    format="json").status_code == 400


def test_a_decks_missing_cards_are_the_askers_own(api, alice, bob, make_deck):
    deck = make_deck(bob, visibility="unlisted")
    collection_card_set(user=bob, card=Card.objects.get(code="T-M01"), count=3)
    answer = api.get(f"/api/collection/decks/{deck.uid}/missing/").json()
    assert answer["buildable"] is False
    assert {"code": "T-M01", "need": 3, "owned": 0, "missing": 3} .items() <= \
        next(r for r in answer["missing"] if r["code"] == "T-M01").items()
    private = make_deck(bob, visibility="private")
    assert api.get(f"/api/collection/decks/{private.uid}/missing/").status_code == 404


def test_the_schema_documents_the_collection(client, catalogue):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    assert {"/api/collection/", "/api/collection/import/", "/api/collection/claims/",
            "/api/collection/cards/{code}/",
            "/api/collection/decks/{uid}/missing/"} <= set(paths)
