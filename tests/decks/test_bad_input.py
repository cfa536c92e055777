"""Bad input anywhere gets a 4xx with a message, never a 500 (pages and API)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

GARBAGE = st.one_of(st.text(max_size=40), st.sampled_from(
    ["", "0", "-1", "99999999999999999999", "1e9", "nan", "T-M01", "T-H01", "%00", "../..",
     "<script>", "null", "[]", "{}", "T-M01\x00"]))
PAGE_POSTS = ["/decks/build/new/card/", "/decks/build/new/hero/", "/decks/build/new/meta/",
              "/decks/build/new/clear/", "/decks/import/"]
PAGE_GETS = ["/decks/", "/decks/build/", "/decks/build/new/cards/", "/decks/build/new/hand/",
             "/decks/compare/"]
FIELDS = ["code", "delta", "set", "name", "description", "format", "visibility", "text", "q",
          "hero", "attribute", "card", "order", "page", "seed", "a", "b", "mine"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.dictionaries(st.sampled_from(FIELDS), GARBAGE, max_size=5),
       target=st.integers(0, 9))
def test_pages_answer_garbage_with_a_4xx_or_success(client, catalogue, data, target):
    data = {k: v.replace("\x00", "") if target % 2 else v for k, v in data.items()}
    if target < len(PAGE_POSTS):
        response = client.post(PAGE_POSTS[target], data, HTTP_HX_REQUEST="true")
    else:
        response = client.get(PAGE_GETS[target - len(PAGE_POSTS)], data)
    assert response.status_code < 500


@pytest.mark.parametrize("field", FIELDS)
def test_a_nul_character_in_any_query_parameter_is_a_400_that_says_so(client, catalogue, field):
    for path in PAGE_GETS:
        response = client.get(path, {field: "\x00"})
        assert response.status_code == 400 and b"NUL character" in response.content, path


def test_a_nul_character_in_a_deck_address_is_a_400(client, catalogue):
    response = client.get("/decks/%00abc/")
    assert response.status_code == 400 and b"NUL character" in response.content


@pytest.mark.parametrize("path", ["/decks/build/new/card/", "/decks/build/new/hero/"])
def test_a_card_code_with_a_nul_character_is_an_unknown_card(client, catalogue, path):
    response = client.post(path, {"code": "T-M01\x00"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "There is no card" in response.content.decode()


def test_a_nul_character_in_an_api_query_is_a_400_in_json(client, catalogue):
    response = client.get("/api/cards/", {"q": "fire\x00"})
    assert response.status_code == 400 and "NUL character" in response.json()["detail"]


JSON_VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                           max_leaves=8)
API_POSTS = ["/api/decks/", "/api/decks/validate/", "/api/decks/import/"]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=st.dictionaries(st.sampled_from(["name", "hero", "cards", "format", "visibility",
                                             "text", "save", "description", "note"]),
                            JSON_VALUES, max_size=5),
       target=st.integers(0, 2))
def test_the_api_answers_garbage_with_a_4xx_or_success(alice, catalogue, body, target):
    api = APIClient()
    api.force_authenticate(alice)
    response = api.post(API_POSTS[target], body, format="json")
    assert response.status_code < 500, response.content


@pytest.mark.parametrize("body", [b"{", b"\xff\xfe", b"[1, 2]", b'"text"', b"null"])
@pytest.mark.parametrize("path", API_POSTS)
def test_malformed_json_bodies_are_400(alice, catalogue, path, body):
    api = APIClient()
    api.force_authenticate(alice)
    response = api.post(path, body, content_type="application/json")
    assert 400 <= response.status_code < 500
