"""The keyword registry: every keyword a card may print, defined once.

A keyword is its code (the data form: ``"keywords": ["shield"]``), its name in English and in
Chinese, the RULES.md id that says what it does, and the further words the catalogue's query
language accepts for it (its names are accepted as they are). The card validator, the snapshot
reader, the rules text in both languages, the vocabulary reference and help pages, the
catalogue's filters and query language, and the replays all read this registry, so a new keyword
is one ``register_keyword`` call here (plus its rule, and its mechanics where the rule applies —
see docs/adding-terms.md) and needs no database migration.

Invariant: codes are unique, lower-case words; ``KEYWORDS`` and ``keyword_names`` are live
views of the registry, never copies, so whatever reads them sees every registered keyword.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

DUPLICATE_KEYWORD = "keyword {code!r} is registered already"
BAD_KEYWORD_CODE = "keyword code {code!r} must be one lower-case word (a-z, 0-9, _)"


@dataclass(frozen=True)
class Keyword:
    code: str
    name_en: str
    name_zh: str
    rule: str                             # the RULES.md id that defines it
    synonyms: tuple[str, ...] = ()        # more words the query language accepts

    def name(self, lang: str) -> str:
        return self.name_zh if lang == "zh" else self.name_en


_REGISTRY: dict[str, Keyword] = {}


def register_keyword(keyword: Keyword) -> Keyword:
    """Add a keyword; ValueError for a taken or malformed code."""
    code = keyword.code
    if not code or not code.isascii() or not code.replace("_", "").isalnum() \
            or code != code.lower():
        raise ValueError(BAD_KEYWORD_CODE.format(code=code))
    if code in _REGISTRY:
        raise ValueError(DUPLICATE_KEYWORD.format(code=code))
    _REGISTRY[code] = keyword
    return keyword


def unregister_keyword(code: str) -> None:
    """Remove a keyword (for tests that register a toy one)."""
    _REGISTRY.pop(code, None)


def keyword(code: str) -> Keyword:
    """A keyword by code; KeyError for an unknown one."""
    return _REGISTRY[code]


def all_keywords() -> tuple[Keyword, ...]:
    """Every keyword, in the order they were registered."""
    return tuple(_REGISTRY.values())


class _Codes(Sequence[str]):
    """The registered codes, in order: a live, read-only sequence."""

    def __getitem__(self, index):
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
            for word in (kw.name_en, kw.name_zh, *kw.synonyms):
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
    """``{code: name}`` in ``lang`` ("en" or "zh"), live."""
    return _Names(lang)


register_keyword(Keyword("shield", "Shield", "护盾", "R4.8"))
register_keyword(Keyword("react", "Re-act", "再动", "R4.9", synonyms=("reactivate",)))
register_keyword(Keyword("regenerate", "Regenerate", "再生", "R4.10", synonyms=("regen",)))
