"""The translation door of the catalogue's own data: which language a page reads card names,
rules text, descriptions and card images in.

The reader's language is Django's active language (the header's switcher, Accept-Language, or an
old ``?lang=zh`` link). Game words come from the registries' catalogues (``rules.localized``,
``cards.game_words``); site sentences from gettext. The catalogue's data — card, faction, race,
card set, game, declared term and format names, a game's description — is stored in one keyed
field each (``names``, ``descriptions``: ``{language code: text}``, the codes of the site's
``LANGUAGES``, English required), so a third language is new keys, not a new column.
``localized_value`` is the one place that picks a language's text for the reader (English where
that language has none; a derived language, the pseudo-locale, derives from the English one),
and every page asks it instead of comparing language codes.

The rules library's data form still spells a name as a column per language (``name_en``,
``name_zh``: the card set files, the engine's card data, the frozen card maps simulation runs,
tunings and balance jobs store); the door reads those too, so a frozen map stored before the
keyed fields still shows its names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.db.models.fields.json import KeyTextTransform
from django.utils.translation import (
    get_language,
    get_language_info,
    get_supported_language_variant,
    gettext,
    override,
    pgettext,
    to_locale,
)

from rules.localized import (
    LANGUAGE_SCRIPT,
    LANGUAGE_SHORT_NAME,
    catalogue_text,
    derived_text,
    is_derived_language,
    resolve_language,
)

SOURCE_LANGUAGE = "en"

# The languages the rules library's data form writes a name in, by the suffix of its keys
# (``name_en``, ``name_zh``); the first is the source every row has.
DATA_COLUMNS: Mapping[str, str] = {"en": "en", "zh-hans": "zh"}


def data_languages() -> tuple[str, ...]:
    """The languages the catalogue's data may be written in: the site's ``LANGUAGES``, English
    (the source) first."""
    codes = [code for code, _ in settings.LANGUAGES]
    return (SOURCE_LANGUAGE, *(code for code in codes if code != SOURCE_LANGUAGE))


def keyed_field(field: str) -> str:
    """The keyed field that stores ``field`` in every language (``name`` → ``names``)."""
    return f"{field}s"


def reader_language() -> str:
    """The reader's language, as the catalogues name it (``en``, ``zh-hans``, or a derived one):
    the active language, else the site's default."""
    return resolve_language(get_language() or settings.LANGUAGE_CODE)


def _read(source: object, name: str) -> Any:
    return source.get(name) if isinstance(source, Mapping) else getattr(source, name, None)


def localized_texts(source: object, field: str) -> dict[str, str]:
    """``{language: text}`` of ``source``'s ``field``: a row's or a mapping's keyed field
    (``names``), else — a mapping in the rules library's data form, a frozen map stored before
    the keyed fields — its ``<field>_en``, ``<field>_zh`` keys; a mapping with both (a card set
    file may add ``names`` for further languages) gives the keyed field the last word. Empty
    texts are left out."""
    texts: dict[str, str] = {}
    keyed = _read(source, keyed_field(field))
    # A row with the keyed field is read from it alone (whatever it holds: its name_en, if it
    # has one, is read from it in turn).
    if isinstance(source, Mapping) or keyed is None:
        for lang, suffix in DATA_COLUMNS.items():
            value = _read(source, f"{field}_{suffix}")
            if value:
                texts[lang] = str(value)
    if isinstance(keyed, Mapping):
        texts.update({str(lang): str(text) for lang, text in keyed.items() if text})
    return texts


def translations(source: object, field: str) -> dict[str, str]:
    """``localized_texts`` less English: for a row that keeps its English text in a column of
    its own (a format's ``name``)."""
    return {lang: text for lang, text in localized_texts(source, field).items()
            if lang != SOURCE_LANGUAGE}


def source_value(source: object, field: str) -> str:
    """``source``'s ``field`` in English, the source language every row has (sorting, the
    engine's data form, the admin's English column)."""
    return localized_texts(source, field).get(SOURCE_LANGUAGE, "")


def localized_value(source: object, field: str, lang: str | None = None) -> str:
    """``source``'s ``field`` (a row or a mapping with ``names`` — or, in the rules library's
    data form, ``name_en``, ``name_zh`` …) in the reader's language, or in ``lang``: English
    where that language has no text."""
    lang = resolve_language(lang) if lang else reader_language()
    texts = localized_texts(source, field)
    english = texts.get(SOURCE_LANGUAGE, "")
    derived = derived_text(lang, english)
    if derived is not None:
        return derived
    return texts.get(lang) or english


def other_language(lang: str | None = None) -> str:
    """The language of the name shown beside the reader's (its ``lang`` attribute in HTML): the
    source's for a reader of any other language, else the first other the data is written in.
    ``lang``: for a reader of that language instead."""
    reader = resolve_language(lang) if lang else reader_language()
    # A derived language (the pseudo-locale) is English underneath: beside it, as beside
    # English, the first other language.
    if reader != SOURCE_LANGUAGE and not is_derived_language(reader):
        return SOURCE_LANGUAGE
    return next(lang for lang in data_languages() if lang != SOURCE_LANGUAGE)


def reader_reads_source(lang: str | None = None) -> bool:
    """Whether the reader reads the source language (or one derived from it): a page then
    shows a name's other language beside it where a reader of another language sees their own
    alone (a hero's menu, the card page's title)."""
    return other_language(lang) != SOURCE_LANGUAGE


def other_value(source: object, field: str, lang: str | None = None) -> str:
    """``source``'s ``field`` in ``other_language(lang)`` ("" when it has no text in it)."""
    return localized_texts(source, field).get(other_language(lang), "")


def data_form_names(source: object, field: str = "name") -> dict[str, str]:
    """``source``'s ``field`` as the rules library's data form spells it (``{"name_en": …,
    "name_zh": …}``: the engine's card data, a frozen card map, a card set file)."""
    texts = localized_texts(source, field)
    return {f"{field}_{suffix}": texts.get(lang, "") for lang, suffix in DATA_COLUMNS.items()}


def data_form_value(texts: Sequence[str], lang: str | None = None) -> str:
    """A name the rules library's data form gives as a tuple in the order of ``DATA_COLUMNS``
    (``(English, Chinese)``: a format's kind and rarity names, its game's name) in the reader's
    language, or in ``lang``: English where that language has none."""
    return localized_value({"names": dict(zip(DATA_COLUMNS, texts, strict=False))}, "name",
                           lang)


def frozen_card_name(cards: Mapping[str, Mapping[str, Any]], code: str) -> str:
    """The name of ``code`` in the page's language from a frozen ``{code: card data}`` map (a
    simulation run keeps the card data it was played with); the code when it is not there."""
    return localized_value(cards.get(code) or {}, "name") or code


# The keys of a frozen deck's name by language: ``name`` the English (its identity), then the
# data form's column of each other language (``name_zh``).
FROZEN_DECK_NAME_KEYS: Mapping[str, str] = {
    lang: "name" if lang == SOURCE_LANGUAGE else f"name_{suffix}"
    for lang, suffix in DATA_COLUMNS.items()}


def frozen_deck_name(deck: Mapping[str, Any], number: int) -> str:
    """A frozen deck's name in the page's language (a starter deck's card set may give a
    Chinese one, ``name_zh``); ``Deck <number>`` when it has none."""
    name = localized_value({"names": {lang: deck.get(key)
                                      for lang, key in FROZEN_DECK_NAME_KEYS.items()}}, "name")
    return name or gettext("Deck {number}").format(number=number)


def frozen_deck_names(decks: Sequence[Mapping[str, Any]]) -> list[str]:
    """The frozen decks' names in the page's language, told apart where two different decks
    read alike (a player's "Ember Rush" against the starter "Ember Rush"): a starter deck's as
    "(starter)", a saved deck's by its owner's name. The same deck twice keeps its name."""
    names = [frozen_deck_name(deck, number) for number, deck in enumerate(decks, 1)]
    kinds: dict[str, set[tuple[Any, Any]]] = {}
    for name, deck in zip(names, decks, strict=True):
        kinds.setdefault(name.casefold(), set()).add((deck.get("source"), deck.get("uid")))
    return [_told_apart(name, deck) if len(kinds[name.casefold()]) > 1 else name
            for name, deck in zip(names, decks, strict=True)]


def _told_apart(name: str, deck: Mapping[str, Any]) -> str:
    if str(deck.get("source") or "").startswith("starter"):
        return starter_name(name)
    if deck.get("owner"):
        return owned_deck_name(name, str(deck["owner"]))
    return name


def starter_name(name: str) -> str:
    """A starter deck's name where a player's deck has the same one."""
    # Translators: a starter deck's name beside a player's deck of the same name.
    return gettext("{name} (starter)").format(name=name)


def owned_deck_name(name: str, owner: str) -> str:
    """A player's deck's name where a starter deck has the same one: "Ember Rush (alice)"."""
    # Translators: a player's deck's name with its owner's, beside a starter deck of that name.
    return gettext("{name} ({owner})").format(name=name, owner=owner)


def text_in_any_language(text: str, field: str = "name", path: str = "",
                         lookup: str = "icontains") -> Q:
    """The rows whose ``field`` in any language of the site matches ``text`` (``path``: the
    relation to them, ``"card__"``): a search by name finds a card in every language."""
    keyed = f"{path}{keyed_field(field)}"
    found = Q()
    for lang in data_languages():
        found |= Q(**{f"{keyed}__{lang}__{lookup}": text})
    return found


def in_english(field: str = "name", path: str = "") -> KeyTextTransform:
    """``field`` in English as a database expression, for ordering by it (``path``: the
    relation, ``"card__"``); works on SQLite and PostgreSQL alike."""
    return KeyTextTransform(SOURCE_LANGUAGE, f"{path}{keyed_field(field)}")


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
    return get_supported_language_variant(option)


def rules_texts(card: object) -> list[tuple[str, str]]:
    """(language, text) of a card's rules text in the reader's language first, then in each
    other language the data is written in: the card page shows them all."""
    reader = reader_language()
    others = [lang for lang in data_languages() if lang != reader
              and not (is_derived_language(reader) and lang == SOURCE_LANGUAGE)]
    return [(lang, localized_value(card, "text", lang)) for lang in (reader, *others)]


def image_language_query(lang: str) -> str:
    """The query a card image's address adds for the site language ``lang`` (the image is drawn
    in it): none for the source's."""
    return f"lang={lang}" if lang != SOURCE_LANGUAGE else ""


def html_lang(lang: str | None = None) -> str:
    """The tag of a site language as HTML's ``lang`` attribute and BCP 47 write it (``zh-hans``
    → ``zh-Hans``, ``en-xa`` → ``en-XA``): Django's locale name with a dash. ``lang``: the
    active language when not given."""
    return to_locale(lang or get_language() or settings.LANGUAGE_CODE).replace("_", "-")


def language_short_name(lang: str) -> str:
    """A language's short name for itself ("EN", "中文"): its catalogue's, else (a language with
    no catalogue of its own, the pseudo-locale) Django's name of the language in itself."""
    if lang == SOURCE_LANGUAGE:
        return LANGUAGE_SHORT_NAME.english
    own = catalogue_text(lang, LANGUAGE_SHORT_NAME.key)
    return own if own is not None else str(get_language_info(lang)["name_local"])


def language_name(lang: str) -> str:
    """A site language's name in the reader's language ("Simplified Chinese", "英语"):
    Django's own translations of it, else the settings' name for it."""
    try:
        return str(get_language_info(lang)["name_translated"])
    except KeyError:
        return dict(settings.LANGUAGES).get(lang, lang)


def language_own_name(lang: str) -> str:
    """A language's whole name in itself ("English", "简体中文"), as gettext in that language
    says it: what heads a text written in it."""
    with override(lang):
        return pgettext("this language's own name, over the rules text in it", "English")


def site_languages() -> list[dict[str, str]]:
    """The header's language switcher: each of the site's languages by its code, its HTML tag
    and its short name for itself."""
    return [{"code": code, "tag": html_lang(code), "label": language_short_name(code)}
            for code, _name in settings.LANGUAGES]
