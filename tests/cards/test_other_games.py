"""The catalogue and the card admin for other games: the Sorcery sample set (loaded with
``load_formats``) is found by its game, by the kinds and rarity tiers its game declares (codes,
English and Chinese names) on the page, in the API and in the query language."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from cards.query import QuerySyntaxError, describe, parse
from cards.selectors import card_search

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"
SITES = ["SC-T01", "SC-T02", "SC-T03", "SC-T04", "SC-T05", "SC-T06"]


@pytest.fixture
def sorcery(test_set):
    call_command("load_formats", str(GAMES / "sorcery.yaml"), stdout=None)


def codes(query: str) -> list[str]:
    return [c.code for c in card_search(query=query)]


@pytest.mark.parametrize("query, expected", [
    ("k:site", SITES),
    ("k:地标", SITES),                                   # the kind's Chinese name
    ("k:Site", SITES),                                  # its English name, any case
    ("k:aura,artifact", ["SC-S07", "SC-S08", "SC-U01"]),
    ("r:elite", ["SC-L01"]),
    ("r:精锐", ["SC-L01"]),
    ("r>=elite", ["SC-A01", "SC-A02", "SC-L01", "SC-T06", "SC-U01"]),  # in Sorcery's order
    ("k:site r>ordinary", ["SC-T06"]),
    ("k:site -r:ordinary", ["SC-T06"]),
])
def test_the_query_language_knows_the_kinds_and_tiers_games_declare(sorcery, query, expected):
    assert codes(query) == expected


def test_this_games_terms_still_read_as_before(sorcery):
    # Sorcery's minions share the code: k:minion finds both games' minions.
    found = codes("k:minion")
    assert "T-M01" in found and "SC-S01" in found
    assert codes("r>=SSR") == ["T-M12"]


def test_an_unknown_kind_lists_the_declared_ones_too(sorcery):
    with pytest.raises(QuerySyntaxError) as caught:
        parse("k:planet")
    assert "hero, minion, item" in caught.value.message and "site" in caught.value.message
    assert describe(parse("k:site")) == "kind is site"


def test_the_page_filters_by_game_kind_and_tier(client, sorcery):
    page = client.get("/cards/", {"view": "table", "game": "sorcery", "kind": "site"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "SC-T01" in text and "SC-S01" not in text and "T-M01" not in text
    # The panel offers the games and the declared kinds and tiers.
    assert 'name="game" value="sorcery"' in text and 'name="kind" value="site"' in text
    assert 'name="rarity" value="elite"' in text
    text = client.get("/cards/", {"view": "table", "game": "cardlab",
                                  "kind": "minion"}).content.decode()
    assert "T-M01" in text and "SC-S01" not in text
    text = client.get("/cards/", {"view": "table", "rarity": "unique"}).content.decode()
    assert "SC-U01" in text and "SC-S01" not in text


def test_the_page_in_chinese_names_the_declared_kinds(client, sorcery):
    text = client.get("/cards/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "地标" in text


def test_the_api_filters_by_game_kind_and_tier(client, sorcery):
    body = client.get("/api/cards/", {"game": "sorcery", "kind": "site",
                                      "rarity": "unique"}).json()
    assert [c["code"] for c in body["results"]] == ["SC-T06"]
    body = client.get("/api/cards/", {"game": "sorcery", "q": "k:化身"}).json()
    assert [c["code"] for c in body["results"]] == ["SC-A01", "SC-A02"]
    response = client.get("/api/cards/", {"game": "chess"})
    assert response.status_code == 400 and "game" in response.json()


def test_the_schema_documents_the_game_filter(client, db):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    params = {p["name"]: p for p in schema["paths"]["/api/cards/"]["get"]["parameters"]}
    assert params["game"]["schema"]["type"] == "array"
    assert "sorcery" in params["game"]["description"]
    assert "site" in params["kind"]["description"]
