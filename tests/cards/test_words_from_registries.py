"""Engine words reach the site from their registries, not from the ``.po`` files: a word
changed in ``rules.engine.words`` shows up, in both languages, on the vocabulary page (its
section titles), in a replay's sentence (an effect's duration), in the admin's names for
factions and races, and in the deck legality messages (card kinds). Rule: R1.4 (kinds and
fields), R4 (the ability language)."""

from __future__ import annotations

from html import unescape

import pytest
from django.utils import translation

from cards.models import Card, Faction, Race
from cards.page_cache import clear_stored_pages
from rules.decks import legality
from rules.engine import words
from rules.engine.words import Word
from simulations.replay_text import Describer


def _with(table, *changed: Word):
    """``table`` with the ``changed`` words in place of the ones of the same code."""
    return words._table(*(next((c for c in changed if c.code == w.code), w)
                          for w in table.values()))


@pytest.mark.parametrize("header, title", [({"HTTP_ACCEPT_LANGUAGE": "en"}, "Effect terms"),
                                           ({"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}, "效果词")])
def test_the_vocabulary_page_titles_its_sections_with_the_registry_words(
        client, db, monkeypatch, header, title):
    monkeypatch.setattr(words, "SECTION_WORDS",
                        _with(words.SECTION_WORDS, Word("effect", "Effect terms", "效果词")))
    clear_stored_pages()
    page = unescape(client.get("/cards/vocabulary/", **header).content.decode())
    clear_stored_pages()
    assert f">{title}</h2>" in page


@pytest.mark.parametrize("lang, sentence", [
    ("en", "Ember Pup: attack +2 until the turn ends."),
    ("zh-hans", "Ember Pup：攻击力 +2(到回合结束)。"),
])
def test_a_replay_names_a_duration_with_the_registry_word(monkeypatch, lang, sentence):
    monkeypatch.setattr(words, "DURATION_WORDS", _with(
        words.DURATION_WORDS, Word("turn", "Until the turn ends", "到回合结束",
                                   prose_en="until the turn ends")))
    event = {"t": "attack_change", "card": "C1", "amount": 2, "duration": "turn"}
    with translation.override(lang):
        text = Describer({"C1": "Ember Pup"})(event)
    assert text == sentence


def test_the_duration_words_are_the_registry_s_in_both_languages():
    event = {"t": "attack_change", "card": "C1", "amount": -1, "duration": "permanent"}
    for lang, word in (("en", words.DURATION_WORDS["permanent"].prose("en")),
                       ("zh-hans", words.DURATION_WORDS["permanent"].name_zh)):
        with translation.override(lang):
            assert word in Describer({"C1": "Ember Pup"})(event)


@pytest.mark.parametrize("lang, faction, factions, race", [
    ("en", "clan", "clans", "breed"), ("zh-hans", "氏族", "氏族", "血统")])
def test_faction_race_and_card_fields_are_named_by_the_registry(monkeypatch, lang, faction,
                                                                factions, race):
    monkeypatch.setattr(words, "FIELD_WORDS", _with(
        words.FIELD_WORDS, Word("faction", "Clan", "氏族", plural_en="Clans"),
        Word("race", "Breed", "血统", plural_en="Breeds")))
    with translation.override(lang):
        assert str(Faction._meta.verbose_name) == faction
        assert str(Faction._meta.verbose_name_plural) == factions
        assert str(Race._meta.verbose_name) == race
        assert str(Card._meta.get_field("faction").verbose_name) == faction


def test_deck_legality_names_card_kinds_with_the_registry_words(monkeypatch):
    monkeypatch.setattr(legality, "KIND_WORDS", _with(
        words.KIND_WORDS, Word("minion", "Creature", "生物", plural_en="Creatures"),
        Word("hero", "Champion", "勇者", plural_en="Champions")))
    assert legality._a("minion") == "a creature"
    assert legality._a("minion", "zh") == "生物卡"
    assert legality._kinds_words(["minion", "item"]) == "creatures and items"
    assert legality._kinds_words(["minion", "item"], "zh") == "生物卡和道具卡"
    assert legality._hero_want(2, "en") == "2 champions"
    assert legality._hero_want(1, "zh") == "1 张勇者卡"


def test_deck_legality_writes_no_kind_word_of_its_own():
    """The Chinese catalogue of legality holds sentences; kind names are the registry's."""
    from rules.decks import legality_zh

    assert not hasattr(legality_zh, "KIND_WORDS")
    assert legality._a("hero", "zh") == f"{words.KIND_WORDS['hero'].name_zh}卡"
    assert legality._kinds_words(["hero"]) == words.KIND_WORDS["hero"].plural("en").lower()
