"""The translation door of the catalogue's own data: which language a page reads card names,
rules text, descriptions and card images in.

The reader's language is Django's active language (the header's switcher, Accept-Language, or an
old ``?lang=zh`` link). Game words come from the registries' catalogues (``rules.localized``,
``cards.game_words``); site sentences from gettext. The catalogue's data — card, faction, race,
game, format and pile names, rules text, descriptions — is written in English and Chinese in
two columns each (``name_en``, ``name_zh``); ``localized_value`` is the one place that picks a
column for the reader (English where the other is empty; a derived language, the pseudo-locale,
derives from the English one), and every page asks it instead of comparing language codes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import get_language

from rules.localized import LANGUAGE_SCRIPT, derived_text, resolve_language

# The languages the catalogue's data is written in, by the suffix of their columns; the first is
# the source every row has.
DATA_COLUMNS: Mapping[str, str] = {"en": "en", "zh-hans": "zh"}
SOURCE_COLUMN = "en"


def reader_language() -> str:
    """The reader's language, as the catalogues name it (``en``, ``zh-hans``, or a derived one):
    the active language, else the site's default."""
    return resolve_language(get_language() or settings.LANGUAGE_CODE)


def card_lang() -> str:
    """The suffix of the data columns the reader's language reads (``en`` or ``zh``): for the
    card data that is stored per language (card images, the rules text the engine writes)."""
    return DATA_COLUMNS.get(reader_language(), SOURCE_COLUMN)


def _read(source: object, name: str) -> str:
    value = source.get(name) if isinstance(source, Mapping) else getattr(source, name, "")
    return str(value) if value else ""


def localized_value(source: object, field: str, lang: str | None = None) -> str:
    """``source``'s ``field`` (a row or a mapping with ``<field>_en``, ``<field>_zh`` …) in the
    reader's language, or in ``lang``: English where that language's column is empty."""
    lang = resolve_language(lang) if lang else reader_language()
    english = _read(source, f"{field}_{SOURCE_COLUMN}")
    derived = derived_text(lang, english)
    if derived is not None:
        return derived
    column = DATA_COLUMNS.get(lang, SOURCE_COLUMN)
    return (_read(source, f"{field}_{column}") or english) if column != SOURCE_COLUMN else english


def other_language() -> str:
    """The language of the name shown beside the reader's (its ``lang`` attribute in HTML): the
    source's for a reader of any other language, else the first other the data is written in."""
    reader = reader_language()
    if DATA_COLUMNS.get(reader, SOURCE_COLUMN) != SOURCE_COLUMN or derived_text(reader, "") \
            is not None:
        return SOURCE_COLUMN
    return next(lang for lang in DATA_COLUMNS if lang != SOURCE_COLUMN)


def other_value(source: object, field: str) -> str:
    """``source``'s ``field`` in ``other_language()`` ("" when that column is empty)."""
    return _read(source, f"{field}_{DATA_COLUMNS[other_language()]}")


def frozen_card_name(cards: Mapping[str, Mapping[str, Any]], code: str) -> str:
    """The name of ``code`` in the page's language from a frozen ``{code: card data}`` map (a
    simulation run keeps the card data it was played with); the code when it is not there."""
    return localized_value(cards.get(code) or {}, "name") or code


def frozen_deck_name(deck: Mapping[str, Any], number: int) -> str:
    """A frozen deck's name in the page's language (a starter deck's card set may give a
    Chinese one, ``name_zh``); ``Deck <number>`` when it has none."""
    from django.utils.translation import gettext

    name = localized_value({"name_en": deck.get("name"), "name_zh": deck.get("name_zh")}, "name")
    return name or gettext("Deck {number}").format(number=number)


def reader_writes_latin_script() -> bool:
    """Whether the reader's language is written in Latin letters (its catalogue says its
    script), so a Latin word in a sentence may be prose rather than something typed."""
    return LANGUAGE_SCRIPT.text(reader_language()) == LANGUAGE_SCRIPT.english


def language_options() -> list[str]:
    """What a command's ``--lang`` accepts: each of the site's languages by its code and by its
    primary language alone (``zh-hans``, ``zh``)."""
    codes = [code for code, _name in settings.LANGUAGES]
    return sorted({*codes, *(code.split("-")[0] for code in codes)})


def site_language(option: str) -> str:
    """The site's language a ``--lang`` option names (``zh`` → ``zh-hans``)."""
    from django.utils.translation import get_supported_language_variant

    return get_supported_language_variant(option)
