"""The help pages' examples come from the cards loaded now, and every one finds some."""

from __future__ import annotations

import pytest

from cards.examples import field_examples, import_examples, query_examples
from cards.models import Card
from cards.selectors import card_search
from cards.services import card_set_import
from rules.decks.cardset import CORE_SET, TEST_SET

SETS = [pytest.param(TEST_SET, id="test set"),
        pytest.param(CORE_SET, id="core set",
                     marks=pytest.mark.skipif(not CORE_SET.exists(), reason="no core set"))]


@pytest.mark.parametrize("source", SETS)
def test_every_query_example_finds_cards_of_the_loaded_set(db, source):
    card_set_import(source=source)
    examples = query_examples()
    assert len(examples) >= 12
    for example in examples:
        assert card_search(query=example.query).exists(), example


@pytest.mark.parametrize("source", SETS)
def test_every_field_example_finds_cards_of_the_loaded_set(db, source):
    from cards.query.fields import FIELD_LIST

    card_set_import(source=source)
    loaded = field_examples()
    for field in FIELD_LIST:
        query = loaded.get(field.name, field.example)
        assert card_search(query=query).exists(), query


@pytest.mark.parametrize("source", SETS)
def test_the_import_help_names_cards_that_exist(db, source):
    card_set_import(source=source)
    names = import_examples()
    assert Card.objects.filter(names__en=names.minion_en, code=names.minion_code).exists()
    assert Card.objects.filter(**{"names__zh-hans": names.minion_zh}).exists()
    assert Card.objects.filter(names__en=names.hero_en, kind="hero").exists()


def test_no_examples_and_no_error_on_an_empty_catalogue(db, client):
    assert query_examples() == [] and field_examples() == {} and import_examples() is None
    assert "No cards are loaded yet" in client.get("/cards/help/").content.decode()
    assert "No cards are loaded yet" in client.get("/decks/import/").content.decode()
