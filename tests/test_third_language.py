"""A third language is data only: a gettext catalogue for the site's sentences, a catalogue of
game words beside ``rules/locale/zh-hans.json``, and one entry in ``LANGUAGES`` — no code. Here
French is added that way (in a temporary folder, a few entries of each) and a page asked for in
French speaks it: the site's sentences from its ``.po``, game words from its catalogue, and
whatever neither translates in English, as gettext does for a msgid it lacks."""

from __future__ import annotations

import json
import shutil
from html import unescape
from pathlib import Path

import polib
import pytest

from cards.models import Card
from common.page_cache import clear_stored_pages
from rules import localized

FRENCH_SENTENCES = {"Cards": "Cartes", "Decks": "Decks de cartes"}
FRENCH_WORDS = {"attribute.fire": "Feu", "attribute.water": "Eau", "kind.minion": "Serviteur",
                "field.attribute": "Attribut"}


@pytest.fixture
def french(settings, tmp_path: Path, monkeypatch):
    words = tmp_path / "words"
    shutil.copytree(localized.LOCALE_DIR, words)
    (words / "fr.json").write_text(json.dumps(FRENCH_WORDS, ensure_ascii=False),
                                   encoding="utf-8")
    monkeypatch.setattr(localized, "LOCALE_DIR", words)
    localized._catalogue_files.cache_clear()
    localized._catalogue.cache_clear()

    messages = tmp_path / "locale" / "fr" / "LC_MESSAGES"
    messages.mkdir(parents=True)
    catalogue = polib.POFile()
    catalogue.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": "fr",
                          "Plural-Forms": "nplurals=2; plural=(n > 1);"}
    for english, french_text in FRENCH_SENTENCES.items():
        catalogue.append(polib.POEntry(msgid=english, msgstr=french_text))
    catalogue.save_as_mofile(str(messages / "django.mo"))

    settings.LANGUAGES = [*settings.LANGUAGES, ("fr", "Français")]
    settings.LOCALE_PATHS = [tmp_path / "locale", *settings.LOCALE_PATHS]
    clear_stored_pages()
    yield
    clear_stored_pages()
    localized._catalogue_files.cache_clear()
    localized._catalogue.cache_clear()


def test_a_third_language_added_as_data_speaks_on_the_catalogue_page(client, catalogue, french):
    page = unescape(client.get("/cards/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert '<html lang="fr"' in page
    assert "Cartes" in page                       # a site sentence, from its .po
    assert "Feu" in page and "Eau" in page        # game words, from its catalogue
    assert "Grass" in page                        # a word its catalogue lacks: English


def test_the_other_languages_are_untouched_by_the_third(client, catalogue, french):
    page = unescape(client.get("/cards/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode())
    assert "火" in page and "Feu" not in page


def test_a_third_language_names_the_catalogue_s_cards_as_data(client, catalogue, french):
    """A card's name in French is one more key of its names (a card set file's data), shown
    on a French page and found by a search in French; other pages keep theirs."""
    card = Card.objects.get(code="T-M01")
    card.names = {**card.names, "fr": "Chiot de braise"}
    card.save(update_fields=["names"])
    clear_stored_pages()
    page = unescape(client.get("/cards/T-M01/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Chiot de braise" in page
    found = unescape(client.get("/cards/", {"q": "braise"},
                                HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "/cards/T-M01/" in found
    english = unescape(client.get("/cards/T-M01/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert card.english_name in english and "Chiot de braise" not in english


def test_a_card_set_file_carries_a_third_language_as_a_names_mapping(client, catalogue, french):
    """The card set file's data form names a card in English and Chinese (name_en, name_zh);
    a further language is a ``names:`` mapping beside them, on the set and on each card."""
    import yaml

    from cards.models import CardSet
    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    data = yaml.safe_load(TEST_SET.read_text(encoding="utf-8"))
    data["set"]["names"] = {"fr": "Jeu d'essai"}
    card = next(item for item in data["cards"] if item["code"] == "T-M01")
    card["names"] = {"fr": "Chiot de braise"}
    card_set_import(source=yaml.safe_dump(data, allow_unicode=True))
    stored = Card.objects.get(code="T-M01")
    assert stored.names["fr"] == "Chiot de braise"
    assert stored.names["en"] == card["name_en"] and stored.names["zh-hans"] == card["name_zh"]
    assert CardSet.objects.get(code=data["set"]["code"]).names["fr"] == "Jeu d'essai"
    clear_stored_pages()
    page = unescape(client.get("/cards/T-M01/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Chiot de braise" in page


def test_a_third_language_writes_the_rules_text_from_its_catalogues_templates(client, catalogue,
                                                                              french):
    """Rules text is written from a catalogue's templates (rules.engine.text_templates): a
    French catalogue with them — here a translator's first pass, the draw and awaken clauses
    in French and the rest as the Chinese catalogue has them — writes every card's French text
    when the cards are refreshed (``load_cards`` does it on start), no code."""
    from cards.services import card_texts_refresh
    from rules.engine.text import ability_text, written_languages

    chinese = json.loads((localized.LOCALE_DIR / "zh-hans.json").read_text(encoding="utf-8"))
    templates = {key: text for key, text in chinese.items() if key.startswith("text.")}
    templates.update({"text.ability": "{label} : {effects}.", "text.trigger.awaken": "Éveil",
                      "text.effect.draw.own": "piochez {n} cartes{note}"})
    (localized.LOCALE_DIR / "fr.json").write_text(
        json.dumps({**FRENCH_WORDS, **templates}, ensure_ascii=False), encoding="utf-8")
    localized._catalogue_files.cache_clear()
    localized._catalogue.cache_clear()

    assert "fr" in written_languages()
    draw = {"trigger": "awaken", "effects": [{"do": "draw", "count": 2}]}
    assert ability_text(draw, "fr") == "Éveil : piochez 2 cartes."
    card_texts_refresh()
    card = Card.objects.get(code="T-M04")                 # Awaken: Draw a card.
    assert card.texts["fr"] == "Éveil : piochez 1 cartes."
    clear_stored_pages()
    page = unescape(client.get("/cards/T-M04/", HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Éveil : piochez 1 cartes." in page


def test_a_catalogue_half_way_through_its_templates_reads_the_english_rules_text(french):
    from rules.engine.text import ability_text, written_languages

    (localized.LOCALE_DIR / "fr.json").write_text(json.dumps(
        {**FRENCH_WORDS, "text.ability": "{label} : {effects}.", "text.trigger.awaken": "Éveil"},
        ensure_ascii=False), encoding="utf-8")
    localized._catalogue_files.cache_clear()
    localized._catalogue.cache_clear()
    draw = {"trigger": "awaken", "effects": [{"do": "draw", "count": 2}]}
    assert "fr" not in written_languages()
    assert ability_text(draw, "fr") == ability_text(draw, "en") == "Awaken: Draw 2 cards."
