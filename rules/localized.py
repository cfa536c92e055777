"""Game words in every language the site speaks: ``LocalizedText``, the one type a registry names
a word with (a keyword, an attribute, an agent, a level of play, a ruleset's option).

A registry writes a word in English, the source, under a key of its own
(``LocalizedText("keyword.shield.name", "Shield")``); its other languages are data, one catalogue
a language in ``rules/locale/<language code>.json`` (``{"keyword.shield.name": "护盾"}``), the
code as the site's ``LANGUAGES`` spells it (``zh-hans``). Adding a language is adding its
catalogue: no registry changes. A key missing from a catalogue reads in English, as gettext
reads a msgid it has no translation for.

A language may also be *derived*: every word computed from the English one by a function
(``register_derived_language``). The site derives its pseudo-locale this way, so a page shown in
it proves that each game word on it came through here.

The rules library never picks a language itself: whoever shows a word passes the reader's
language code (``"en"``, ``"zh-hans"``; a bare primary tag finds the one catalogue of its
language: ``zh`` finds ``zh-hans``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

SOURCE_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
BAD_CATALOGUE = "{path}: a language's catalogue is a JSON object of key → text ({problem})"

_DERIVED: dict[str, Callable[[str], str]] = {}
# Entries a module added to a language's catalogue when it registered a word of its own (a
# keyword a later module registers brings its translations): read before the files.
_ADDED: dict[str, dict[str, str]] = {}


def _normalised(code: str) -> str:
    return code.strip().lower().replace("_", "-")


@cache
def _catalogue_files() -> Mapping[str, Path]:
    return MappingProxyType({_normalised(path.stem): path
                             for path in sorted(LOCALE_DIR.glob("*.json"))})


@cache
def _catalogue(code: str) -> Mapping[str, str]:
    path = _catalogue_files()[code]
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(
            isinstance(key, str) and isinstance(text, str) for key, text in data.items()):
        raise ValueError(BAD_CATALOGUE.format(path=path, problem="every value a string"))
    return MappingProxyType(data)


def gettext_noop(message: str) -> str:
    """Mark ``message`` — an English sentence the library reports with parameters (a card data
    problem) — for the site's gettext catalogue, which translates it; the library itself keeps
    no other language. Named as Django's, so the site's ``makemessages`` extracts it."""
    return message


class Sentence:
    """A sentence the library reports — a problem with data it was given — as its English
    template (a msgid of the site's gettext catalogue, marked with ``gettext_noop``) and the
    parameters to put in (codes, numbers, the value found). ``str()`` is the English, for logs
    and the command line; the site says it in the reader's language (``cards.game_words.say``).
    ``path`` is where in the data it is ("" for the whole)."""

    __slots__ = ("template", "params", "path")

    template: str
    params: Mapping[str, Any]
    path: str

    def __init__(self, template: str, params: Mapping[str, Any] | None = None,
                 path: str = ""):
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "params", dict(params or {}))
        object.__setattr__(self, "path", path)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Sentence is immutable")

    @property
    def message(self) -> str:
        """The sentence in English, without its path."""
        return self.template.format(**self.params)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def __repr__(self) -> str:
        return f"Sentence({self.template!r}, {self.params!r}, {self.path!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sentence) and (self.template, self.params, self.path) == (
            other.template, other.params, other.path)

    def __hash__(self) -> int:
        return hash((self.template, self.path, tuple(sorted(map(str, self.params.items())))))


def catalogue_languages() -> tuple[str, ...]:
    """The languages with a catalogue of their own, English (the source) first."""
    return (SOURCE_LANGUAGE, *(code for code in _catalogue_files() if code != SOURCE_LANGUAGE))


def resolve_language(code: str) -> str:
    """The language ``code`` reads in: itself when it has a catalogue or is derived; else the one
    catalogue of its primary language (``zh`` → ``zh-hans``: the tags' own fallback, as Django
    finds a language's variant); else English."""
    wanted = _normalised(code or SOURCE_LANGUAGE)
    if _known(wanted):
        return wanted
    primary = wanted.split("-")[0]
    variants = [known for known in (*_DERIVED, *_catalogue_files(), *_ADDED)
                if known.split("-")[0] == primary]
    return variants[0] if variants else SOURCE_LANGUAGE


def register_derived_language(code: str, derive: Callable[[str], str]) -> None:
    """Make ``code`` a language whose every word is ``derive(the English word)``."""
    _DERIVED[_normalised(code)] = derive


def unregister_derived_language(code: str) -> None:
    _DERIVED.pop(_normalised(code), None)


def add_translations(lang: str, entries: Mapping[str, str]) -> None:
    """Add ``{key: text}`` to ``lang``'s catalogue (a module registering a word of its own)."""
    code = _normalised(lang)
    _ADDED.setdefault(code, {}).update(entries)


def remove_translations(keys: Iterable[str]) -> None:
    """Take added entries out of every catalogue (a toy word unregistered)."""
    for entries in _ADDED.values():
        for key in keys:
            entries.pop(key, None)


def _known(code: str) -> bool:
    return code == SOURCE_LANGUAGE or code in _DERIVED or code in _catalogue_files() \
        or code in _ADDED


def is_derived_language(lang: str) -> bool:
    """Whether ``lang`` is a derived language (computed from English: the pseudo-locale)."""
    return resolve_language(lang) in _DERIVED


def derived_text(lang: str, english: str) -> str | None:
    """``english`` in ``lang`` when ``lang`` is a derived language, else None."""
    derive = _DERIVED.get(resolve_language(lang))
    return derive(english) if derive is not None else None


def catalogue_text(lang: str, key: str) -> str | None:
    """What ``lang``'s own catalogue says under ``key``; None where it says nothing (English, a
    derived language and a missing key alike)."""
    code = resolve_language(lang)
    text = _ADDED.get(code, {}).get(key)
    if text is None and code in _catalogue_files():
        text = _catalogue(code).get(key)
    return text


def translated(key: str, english: str, lang: str,
               otherwise: LocalizedText | None = None) -> str:
    """The text under ``key`` in ``lang``; where the language has none, ``otherwise`` in it
    (a word's own name standing for the English-only form of it: a plural, a word inside a
    sentence), else ``english``."""
    code = resolve_language(lang)
    derive = _DERIVED.get(code)
    if derive is not None:
        return derive(english)
    if code == SOURCE_LANGUAGE:
        return english
    text = catalogue_text(code, key)
    if text is not None:
        return text
    return otherwise.text(code) if otherwise is not None else english


class LocalizedText:
    """A game word or sentence in every language: English in the code, the rest in the
    catalogues. Immutable and hashable (a registry's frozen dataclasses hold it)."""

    __slots__ = ("key", "english", "otherwise")

    key: str
    english: str
    otherwise: LocalizedText | None

    def __init__(self, key: str, english: str, otherwise: LocalizedText | None = None):
        """``otherwise``: what a language without this key says instead (a plural falls back
        to the word's name in a language that has no plural forms)."""
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "english", english)
        object.__setattr__(self, "otherwise", otherwise)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a LocalizedText is immutable")

    def text(self, lang: str) -> str:
        """This text in ``lang`` (a language code of the site's ``LANGUAGES``)."""
        return translated(self.key, self.english, lang, self.otherwise)

    def in_every_language(self) -> dict[str, str]:
        """``{language: text}`` over every catalogue, for what accepts a word in any of them
        (the query language)."""
        return {lang: self.text(lang) for lang in catalogue_languages()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LocalizedText) and (self.key, self.english) == (
            other.key, other.english)

    def __hash__(self) -> int:
        return hash((self.key, self.english))

    def __repr__(self) -> str:
        return f"LocalizedText({self.key!r}, {self.english!r})"


# A language's short name for itself, heading its column beside others ("EN", "中文").
LANGUAGE_SHORT_NAME = LocalizedText("language.short_name", "EN")
# The script a language is written in (ISO 15924: "Latn", "Hans"): where a page must tell the
# query language's Latin words from the prose around them.
LANGUAGE_SCRIPT = LocalizedText("language.script", "Latn")
