"""Every page names a game word through one function, ``cards.game_words.game_word``, which
answers from the engine's registries in the page's language."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from cards.game_words import READERS, game_word
from cards.models import Attribute, Kind


@pytest.mark.parametrize(("kind", "code", "english", "chinese"), [
    ("keyword", "react", "Re-act", "再动"),
    ("attribute", "fire", "Fire", "火"),
    ("kind", "minion", "Minion", "随从"),
    ("kinds", "minion", "Minions", "随从"),
    ("trigger", "last_words", "Last words", "战死技"),
    ("field", "attack", "Attack", "攻击力"),
    ("agent", "planner", "planner", "规划"),
    ("agent_label", "greedy", "Greedy (fast heuristic)", "贪心(快速启发式)"),
])
def test_a_word_is_named_in_the_page_language(kind, code, english, chinese):
    assert game_word(kind, code, lang="en") == english
    with translation.override("zh-hans"):
        assert game_word(kind, code) == chinese
    with translation.override("en"):
        assert game_word(kind, code) == english


def test_prose_lower_cases_english_only():
    assert game_word("keyword", "react", lang="en", prose=True) == "re-act"
    assert game_word("trigger", "turn_start", lang="en", prose=True) == "start-of-turn"
    assert game_word("keyword", "react", lang="zh", prose=True) == "再动"


def test_an_unregistered_code_is_shown_as_it_is_and_an_unknown_kind_is_an_error():
    for kind in READERS.keys() - {"ruleset"}:
        assert game_word(kind, "zzz", lang="en") == "zzz"
    assert game_word("ruleset", "mirror", lang="en") == "Mirror"     # a ruleset's own name
    assert game_word("ruleset_option", "no_such", value=3, lang="en") == "no such: 3"
    assert game_word("keyword", None, lang="en") == ""
    with pytest.raises(ValueError, match="unknown kind of game word 'colour'"):
        game_word("colour", "red")


def test_the_template_filter_and_the_model_choices_read_the_same_words():
    template = Template('{% load cards_extras %}{{ "shield"|game_word:"keyword" }} '
                        '{{ "hero"|game_word:"kinds" }}')
    with translation.override("zh-hans"):
        assert template.render(Context()) == "护盾 英雄"
        assert (str(Kind("item").label), str(Attribute("dark").label)) == ("道具", "暗")
    with translation.override("en"):
        assert template.render(Context()) == "Shield Heroes"
        assert str(Kind("item").label) == "Item"
