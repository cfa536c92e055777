"""The game's words are named once, in English with the rule that defines them
(``rules.engine.words``, the keyword registry, the agent registry, the ruleset's options), and in
each other language by its catalogue (``rules/locale/<code>.json``), which names every one of
them and nothing else."""

from __future__ import annotations

import json

import pytest

from rules.ai.agents import AGENTS, BASELINE_AGENT, DEFAULT_AGENT, SKILLS
from rules.engine import text_templates, words
from rules.engine.basics import ATTRIBUTES, KINDS
from rules.engine.keywords import all_keywords
from rules.engine.reference import reference_entries
from rules.engine.ruleset_words import RULESET_NAMES, RULESET_OPTIONS
from rules.engine.term_registry import TRIGGERS
from rules.engine.words import ATTRIBUTE_WORDS, FIELD_WORDS, KIND_WORDS, TRIGGER_WORDS
from rules.localized import (
    LANGUAGE_SCRIPT,
    LANGUAGE_SHORT_NAME,
    LOCALE_DIR,
    LocalizedText,
    catalogue_languages,
    translated,
)


def test_every_kind_attribute_and_trigger_is_named_in_both_languages_with_its_rule():
    """Rule: R1.4, R1.5"""
    assert tuple(KIND_WORDS) == KINDS and tuple(ATTRIBUTE_WORDS) == ATTRIBUTES
    assert set(TRIGGER_WORDS) == set(TRIGGERS)
    for table in (KIND_WORDS, ATTRIBUTE_WORDS, TRIGGER_WORDS, FIELD_WORDS):
        for code, word in table.items():
            assert word.code == code and word.name_en and word.rule
            assert word.name("zh-hans") != word.name_en or word.name_en == "HP"


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
        rule = keyword.localized_rule
        assert keyword.rule and rule.text("en") and rule.text("zh")
        assert rule.text("zh") != rule.text("en")


def test_every_agent_is_named_in_both_languages_and_the_defaults_are_registered():
    names = [spec.name for spec in AGENTS]
    assert DEFAULT_AGENT == names[0] and BASELINE_AGENT in names
    for spec in AGENTS:
        assert spec.title("en") and spec.title("zh") and spec.label("en") and spec.label("zh")
        assert spec.title("zh") != spec.title("en")
    assert (AGENTS[0].name, AGENTS[0].label("zh")) == ("greedy", "贪心(快速启发式)")
    assert [spec.name for spec in AGENTS if spec.fast] == ["greedy", "random", "learned"]


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


def _registry_keys() -> dict[str, str]:
    """``{catalogue key: English}`` of every word the registries name."""
    keys: dict[str, str] = {}
    for table in (words.KIND_WORDS, words.ATTRIBUTE_WORDS, words.TRIGGER_WORDS,
                  words.FIELD_WORDS, words.DURATION_WORDS, words.SECTION_WORDS):
        for word in table.values():
            keys[word.key] = word.name_en
    for keyword in all_keywords():
        keys[keyword.localized_name.key] = keyword.name_en
        keys[keyword.localized_rule.key] = keyword.rule_en
    for spec in AGENTS:
        keys[f"agent.{spec.name}"] = spec.title_en
        keys[f"agent.{spec.name}.label"] = spec.label_en
    for skill in SKILLS.values():
        keys[f"skill.{skill.code}"] = skill.name_en
    for option in RULESET_OPTIONS.values():
        keys[f"ruleset_option.{option.option}.on"] = option.on_en
        if option.off_en:
            keys[f"ruleset_option.{option.option}.off"] = option.off_en
    for name, english in RULESET_NAMES.items():
        keys[f"ruleset.{name}"] = english
    # the vocabulary's descriptions of its terms and of their fields
    for entry in reference_entries():
        if entry["section"] != "keyword":
            keys[f"term_doc.{entry['section']}.{entry['name']}"] = entry["doc"]
        for field in entry.get("fields") or ():
            keys[f"field_doc.{field['name']}"] = field["doc"]
    for fact in (LANGUAGE_SHORT_NAME, LANGUAGE_SCRIPT):
        keys[fact.key] = fact.english
    return keys


# Forms a catalogue may give beside a word's name, when its language has them.
OPTIONAL_FORMS = (".prose", ".plural", ".plural_prose")


@pytest.mark.parametrize("lang", [code for code in catalogue_languages() if code != "en"])
def test_each_language_s_catalogue_names_every_registry_word_and_nothing_else(lang):
    catalogue = json.loads((LOCALE_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    keys = _registry_keys()
    if text_templates.REQUIRED in catalogue:     # it writes rules text: every template
        keys.update(text_templates.TEMPLATES)
    missing = sorted(set(keys) - set(catalogue))
    unknown = sorted(key for key in set(catalogue) - set(keys)
                     if not (key.endswith(OPTIONAL_FORMS) and key.rsplit(".", 1)[0] in keys))
    assert (missing, unknown) == ([], [])
    placeholders_lost = [key for key, english in keys.items()
                         if "{n}" in english and "{n}" not in catalogue[key]]
    assert placeholders_lost == []


def test_a_language_without_a_catalogue_reads_in_english_and_a_variant_finds_its_own():
    shield = LocalizedText("keyword.shield", "Shield")
    assert shield.text("fr") == "Shield"
    assert shield.text("zh") == shield.text("zh-hans") == shield.text("zh_Hans") == "护盾"
    assert translated("keyword.no_such_word", "Whatever", "zh-hans") == "Whatever"


def test_a_word_without_its_own_plural_in_a_language_says_its_name_there():
    minion = words.KIND_WORDS["minion"]
    assert (minion.plural("en"), minion.plural("zh-hans")) == ("Minions", minion.name("zh-hans"))
