"""A keyword is defined once, in the engine's keyword registry (``rules.engine.keywords``):
registering one (here a toy keyword, for this test only) makes it valid on cards and in
abilities, named in both languages' rules text, listed on the vocabulary page with its rule
id, offered by the catalogue's filters and searchable in the query language — with no other
file touched and no migration."""

from __future__ import annotations

import pytest

from cards.models import keyword_choices
from cards.query import QuerySyntaxError, parse
from rules.engine.ability_language import validate_card
from rules.engine.keywords import (
    DUPLICATE_KEYWORD,
    KEYWORDS,
    Keyword,
    register_keyword,
    unregister_keyword,
)
from rules.engine.reference import reference_entries
from rules.engine.text import card_text
from rules.engine.validation import MSG_CHOICE

TOY = Keyword("stealth", "Stealth", "R4.99", synonyms=("sneaky",))
LURKER = {"code": "X-M01", "kind": "minion", "name_en": "Lurker", "name_zh": "潜伏者",
          "rarity": "N", "cost": 1, "attack": 1, "attribute": "dark"}
GRANT = {"trigger": "awaken",
         "effects": [{"do": "grant_keyword", "keyword": "stealth", "target": "self"}]}


@pytest.fixture
def toy_keyword():
    register_keyword(TOY, translations={"zh-hans": {"name": "潜行"}})
    yield TOY
    unregister_keyword(TOY.code)


def test_an_unregistered_keyword_is_refused_and_known_nowhere():
    problems = validate_card({**LURKER, "keywords": ["stealth"]})
    assert [p.message for p in problems] == [
        MSG_CHOICE.format(choices=", ".join(KEYWORDS), value="stealth")]
    with pytest.raises(QuerySyntaxError):
        parse("kw:stealth")


def test_a_registered_keyword_is_valid_on_a_card_and_in_an_ability(toy_keyword):
    assert "stealth" in KEYWORDS
    assert validate_card({**LURKER, "keywords": ["stealth"], "abilities": [GRANT]}) == []


def test_a_registered_keyword_is_named_in_both_languages(toy_keyword):
    card = {**LURKER, "keywords": ["stealth"], "abilities": [GRANT]}
    english, chinese = card_text(card, "en", {}), card_text(card, "zh", {})
    assert english.startswith("Stealth.") and "gains Stealth" in english
    assert chinese.startswith("潜行。") and "潜行" in chinese.split("。", 1)[1]


def test_a_registered_keyword_is_searchable_by_code_name_and_synonym(toy_keyword):
    for spelling in ("stealth", "Stealth", "潜行", "sneaky"):
        node = parse(f"kw:{spelling}")
        assert (node.field, node.values) == ("keyword", ("stealth",))


def test_a_registered_keyword_is_on_the_help_page_and_in_the_catalogue_filters(toy_keyword):
    entries = [e for e in reference_entries() if e["section"] == "keyword"]
    toy = next(e for e in entries if e["name"] == "stealth")
    assert (toy["rule"], toy["texts"]) == ("R4.99", {"en": "Stealth.", "zh-hans": "潜行。"})
    assert ("stealth", "Stealth") in keyword_choices()


def test_a_keyword_code_is_registered_once():
    with pytest.raises(ValueError, match=DUPLICATE_KEYWORD.format(code="shield")):
        register_keyword(Keyword("shield", "Shield", "R4.8"))
