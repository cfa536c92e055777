"""The game's words are named once, in both languages, with the rule that defines them
(``rules.engine.words``, the keyword registry, the agent registry)."""

from __future__ import annotations

from rules.ai.agents import AGENTS, BASELINE_AGENT, DEFAULT_AGENT, agent_choices
from rules.engine.basics import ATTRIBUTES, KINDS
from rules.engine.keywords import all_keywords
from rules.engine.term_registry import TRIGGERS
from rules.engine.words import ATTRIBUTE_WORDS, FIELD_WORDS, KIND_WORDS, TRIGGER_WORDS


def test_every_kind_attribute_and_trigger_is_named_in_both_languages_with_its_rule():
    """Rule: R1.4, R1.5"""
    assert tuple(KIND_WORDS) == KINDS and tuple(ATTRIBUTE_WORDS) == ATTRIBUTES
    assert set(TRIGGER_WORDS) == set(TRIGGERS)
    for table in (KIND_WORDS, ATTRIBUTE_WORDS, TRIGGER_WORDS, FIELD_WORDS):
        for code, word in table.items():
            assert word.code == code and word.name_en and word.name_zh and word.rule


def test_a_word_reads_as_a_label_in_a_sentence_and_as_a_heading():
    last_words = TRIGGER_WORDS["last_words"]
    assert (last_words.name("en"), last_words.prose("en")) == ("Last words", "last-words")
    assert last_words.prose("zh") == last_words.name("zh") == "战死技"
    assert KIND_WORDS["minion"].plural("en") == "Minions"
    assert KIND_WORDS["minion"].plural("zh") == "随从"
    assert ATTRIBUTE_WORDS["fire"].prose("en") == "fire"


def test_every_keyword_carries_its_rule_in_both_languages():
    """Rule: R4.8, R4.9, R4.10"""
    for keyword in all_keywords():
        assert keyword.rule and keyword.rule_text("en") and keyword.rule_text("zh")
        assert keyword.rule_text("zh") != keyword.rule_text("en")


def test_every_agent_is_named_in_both_languages_and_the_defaults_are_registered():
    names = [spec.name for spec in AGENTS]
    assert DEFAULT_AGENT == names[0] and BASELINE_AGENT in names
    for spec in AGENTS:
        assert spec.title("en") and spec.title("zh") and spec.label("en") and spec.label("zh")
        assert spec.title("zh") != spec.title("en")
    assert agent_choices("zh")[0] == ("greedy", "贪心(快速启发式)")
    assert [spec.name for spec in AGENTS if spec.fast] == ["greedy", "random"]


def test_every_ruleset_option_reads_as_a_sentence_in_both_languages():
    """Rule: R2.2.6, R2.3.10"""
    from rules.engine.cards import Ruleset
    from rules.engine.ruleset_words import RULESET_OPTIONS, ruleset_name

    options = [name for name in Ruleset().to_dict() if name != "name"]
    assert sorted(RULESET_OPTIONS) == sorted(options)
    assert RULESET_OPTIONS["turn_limit"].sentence(20, "en") == \
        "a draw after 20 turns per player (R2.2.6)"
    assert "20" in RULESET_OPTIONS["turn_limit"].sentence(20, "zh")
    switch = RULESET_OPTIONS["hero_advantage"]
    assert switch.sentence(False, "en") != switch.sentence(True, "en")
    assert switch.sentence(False, "zh") != switch.sentence(False, "en")
    assert (ruleset_name("standard", "zh"), ruleset_name("mirror", "en")) == ("标准", "Mirror")
