"""The card API: list and detail, the pages' filters and query language, pagination, errors as
400 with the field's message, and an OpenAPI schema that validates."""

from __future__ import annotations

import pytest
from drf_spectacular.validation import validate_schema

from cards.apis import PAGE_SIZE_RANGE, CardPagination
from cards.card_stats import card_stats_add
from cards.query import errors as E


def codes(response) -> list[str]:
    return [card["code"] for card in response.json()["results"]]


def test_list_is_paginated_with_every_field(client, test_set):
    response = client.get("/api/cards/", {"page_size": 5})
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 22 and len(body["results"]) == 5 and body["next"]
    first = body["results"][0]
    assert first["code"] == "T-H01"
    assert first["faction"] == {"code": "dawn", "name_en": "Dawn Order", "name_zh": "晨曦教团"}
    assert first["set"] == "TEST" and first["hp"] == 20 and first["cost"] is None
    assert first["text_en"] == "Active (2 energy): Deal 1 damage to the enemy hero."
    assert first["abilities"][0]["trigger"] == "active"
    assert first["image_url"].endswith("/cards/T-H01/image.svg")
    assert first["url"].endswith("/cards/T-H01/")


def test_query_language_and_filters(client, test_set):
    assert codes(client.get("/api/cards/", {"q": "k:minion a:fire c<=3"})) == ["T-M01"]
    assert codes(client.get("/api/cards/", {"q": "r:UR or r:SSR"})) == ["T-M12"]
    assert codes(client.get("/api/cards/", {"kind": "hero", "attribute": "water"})) == ["T-H02"]
    assert codes(client.get("/api/cards/", {"faction": "dusk", "race": "dragon"})) == ["T-M12"]
    assert codes(client.get("/api/cards/", {"keyword": ["shield", "react"]})) == ["T-M03",
                                                                                  "T-M05"]
    assert codes(client.get("/api/cards/", {"q": "k:minion", "attack_min": 4,
                                            "order": "-attack"})) == ["T-M12", "T-M06"]
    assert codes(client.get("/api/cards/", {"set": "TEST", "hp_max": 19})) == []


def test_a_malformed_query_is_a_400_with_the_position(client, test_set):
    response = client.get("/api/cards/", {"q": "a:fire)"})
    assert response.status_code == 400
    assert response.json() == {"q": [f"{E.MSG_UNEXPECTED_CLOSE} (at position 7)"]}
    padded = client.get("/api/cards/", {"q": "  a:fire)"})
    assert padded.json() == {"q": [f"{E.MSG_UNEXPECTED_CLOSE} (at position 9)"]}


def test_bad_filter_values_are_400s(client, test_set):
    response = client.get("/api/cards/", {"kind": "spell", "faction": "nobody"})
    assert response.status_code == 400
    assert set(response.json()) == {"kind", "faction"}


def test_detail_by_code_with_stats(client, test_set):
    response = client.get("/api/cards/T-M04/")
    assert response.status_code == 200
    assert response.json()["name_zh"] == "晨曦侍从" and response.json()["stats"] is None
    card_stats_add(totals={"T-M04": {"games_played_in": 10, "wins_when_played": 4}},
                   agent="greedy", card_data_version="v1")
    card_stats_add(totals={"T-M04": {"games_played_in": 30, "wins_when_played": 27}},
                   agent="search", card_data_version="v1")
    stats = client.get("/api/cards/T-M04/").json()["stats"]
    assert stats["games_played_in"] == 40 and stats["win_rate_when_played"] == 31 / 40
    assert stats["when"]["played"]["games"] == 40 and stats["when"]["drawn"]["games"] == 0
    greedy = client.get("/api/cards/T-M04/", {"agent": "greedy"}).json()["stats"]
    assert greedy["games_played_in"] == 10 and greedy["win_rate_when_played"] == 0.4
    assert greedy["when"]["played"]["method"] == "games"   # no pair moments were given
    assert client.get("/api/cards/T-M04/", {"version": "v2"}).json()["stats"] is None
    assert client.get("/api/cards/NOPE/").status_code == 404


def test_schema_describes_the_card_api_and_validates(client, db):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    validate_schema(schema)
    listing = schema["paths"]["/api/cards/"]["get"]
    params = {p["name"] for p in listing["parameters"]}
    assert {"q", "kind", "attribute", "rarity", "faction", "race", "set", "keyword",
            "cost_min", "cost_max", "attack_min", "attack_max", "hp_min", "hp_max", "order",
            "page", "page_size"} <= params
    assert "/api/cards/{code}/" in schema["paths"]


@pytest.mark.parametrize("size", ["0", "ì", "-3", "2.5"])
def test_a_page_size_that_is_not_a_whole_number_of_at_least_1_is_refused(client, test_set,
                                                                         size):
    response = client.get("/api/cards/", {"page_size": size})
    assert response.status_code == 400
    assert response.json() == {"page_size": [PAGE_SIZE_RANGE.format(most=200)]}
    assert client.get("/api/cards/", {"page_size": "200"}).status_code == 200


@pytest.mark.parametrize("size", ["201", "100000", "9" * 40, "1" + "0" * 3000])
def test_a_page_size_over_the_largest_is_capped_to_it(client, test_set, size, monkeypatch):
    monkeypatch.setattr(CardPagination, "max_page_size", 5)      # the test set has 22 cards
    response = client.get("/api/cards/", {"page_size": size})
    assert response.status_code == 200
    assert len(response.json()["results"]) == 5 and response.json()["count"] == 22
