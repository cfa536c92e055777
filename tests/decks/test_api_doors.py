"""Doors of the deck API that a careless or hostile client tries: OPTIONS on any endpoint, NUL
and lone surrogates anywhere in a JSON body (keys included), and "forked from" pointing at a
deck the client may not see."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from common.parsers import BAD_CHARACTER, IN_KEY, IN_VALUE, NUL
from tests.decks.conftest import LEGAL_CARDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    return client


@pytest.fixture
def deck_uid(api, catalogue):
    body = {"name": "Ember Rush", "hero": "T-H01", "cards": LEGAL_CARDS}
    return api.post("/api/decks/", body, format="json").json()["uid"]


def test_options_describes_the_endpoint_without_failing(api, deck_uid):
    for path in (f"/api/decks/{deck_uid}/", "/api/decks/", "/api/decks/validate/",
                 f"/api/decks/{deck_uid}/versions/", "/api/simulations/"):
        response = api.options(path)
        assert response.status_code == 200, path
        assert response.json()["name"] and "application/json" in response.json()["renders"]


def test_options_on_another_users_private_deck_reveals_nothing(bob, deck_uid):
    client = APIClient()
    client.force_authenticate(bob)
    response = client.options(f"/api/decks/{deck_uid}/")
    assert response.status_code == 200
    assert "Ember Rush" not in response.content.decode()


NUL_KEY = {"hero": "T-H01", "cards": {"T-M0\u00001": 3}}


def _raw(api, method, path, body):
    return getattr(api, method)(path, json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("method, path", [("post", "/api/decks/validate/"),
                                          ("post", "/api/decks/"),
                                          ("put", "{deck}"), ("patch", "{deck}")])
def test_a_nul_in_a_json_key_is_a_field_error(api, deck_uid, method, path):
    response = _raw(api, method, path.format(deck=f"/api/decks/{deck_uid}/"), NUL_KEY)
    assert response.status_code == 400
    assert response.json() == {"cards": [BAD_CHARACTER.format(
        where=IN_KEY.format(key=ascii("T-M0\x001")), what=NUL)]}


@pytest.mark.parametrize("body, field", [
    ({"hero": "T-H01", "cards": {"T-M01": 3}, "format": "stan\u0000dard"}, "format"),
    ({"name": "ok", "hero": "T-H\u000001", "cards": {}}, "hero"),
    ({"name": "a\nb\u0000", "cards": {}}, "name"),
])
def test_a_nul_in_a_json_value_is_a_field_error(api, catalogue, body, field):
    response = _raw(api, "post", "/api/decks/", body)
    assert response.status_code == 400 and list(response.json()) == [field]


def test_a_nul_in_a_free_form_json_field_is_refused(api, catalogue):
    body = {"decks": ["starter:Dawn Test", "starter:Dusk Test"], "games": 2,
            "ruleset": {"hero_advantage": "x\u0000"}}
    response = _raw(api, "post", "/api/simulations/", body)
    assert response.status_code == 400
    assert response.json()["ruleset"] == [BAD_CHARACTER.format(
        where=IN_VALUE.format(line=1, column=2), what=NUL)]


def test_a_lone_surrogate_is_a_field_error(api, catalogue):
    raw = '{"hero": "T-H01", "cards": {"T-M01\\ud800": 3}}'
    response = api.post("/api/decks/validate/", raw, content_type="application/json")
    assert response.status_code == 400 and "U+D800" in response.json()["cards"][0]


def test_import_text_with_a_nul_names_its_line_and_column(api, catalogue):
    response = _raw(api, "post", "/api/decks/import/", {"text": "3x Ember Pup\n2x Th\u0000orn"})
    assert response.status_code == 400
    assert response.json()["text"][0].startswith("Line 2, column 6:")


def test_forked_from_a_deck_made_private_is_not_revealed(api, alice, bob, catalogue):
    body = {"name": "Ember Rush", "hero": "T-H01", "cards": LEGAL_CARDS,
            "visibility": "public"}
    source = api.post("/api/decks/", body, format="json").json()["uid"]
    other = APIClient()
    other.force_authenticate(bob)
    fork = other.post(f"/api/decks/{source}/fork/").json()
    assert fork["forked_from"] == source        # public: shown
    assert api.patch(f"/api/decks/{source}/", {"visibility": "private"},
                     format="json").status_code == 200
    again = other.get(f"/api/decks/{fork['uid']}/").json()
    assert again["forked_from"] is None
    listed = other.get("/api/decks/", {"mine": "true"}).json()["results"]
    assert all(row["forked_from"] is None for row in listed)
    assert source not in json.dumps(listed)
    mine = api.get(f"/api/decks/{fork['uid']}/")  # the fork is bob's private deck: 404
    assert mine.status_code == 404


def test_a_form_encoded_body_is_refused_rather_than_read_with_defaults(api, catalogue):
    # A form sends "" for a field left empty, which DRF reads as "not sent" and replaces by the
    # default: the API reads JSON only, so a blank format cannot pass as the standard one.
    response = api.post("/api/decks/validate/", {"hero": "", "cards": "{}", "format": ""},
                        format="multipart")
    assert response.status_code == 415
    assert "multipart/form-data" in response.json()["detail"]
    blank = api.post("/api/decks/validate/", {"cards": {}, "format": ""}, format="json")
    assert blank.status_code == 400 and "format" in blank.json()


@pytest.mark.parametrize("path", ["/api/simulations/", "/api/balance-searches/"])
def test_a_list_filter_it_cannot_read_is_a_400(api, path):
    refused = api.get(path, {"mine": "null"})
    assert refused.status_code == 400 and "mine" in refused.json()
    assert api.get(path, {"mine": "true"}).status_code == 200
    assert api.get(path, {"mine": "0"}).status_code == 200


@pytest.mark.parametrize("path", ["/api/decks/?attribute=&order=", "/api/simulations/?deck=",
                                  "/api/balance-searches/?mine=&page=", "/api/cards/?faction="])
def test_an_empty_query_value_is_refused_by_name(api, path):
    # DRF and django-filter would read an empty value as "not given" and use a default.
    response = api.get(path)
    assert response.status_code == 400
    named = path.split("?")[1].replace("=", "").split("&")
    assert set(response.json()) == set(named)


def test_the_schema_says_query_strings_are_not_empty(api):
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    parameters = {p["name"]: p["schema"] for p in schema["paths"]["/api/decks/"]["get"]
                  ["parameters"]}
    assert parameters["hero"]["minLength"] == 1 and parameters["card"]["minLength"] == 1
    assert "" not in parameters["order"]["enum"]
    runs = {p["name"]: p["schema"] for p in schema["paths"]["/api/simulations/"]["get"]
            ["parameters"]}
    assert runs["deck"]["minLength"] == 1 and runs["mine"]["type"] == "boolean"
