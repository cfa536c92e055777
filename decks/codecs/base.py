"""What every codec shares: the import result, its errors, the import limits, deck names.

Invariants: an import either returns an ``ImportedDeck`` or raises ``DeckImportError`` (or its
subclass ``DeckImportTooLarge``) whose problems each say what to fix and, for line-based input,
on which line; no other exception leaves a codec. Nothing here imports Django.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from rules.decks.legality import Deck

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

DID_YOU_MEAN = gettext_lazy(" Did you mean {options}?")
LINE_PREFIX = gettext_lazy("line {line}: {text}")
LINE_COLUMN_PREFIX = gettext_lazy("line {line}, column {column}: {text}")
TOO_MANY_BYTES = gettext_lazy(
    "The input is {size} bytes; an import takes at most {limit} bytes. {advice}"
)
TOO_MANY_LINES = gettext_lazy(
    "The input has {count} lines; an import takes at most {limit}. {advice}"
)
# What to do over the byte or line cap, said by the import that has it (ImportLimits.advice).
ONE_DECK = gettext_lazy("Paste one deck at a time.")
TOO_MANY_CARDS = gettext_lazy(
    "The deck lists {count} cards in all; an import takes at most {limit}. Remove some lines."
)
TOO_MANY_COPIES = gettext_lazy("{count} copies of {name}: a line can hold at most {limit}.")
ZERO_COPIES = gettext_lazy("0 copies of {name}: write a count of at least 1, or delete the line.")
NAME_TOO_LONG = gettext_lazy(
    "The deck name is {length} characters long; shorten it to at most {limit}."
)
BAD_CHARACTER = gettext_lazy("{what} cannot be part of a deck list; delete it.")
NUL_CHARACTER = gettext_lazy("A NUL character (\\x00)")
SURROGATE_CHARACTER = gettext_lazy("A lone surrogate character (U+{code:04X})")
HERO_COUNT = "hero_count"   # the deck rule's code (rules.decks.legality), as validation names it
TOO_MANY_HEROES = gettext_lazy(
    "The list names {count} heroes ({names}); a deck has {limit} hero. Keep one Hero: line."
)


@dataclass(frozen=True)
class ImportLimits:
    """Caps that keep an import cheap: bytes and lines give 413, card counts give 400."""

    max_bytes: int = 32 * 1024
    max_lines: int = 500
    max_copies: int = 99
    max_cards: int = 300
    max_name: int = 100
    max_errors: int = 20
    max_heroes: int | None = None   # the site's decks have one; the codecs alone allow any
    advice: str | Promise = ONE_DECK   # what to do over the byte or line cap
    # What the site knows of its formats, for a text list: the format of a list that names
    # none, and the formats whose heroes are cards of the deck (斗巫师: "2x Ashen Duelist" is
    # two cards of the deck there, not the deck's hero).
    default_format: str | None = None
    heroes_in_deck: frozenset[str] = frozenset()
    # Per format code, where a text list's card lines go without a ``Pile:`` header, and which
    # cards a "did you mean" may offer (see ``Placing``); a format not here: as this game's.
    placing: Mapping[str, Placing] = field(default_factory=dict)


@dataclass(frozen=True)
class Placing:
    """Where a format puts a listed card by its kind: ``hero_kinds`` become the hero (this
    game's hero; Sorcery's avatar), ``kind_piles`` go to a pile of their own (Sorcery's site
    to the atlas), anything else to the main list; ``cards``: the format's game's cards, the
    only ones a "did you mean" suggests (None: any card)."""

    hero_kinds: frozenset[str] = frozenset({"hero"})
    kind_piles: Mapping[str, str] = field(default_factory=dict)
    cards: frozenset[str] | None = None


DEFAULT_LIMITS = ImportLimits()
DEFAULT_PLACING = Placing()


@dataclass(frozen=True)
class ImportProblem:
    """One thing wrong with the input: where (a line number, with a column where one helps, or
    a path), what, and suggestions. ``code`` names a deck rule the list breaks (the stable code
    validation gives it, e.g. ``hero_count``); a problem reading the input has none."""

    message: StrOrPromise   # a str once made (__post_init__)
    line: int | None = None
    where: str | None = None
    suggestions: tuple[str, ...] = ()
    column: int | None = None
    code: str | None = None
    written: str | None = None   # the name as typed on ``line``, which a suggestion replaces

    def __post_init__(self) -> None:
        # A lazily translated message is fixed in the language of the request that read it.
        object.__setattr__(self, "message", str(self.message))

    def __str__(self) -> str:
        text = str(self.message)
        if self.suggestions:
            text += DID_YOU_MEAN.format(options=gettext(" or ").join(
                repr(s) for s in self.suggestions))
        if self.line is not None and self.column is not None:
            return LINE_COLUMN_PREFIX.format(line=self.line, column=self.column, text=text)
        if self.line is not None:
            return LINE_PREFIX.format(line=self.line, text=text)
        if self.where:
            return f"{self.where}: {text}"
        return text

    def fixes(self) -> list[tuple[str, str]]:
        """Each suggestion with the value of the button that applies it (``apply_fix``): the
        line, the name as typed and the suggestion; none for a problem without a line."""
        if self.line is None or not self.written:
            return []
        return [(s, json.dumps([self.line, self.written, s], ensure_ascii=False))
                for s in self.suggestions]

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "where": self.where,
                "code": self.code, "message": str(self.message),
                "suggestions": list(self.suggestions), "text": str(self)}


class DeckImportError(ValueError):
    """The input is not a deck this codec can read. ``status`` is the HTTP status to answer."""

    status = 400

    def __init__(self, problems: list[ImportProblem] | ImportProblem | StrOrPromise) -> None:
        if isinstance(problems, str | Promise):   # a message, lazily translated or not
            problems = [ImportProblem(str(problems))]
        elif isinstance(problems, ImportProblem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("; ".join(str(p) for p in self.problems))


class DeckImportTooLarge(DeckImportError):
    """The input is over the byte or line cap: refused before it is read."""

    status = 413


@dataclass(frozen=True)
class ImportedDeck:
    """A deck read from some input, and the format it says it is for (if it says)."""

    deck: Deck
    format_code: str | None = None
    source: str = "text"
    notes: tuple[str, ...] = field(default=())
    format_line: int | None = None     # where a text list names its format


def clean_name(name: str, limit: int | None = None) -> str:
    """A deck name as stored: no control or format characters, single spaces, trimmed.

    Every codec writes and reads names through this, so a name survives any round trip.
    """
    kept = "".join(ch for ch in str(name) if unicodedata.category(ch)[0] != "C")
    out = " ".join(kept.split())
    return out[:limit] if limit is not None else out


def check_size(text: str, limits: ImportLimits) -> None:
    """The byte and line caps (413), then the characters no deck list may hold (400), checked
    before any parsing."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise DeckImportTooLarge(TOO_MANY_BYTES.format(size=size, limit=limits.max_bytes,
                                                       advice=limits.advice))
    lines = text.count("\n") + 1
    if lines > limits.max_lines:
        raise DeckImportTooLarge(TOO_MANY_LINES.format(count=lines, limit=limits.max_lines,
                                                       advice=limits.advice))
    finish(bad_characters(text), limits)


def _is_bad(char: str) -> bool:
    return char == "\x00" or "\ud800" <= char <= "\udfff"


def storable(text: str) -> str:
    """``text`` without the characters no deck list may hold (for names written in exports)."""
    return "".join(ch for ch in text if not _is_bad(ch))


def bad_characters(text: str) -> list[ImportProblem]:
    """Every NUL and lone surrogate, by line and column: no store or encoder takes them."""
    problems = []
    for line, row in enumerate(text.splitlines(), start=1):
        for column, char in enumerate(row, start=1):
            what: StrOrPromise
            if char == "\x00":
                what = NUL_CHARACTER
            elif "\ud800" <= char <= "\udfff":
                what = SURROGATE_CHARACTER.format(code=ord(char))
            else:
                continue
            problems.append(ImportProblem(BAD_CHARACTER.format(what=what), line=line,
                                          column=column))
    return problems


def check_heroes(heroes: list[str], lines: list[int | None], names: list[str],
                 limits: ImportLimits, where: str | None = None) -> list[ImportProblem]:
    """A problem (on the line of the first hero too many) when the list names more heroes than
    a deck holds."""
    if limits.max_heroes is None or len(heroes) <= limits.max_heroes:
        return []
    return [ImportProblem(TOO_MANY_HEROES.format(count=len(heroes), names=", ".join(names),
                                                 limit=limits.max_heroes),
                          line=lines[limits.max_heroes], where=where, code=HERO_COUNT)]


def check_name(raw: str, limits: ImportLimits, line: int | None = None,
               where: str | None = None) -> tuple[str, list[ImportProblem]]:
    name = clean_name(raw)
    if len(name) > limits.max_name:
        return "", [ImportProblem(NAME_TOO_LONG.format(length=len(name),
                                                       limit=limits.max_name),
                                  line=line, where=where)]
    return name, []


PILE_NAME = gettext_lazy(
    "{name!r} is not a pile name: a pile is named by its code, e.g. atlas or spellbook."
)
_PILE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


def pile_code(raw: str) -> str | None:
    """A pile's code as written in a file (``Atlas`` reads as ``atlas``), or None."""
    code = clean_name(raw).casefold().replace(" ", "-")
    return code if _PILE.match(code) else None


def merged(counts: dict[str, int], piles: dict[str, dict[str, int]]) -> dict[str, int]:
    """Every pile's counts added up by card (for the card-count cap)."""
    out = dict(counts)
    for pile in piles.values():
        for code, n in pile.items():
            out[code] = out.get(code, 0) + n
    return out


def check_total(counts: dict[str, int], heroes: list[str], limits: ImportLimits) -> None:
    total = sum(counts.values()) + len(heroes)
    if total > limits.max_cards:
        raise DeckImportError(TOO_MANY_CARDS.format(count=total, limit=limits.max_cards))


def finish(problems: list[ImportProblem], limits: ImportLimits) -> None:
    """Raise the collected problems (at most ``max_errors`` of them, and how many more)."""
    if not problems:
        return
    shown = problems[:limits.max_errors]
    if len(problems) > len(shown):
        shown.append(ImportProblem(f"… and {len(problems) - len(shown)} more problems."))
    raise DeckImportError(shown)


def apply_fix(text: str, fix: str) -> str:
    """``text`` with one "did you mean" applied: on the button's line, the name as typed
    replaced by the suggestion (``ImportProblem.fixes``); every other line as it was. A
    button that no longer fits the text (edited since) changes nothing."""
    try:
        line, written, suggestion = json.loads(fix)
    except (ValueError, TypeError):
        return text
    if not (isinstance(line, int) and isinstance(written, str) and isinstance(suggestion, str)
            and written and "\n" not in suggestion):
        return text
    lines = text.splitlines(keepends=True)
    if not 1 <= line <= len(lines) or written not in lines[line - 1]:
        return text
    lines[line - 1] = lines[line - 1].replace(written, suggestion, 1)
    return "".join(lines)
