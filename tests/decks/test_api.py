"""The deck API as a client uses it: CRUD with versions, validate without saving, import,
export, fork, compare, formats; and the OpenAPI schema lists it all."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from decks.models import Deck
from rules.decks.deckcode import encode_deck_code
from rules.decks.legality import Deck as LegalityDeck
from tests.decks.conftest import LEGAL_CARDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.fixture
def anon():
    return APIClient()


def create(api, **fields):
    body = {"name": "Ember Rush", "hero": "T-H01", "cards": LEGAL_CARDS, **fields}
    return api.post("/api/decks/", body, format="json")


def test_create_returns_the_deck_with_its_legality_and_version(api, catalogue, alice):
    response = create(api)
    assert response.status_code == 201
    data = response.json()
    assert data["owner"] == "alice" and data["valid"] is True and data["problems"] == []
    assert data["card_count"] == 30 and data["version"] == 1 and data["visibility"] == "private"
    assert {c["code"]: c["count"] for c in data["cards"]} == LEGAL_CARDS
    assert data["url"].endswith(f"/decks/{data['uid']}/")


def test_create_an_illegal_deck_lists_every_problem(api, catalogue):
    data = create(api, hero=None, cards={"T-M12": 2}).json()
    assert data["valid"] is False
    assert [p["code"] for p in data["problems"]] == ["hero_missing", "deck_too_small",
                                                     "copy_limit"]
    assert data["problems"][2]["fix"] == "remove 1 × Night Wyrm"
    assert data["problems"][2]["rule"] == "R5.3"


@pytest.mark.parametrize("body, field", [
    ({"cards": {"T-M01": 0}}, "cards"), ({"cards": {"NOPE": 1}}, "cards"),
    ({"hero": "NOPE"}, "hero"), ({"format": "modern"}, "format"),
    ({"visibility": "secret"}, "visibility"), ({"cards": [1, 2]}, "cards"),
    ({"name": "x" * 101}, "name"),
])
def test_bad_input_is_a_400_naming_the_field(api, catalogue, body, field):
    response = create(api, **body)
    assert response.status_code == 400
    assert field in response.json() and response.json()[field]


def test_a_saved_list_has_the_same_cap_on_different_cards_as_a_validated_one(api, catalogue):
    """A deck's list is read alike wherever it is sent: naming more different cards than an
    import may is the same 400 on a save as on a validation, before any card is looked up."""
    many = {f"X{i}": 1 for i in range(301)}
    saved = create(api, cards=many)
    checked = api.post("/api/decks/validate/", {"cards": many}, format="json")
    assert saved.status_code == checked.status_code == 400
    assert saved.json()["cards"] == checked.json()["cards"] == [
        "Too many different cards: a list names at most 300."]


def test_put_replaces_patch_merges_and_each_change_is_a_version(api, catalogue):
    uid = create(api).json()["uid"]
    data = api.patch(f"/api/decks/{uid}/", {"cards": {**LEGAL_CARDS, "T-M12": 1},
                                            "note": "add the wyrm"}, format="json").json()
    assert data["version"] == 2 and data["card_count"] == 31 and data["hero"]["code"] == "T-H01"
    data = api.put(f"/api/decks/{uid}/", {"name": "Bare", "cards": {"T-M01": 1}},
                   format="json").json()
    assert data["version"] == 3 and data["hero"] is None and data["name"] == "Bare"
    versions = api.get(f"/api/decks/{uid}/versions/").json()
    assert [v["number"] for v in versions] == [3, 2, 1]
    assert versions[1]["note"] == "add the wyrm" and versions[1]["changes"] == ["+1 Night Wyrm"]
    one = api.get(f"/api/decks/{uid}/versions/2/").json()
    assert one["changes"] == ["+1 Night Wyrm"] and one["cards"]["T-M12"] == 1
    assert api.get(f"/api/decks/{uid}/versions/9/").status_code == 404


def test_restore_a_version(api, catalogue):
    uid = create(api).json()["uid"]
    api.patch(f"/api/decks/{uid}/", {"cards": {"T-M01": 1}}, format="json")
    data = api.post(f"/api/decks/{uid}/versions/1/restore/").json()
    assert data["version"] == 3 and data["card_count"] == 30
    assert api.post(f"/api/decks/{uid}/versions/7/restore/").status_code == 404


def test_delete(api, catalogue):
    uid = create(api).json()["uid"]
    assert api.delete(f"/api/decks/{uid}/").status_code == 204
    assert not Deck.objects.exists()


def test_validate_needs_no_saved_deck_and_no_account(anon, catalogue):
    response = anon.post("/api/decks/validate/", {"hero": "T-H01", "cards": LEGAL_CARDS},
                         format="json")
    assert response.json() == {"valid": True, "size": 30, "format": "standard", "problems": []}
    data = anon.post("/api/decks/validate/", {"cards": {"T-H02": 1, "ZZ": 3}},
                     format="json").json()
    assert [p["code"] for p in data["problems"]] == ["hero_missing", "kind_not_allowed",
                                                     "unknown_card", "deck_too_small"]
    bad = anon.post("/api/decks/validate/", {"cards": {"T-M01": 0}, "format": "x"},
                    format="json")
    assert bad.status_code == 400 and "cards" in bad.json()
    bad = anon.post("/api/decks/validate/", {"cards": {}, "format": "x"}, format="json")
    assert bad.status_code == 400 and "There is no format 'x'" in bad.json()["format"][0]


def test_import_reads_any_format_and_can_save(api, anon, catalogue):
    data = anon.post("/api/decks/import/", {"text": "Hero: Flame Warden\n3x Ember Pup"},
                     format="json").json()
    assert data["source"] == "text" and data["deck"]["cards"] == {"T-M01": 3}
    assert data["valid"] is False and data["saved"] is None
    code = encode_deck_code(LegalityDeck(heroes=("T-H01",), counts=LEGAL_CARDS))
    response = api.post("/api/decks/import/", {"text": code, "save": True}, format="json")
    assert response.status_code == 201
    assert response.json()["source"] == "code" and response.json()["saved"]["valid"] is True
    refused = anon.post("/api/decks/import/", {"text": "1x Ember Pup", "save": True},
                        format="json")
    assert refused.status_code == 400 and "Sign in" in refused.json()["save"][0]


def test_import_errors_are_400_with_lines_and_suggestions(anon, catalogue):
    response = anon.post("/api/decks/import/", {"text": "3x Embr Pup\nHero: Nobody"},
                         format="json")
    assert response.status_code == 400
    problems = response.json()["problems"]
    assert problems[0]["line"] == 1 and problems[0]["suggestions"] == ["Ember Pup"]
    assert problems[1]["line"] == 2
    two = anon.post("/api/decks/import/", {"text": "Hero: T-H01\nHero: T-H02"}, format="json")
    assert two.status_code == 400 and "2 heroes" in two.json()["detail"]


def test_import_caps_bytes_lines_and_cards(anon, catalogue):
    assert anon.post("/api/decks/import/", {"text": "x" * 40_000},
                     format="json").status_code == 413
    assert anon.post("/api/decks/import/", {"text": "a\n" * 600},
                     format="json").status_code == 413
    body = json.dumps({"text": "y" * 70_000})
    assert anon.post("/api/decks/import/", body, content_type="application/json"
                     ).status_code == 413
    many = anon.post("/api/decks/import/", {"text": "99x Ember Pup\n" * 4}, format="json")
    assert many.status_code == 400 and "at most 300" in many.json()["detail"]


def test_import_is_throttled(anon, catalogue):
    for _ in range(30):
        anon.post("/api/decks/import/", {"text": "1x Ember Pup"}, format="json")
    response = anon.post("/api/decks/import/", {"text": "1x Ember Pup"}, format="json")
    assert response.status_code == 429


@pytest.mark.parametrize("name, needle", [("text", "3x Ember Pup"), ("json", '"cardlab_deck"'),
                                          ("csv", "card,3,T-M01"), ("code", "AQhzdGFuZGFy")])
def test_export_every_format(api, catalogue, name, needle):
    uid = create(api).json()["uid"]
    data = api.get(f"/api/decks/{uid}/export/", {"format": name}).json()
    assert needle in data["content"] and data["filename"].startswith("Ember-Rush")
    assert api.get(f"/api/decks/{uid}/export/", {"format": "pdf"}).status_code == 400


def test_fork_and_compare(api, catalogue, bob):
    uid = create(api, visibility="public").json()["uid"]
    other = APIClient()
    other.force_authenticate(bob)
    fork = other.post(f"/api/decks/{uid}/fork/")
    assert fork.status_code == 201 and fork.json()["owner"] == "bob"
    assert fork.json()["forked_from"] == uid and fork.json()["visibility"] == "private"
    data = other.get("/api/decks/compare/", {"a": uid, "b": fork.json()["uid"]}).json()
    assert data["shared"] == 30 and data["only_a"] == 0
    assert other.get("/api/decks/compare/", {"a": uid}).status_code == 400


def test_list_filters(api, catalogue, anon):
    create(api, name="Fire Rush", visibility="public")
    create(api, name="Tide", hero="T-H02", cards={"T-M03": 3}, visibility="public")
    names = [d["name"] for d in anon.get("/api/decks/", {"card": "Reef Guard"}).json()["results"]]
    assert names == ["Tide", "Fire Rush"]   # both contain Reef Guard; newest first
    names = [d["name"] for d in anon.get("/api/decks/", {"hero": "Tide Oracle"}
                                         ).json()["results"]]
    assert names == ["Tide"]
    assert anon.get("/api/decks/", {"attribute": "nope"}).status_code == 400
    assert len(anon.get("/api/decks/", {"format": "standard"}).json()["results"]) == 2
    assert anon.get("/api/decks/", {"format": "modern"}).status_code == 400


def test_formats_list_the_standard_format(anon, catalogue):
    [standard] = anon.get("/api/decks/formats/").json()
    assert standard["code"] == "standard" and standard["copy_limits"]["UR"] == 1
    assert standard["deck_kinds"] == ["minion", "item"] and standard["ban_list"] == {}


def test_the_schema_describes_the_deck_api(anon):
    response = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = json.loads(response.content)["paths"]
    for path in ("/api/decks/", "/api/decks/{uid}/", "/api/decks/validate/",
                 "/api/decks/import/", "/api/decks/{uid}/export/", "/api/decks/{uid}/fork/",
                 "/api/decks/{uid}/versions/", "/api/decks/{uid}/versions/{number}/restore/",
                 "/api/decks/compare/", "/api/decks/formats/"):
        assert path in paths, path
