"""What every codec shares: the import result, its errors, the import limits, deck names.

Invariants: an import either returns an ``ImportedDeck`` or raises ``DeckImportError`` (or its
subclass ``DeckImportTooLarge``) whose problems each say what to fix and, for line-based input,
on which line; no other exception leaves a codec. Nothing here imports Django.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from rules.legality import Deck

TOO_MANY_BYTES = ("The input is {size} bytes; an import takes at most {limit} bytes. "
                  "Paste one deck at a time.")
TOO_MANY_LINES = ("The input has {count} lines; an import takes at most {limit}. "
                  "Paste one deck at a time.")
TOO_MANY_CARDS = ("The deck lists {count} cards in all; an import takes at most {limit}. "
                  "Remove some lines.")
TOO_MANY_COPIES = "{count} copies of {name}: a line can hold at most {limit}."
ZERO_COPIES = "0 copies of {name}: write a count of at least 1, or delete the line."
NAME_TOO_LONG = "The deck name is {length} characters long; shorten it to at most {limit}."


@dataclass(frozen=True)
class ImportLimits:
    """Caps that keep an import cheap: bytes and lines give 413, card counts give 400."""

    max_bytes: int = 32 * 1024
    max_lines: int = 500
    max_copies: int = 99
    max_cards: int = 300
    max_name: int = 100
    max_errors: int = 20


DEFAULT_LIMITS = ImportLimits()


@dataclass(frozen=True)
class ImportProblem:
    """One thing wrong with the input: where (a line number or a path), what, and suggestions."""

    message: str
    line: int | None = None
    where: str | None = None
    suggestions: tuple[str, ...] = ()

    def __str__(self) -> str:
        text = self.message
        if self.suggestions:
            text += " Did you mean " + " or ".join(repr(s) for s in self.suggestions) + "?"
        if self.line is not None:
            return f"line {self.line}: {text}"
        if self.where:
            return f"{self.where}: {text}"
        return text

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "where": self.where, "message": self.message,
                "suggestions": list(self.suggestions), "text": str(self)}


class DeckImportError(ValueError):
    """The input is not a deck this codec can read. ``status`` is the HTTP status to answer."""

    status = 400

    def __init__(self, problems: list[ImportProblem] | ImportProblem | str):
        if isinstance(problems, str):
            problems = [ImportProblem(problems)]
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


def clean_name(name: str, limit: int | None = None) -> str:
    """A deck name as stored: no control or format characters, single spaces, trimmed.

    Every codec writes and reads names through this, so a name survives any round trip.
    """
    kept = "".join(ch for ch in str(name) if unicodedata.category(ch)[0] != "C")
    out = " ".join(kept.split())
    return out[:limit] if limit is not None else out


def check_size(text: str, limits: ImportLimits) -> None:
    """The byte and line caps (413), checked before any parsing."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_bytes:
        raise DeckImportTooLarge(TOO_MANY_BYTES.format(size=size, limit=limits.max_bytes))
    lines = text.count("\n") + 1
    if lines > limits.max_lines:
        raise DeckImportTooLarge(TOO_MANY_LINES.format(count=lines, limit=limits.max_lines))


def check_name(raw: str, limits: ImportLimits, line: int | None = None,
               where: str | None = None) -> tuple[str, list[ImportProblem]]:
    name = clean_name(raw)
    if len(name) > limits.max_name:
        return "", [ImportProblem(NAME_TOO_LONG.format(length=len(name),
                                                       limit=limits.max_name),
                                  line=line, where=where)]
    return name, []


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
