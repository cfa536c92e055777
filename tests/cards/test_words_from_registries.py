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
from common.page_cache import clear_stored_pages
from decks.problem_text import problems_text
from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.legality import STANDARD, Deck, Format, check_deck
from rules.engine import words
from rules.engine.words import Word
from rules.localized import add_translations, remove_translations
from simulations.replays.text import Describer


def _with(table, *changed: tuple[Word, str]):
    """``table`` with the ``changed`` words in place of the ones of the same code, each with
    its Chinese name added to the catalogue (as a designer would edit ``rules/locale``)."""
    kind = next(iter(table.values())).table
    add_translations("zh-hans", {f"{kind}.{word.code}": chinese for word, chinese in changed})
    new = {word.code: word for word, _chinese in changed}
    return words._table(kind, *(new.get(w.code, w) for w in table.values()))


@pytest.fixture(autouse=True)
def _catalogue_as_it_was():
    yield
    remove_translations([f"{table}.{code}" for table in ("section", "duration", "field", "kind")
                         for code in ("effect", "turn", "faction", "race", "minion", "hero")])


@pytest.mark.parametrize("header, title", [({"HTTP_ACCEPT_LANGUAGE": "en"}, "Effect terms"),
                                           ({"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}, "效果词")])
def test_the_vocabulary_page_titles_its_sections_with_the_registry_words(
        client, db, monkeypatch, header, title):
    monkeypatch.setattr(words, "SECTION_WORDS",
                        _with(words.SECTION_WORDS, (Word("effect", "Effect terms"), "效果词")))
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
        words.DURATION_WORDS, (Word("turn", "Until the turn ends",
                                    prose_en="until the turn ends"), "到回合结束")))
    event = {"t": "attack_change", "card": "C1", "amount": 2, "duration": "turn"}
    with translation.override(lang):
        text = Describer({"C1": "Ember Pup"})(event)
    assert text == sentence


def test_the_duration_words_are_the_registry_s_in_both_languages():
    event = {"t": "attack_change", "card": "C1", "amount": -1, "duration": "permanent"}
    for lang, word in (("en", words.DURATION_WORDS["permanent"].prose("en")),
                       ("zh-hans", words.DURATION_WORDS["permanent"].name("zh-hans"))):
        with translation.override(lang):
            assert word in Describer({"C1": "Ember Pup"})(event)


@pytest.mark.parametrize("lang, faction, factions, race", [
    ("en", "clan", "clans", "breed"), ("zh-hans", "氏族", "氏族", "血统")])
def test_faction_race_and_card_fields_are_named_by_the_registry(monkeypatch, lang, faction,
                                                                factions, race):
    monkeypatch.setattr(words, "FIELD_WORDS", _with(
        words.FIELD_WORDS, (Word("faction", "Clan", plural_en="Clans"), "氏族"),
        (Word("race", "Breed", plural_en="Breeds"), "血统")))
    with translation.override(lang):
        assert str(Faction._meta.verbose_name) == faction
        assert str(Faction._meta.verbose_name_plural) == factions
        assert str(Race._meta.verbose_name) == race
        assert str(Card._meta.get_field("faction").verbose_name) == faction


def _legality(deck: Deck, fmt: Format, lang: str) -> list[str]:
    """The messages of ``deck``'s problems under ``fmt``, as the site says them in ``lang``."""
    cards = load_card_set(TEST_SET).cards
    problems = check_deck(deck, cards, fmt)
    with translation.override(lang):
        return [p.message for p in problems_text(problems, fmt=fmt, cards=cards)]


@pytest.mark.parametrize("lang, sentences", [
    ("en", ["The deck has no hero; the Standard format needs exactly 2 champions.",
            "Tide Oracle is a champion; a Standard deck may only hold creatures and items.",
            "The deck has no hero; the Standard format needs exactly 1 champion."]),
    ("zh-hans", ["卡组没有英雄;标准赛制需要恰好 2 张勇者卡。",
                 "「潮汐先知」是勇者卡;标准赛制的卡组只能包含生物卡和道具卡。",
                 "卡组没有英雄;标准赛制需要恰好 1 张勇者卡。"]),
])
def test_deck_legality_names_card_kinds_with_the_registry_words(monkeypatch, lang, sentences):
    monkeypatch.setattr(words, "KIND_WORDS", _with(
        words.KIND_WORDS, (Word("minion", "Creature", plural_en="Creatures"), "生物"),
        (Word("hero", "Champion", plural_en="Champions"), "勇者")))
    two_heroes = Format(hero_count=2)
    deck = Deck(heroes=(), counts={"T-H02": 1})
    assert _legality(deck, two_heroes, lang)[:2] == sentences[:2]
    assert _legality(deck, STANDARD, lang)[0] == sentences[2]


def test_deck_legality_writes_no_kind_word_of_its_own():
    """Legality's sentences are the .po's; the kinds in them are the registry's words."""
    deck = Deck(heroes=("T-M01",), counts={})
    minion = words.KIND_WORDS["minion"]
    assert f"is a {minion.prose('en')}, not a hero" in _legality(deck, STANDARD, "en")[0]
    assert f"是{minion.name('zh-hans')}卡,不是英雄卡" in _legality(deck, STANDARD, "zh-hans")[0]
