"""The keyword registry: every keyword a card may print, defined once.

A keyword is its code (the data form: ``"keywords": ["shield"]``), its name in English, its
rule — an id and what it says — and the further words the catalogue's query language accepts
for it (its names in every language are accepted as they are). Its name and rule in other
languages are data in the catalogues of ``rules/locale`` (``keyword.shield``,
``keyword.shield.rule``); a keyword a later module registers brings its own
(``register_keyword(…, translations=…)``). The card
validator, the snapshot reader, the rules text in both languages, the vocabulary reference and
help pages, the catalogue's filters, query language and card art, the replays and the rule-id
coverage test all read this registry, so a new keyword is one ``register_keyword`` call here,
its translations, its mechanics where the rule applies and its test (docs/adding-terms.md),
with no migration.

Invariant: codes are unique, lower-case words; ``KEYWORDS`` (the codes, in order) and
``keyword_names`` (``{code: name}`` in one language) are live views of the registry, never
copies, so whatever reads them sees every registered keyword.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import overload

from rules.localized import LocalizedText, add_translations, remove_translations

DUPLICATE_KEYWORD = "keyword {code!r} is registered already"
BAD_KEYWORD_CODE = "keyword code {code!r} must be one lower-case word (a-z, 0-9, _)"


@dataclass(frozen=True)
class Keyword:
    """A keyword, in English; its other languages are in the catalogues (``rules/locale``:
    ``keyword.<code>`` its name, ``keyword.<code>.rule`` what its rule says)."""

    code: str
    name_en: str
    rule: str                             # its rule's id (RULES.md R4 numbering)
    rule_en: str = ""                     # what the rule says, in English
    synonyms: tuple[str, ...] = ()        # more words the query language accepts

    @property
    def localized_name(self) -> LocalizedText:
        return LocalizedText(f"keyword.{self.code}", self.name_en)

    @property
    def localized_rule(self) -> LocalizedText:
        return LocalizedText(f"keyword.{self.code}.rule", self.rule_en)

    def name(self, lang: str) -> str:
        return self.localized_name.text(lang)

    def prose(self, lang: str) -> str:
        """The name inside a sentence ("gains shield")."""
        return LocalizedText(f"keyword.{self.code}.prose", self.name_en.lower(),
                             self.localized_name).text(lang)


_REGISTRY: dict[str, Keyword] = {}
_TRANSLATION_KEYS = {"name": "keyword.{code}", "rule": "keyword.{code}.rule"}


def register_keyword(keyword: Keyword,
                     translations: Mapping[str, Mapping[str, str]] | None = None) -> Keyword:
    """Add a keyword; ValueError for a taken or malformed code. A keyword a later module
    registers brings its other languages' words: ``{language: {"name": …, "rule": …}}``."""
    code = keyword.code
    if not code or not code.isascii() or not code.replace("_", "").isalnum() \
            or code != code.lower():
        raise ValueError(BAD_KEYWORD_CODE.format(code=code))
    if code in _REGISTRY:
        raise ValueError(DUPLICATE_KEYWORD.format(code=code))
    _REGISTRY[code] = keyword
    for lang, words in (translations or {}).items():
        add_translations(lang, {_TRANSLATION_KEYS[part].format(code=code): text
                                for part, text in words.items()})
    return keyword


def unregister_keyword(code: str) -> None:
    """Remove a keyword (for tests that register a toy one), its translations with it."""
    _REGISTRY.pop(code, None)
    remove_translations(key.format(code=code) for key in _TRANSLATION_KEYS.values())


def keyword(code: str) -> Keyword:
    """A keyword by code; KeyError for an unknown one."""
    return _REGISTRY[code]


def all_keywords() -> tuple[Keyword, ...]:
    """Every keyword, in the order they were registered."""
    return tuple(_REGISTRY.values())


class _Codes(Sequence[str]):
    """The registered codes, in order: a live, read-only sequence."""

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...

    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return tuple(_REGISTRY)[index]

    def __len__(self) -> int:
        return len(_REGISTRY)

    def __contains__(self, code: object) -> bool:
        return code in _REGISTRY

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_REGISTRY))

    def __eq__(self, other: object) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, Sequence) else other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(tuple(_REGISTRY))


class _Names(Mapping[str, str]):
    """``{code: name}`` in one language: a live, read-only mapping."""

    def __init__(self, lang: str):
        self.lang = lang

    def __getitem__(self, code: str) -> str:
        return _REGISTRY[code].name(self.lang)

    def __len__(self) -> int:
        return len(_REGISTRY)

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_REGISTRY))


class _QueryWords(Mapping[str, str]):
    """``{word: code}``: every spelling the query language accepts for a keyword (its names,
    lower-cased, and its synonyms), live."""

    def _table(self) -> dict[str, str]:
        table: dict[str, str] = {}
        for kw in _REGISTRY.values():
            for word in (*kw.localized_name.in_every_language().values(), *kw.synonyms):
                table.setdefault(word.lower(), kw.code)
        return table

    def __getitem__(self, word: str) -> str:
        return self._table()[word]

    def __len__(self) -> int:
        return len(self._table())

    def __iter__(self) -> Iterator[str]:
        return iter(self._table())


KEYWORDS: Sequence[str] = _Codes()
KEYWORD_QUERY_WORDS: Mapping[str, str] = _QueryWords()


def keyword_names(lang: str) -> Mapping[str, str]:
    """``{code: name}`` in ``lang`` (a language code), live."""
    return _Names(lang)


register_keyword(Keyword(
    "shield", "Shield", "R4.8",
    "In combat, when this minion is at an attribute disadvantage, resolve as if there were no "
    "advantage."))
register_keyword(Keyword(
    "react", "Re-act", "R4.9",
    "When this minion attacks an enemy minion and destroys it, it may attack once more (any "
    "target, the enemy hero included). At most once per turn.",
    synonyms=("reactivate",)))
register_keyword(Keyword(
    "regenerate", "Regenerate", "R4.10",
    "When this minion would enter dying, it revives instead, keeping its awakened or sleeping "
    "state and every buff and debuff it had before the combat began. At most once per turn.",
    synonyms=("regen",)))
