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
language code (``"en"``, ``"zh-hans"``; a bare ``"zh"`` finds the one ``zh-…`` catalogue).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

SOURCE_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
BAD_CATALOGUE = "{path}: a language's catalogue is a JSON object of key → text ({problem})"

_DERIVED: dict[str, Callable[[str], str]] = {}


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


def catalogue_languages() -> tuple[str, ...]:
    """The languages with a catalogue of their own, English (the source) first."""
    return (SOURCE_LANGUAGE, *(code for code in _catalogue_files() if code != SOURCE_LANGUAGE))


def resolve_language(code: str) -> str:
    """The language ``code`` reads in: itself when it has a catalogue or is derived; else the one
    catalogue of its primary language (``zh`` → ``zh-hans``: the tags' own fallback, as Django
    finds a language's variant); else English."""
    wanted = _normalised(code or SOURCE_LANGUAGE)
    if wanted in _DERIVED or wanted in _catalogue_files() or wanted == SOURCE_LANGUAGE:
        return wanted
    primary = wanted.split("-")[0]
    variants = [known for known in (*_DERIVED, *_catalogue_files())
                if known.split("-")[0] == primary]
    return variants[0] if variants else SOURCE_LANGUAGE


def register_derived_language(code: str, derive: Callable[[str], str]) -> None:
    """Make ``code`` a language whose every word is ``derive(the English word)``."""
    _DERIVED[_normalised(code)] = derive


def unregister_derived_language(code: str) -> None:
    _DERIVED.pop(_normalised(code), None)


def translated(key: str, english: str, lang: str) -> str:
    """The text under ``key`` in ``lang``; ``english`` where the language has none."""
    code = resolve_language(lang)
    derive = _DERIVED.get(code)
    if derive is not None:
        return derive(english)
    if code == SOURCE_LANGUAGE:
        return english
    return _catalogue(code).get(key, english)


class LocalizedText:
    """A game word or sentence in every language: English in the code, the rest in the
    catalogues. Immutable and hashable (a registry's frozen dataclasses hold it)."""

    __slots__ = ("key", "english")

    key: str
    english: str

    def __init__(self, key: str, english: str):
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "english", english)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a LocalizedText is immutable")

    def text(self, lang: str) -> str:
        """This text in ``lang`` (a language code of the site's ``LANGUAGES``)."""
        return translated(self.key, self.english, lang)

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
