"""Deck import and export: plain text, JSON, CSV and deck codes, as pure functions.

Nothing in this package imports Django: every codec takes a ``CardIndex`` (built from engine
``CardDef``s or catalogue rows) and returns plain data, so the codecs are tested by property
(round trips; no input makes them raise anything but ``DeckImportError``) without a database.

    index = CardIndex(cards)
    text = export_deck(deck, "text", index, format_code="standard")
    again = import_deck(text, index).deck            # the format is detected
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy

from decks.codecs.base import (
    DEFAULT_LIMITS,
    DeckImportError,
    DeckImportTooLarge,
    ImportedDeck,
    ImportLimits,
    ImportProblem,
    check_size,
    clean_name,
)
from decks.codecs.csvcodec import export_csv, parse_csv
from decks.codecs.deckcode import decode_deck_code, read_checked_code
from decks.codecs.filenames import safe_filename
from decks.codecs.index import CardIndex
from decks.codecs.jsoncodec import export_json, parse_json
from decks.codecs.text import export_text, parse_text
from rules.decks.deckcode import DecodedCode, encode_deck_code, looks_like_code
from rules.decks.legality import Deck

__all__ = [
    "CODECS", "DEFAULT_LIMITS", "CardIndex", "Codec", "DeckImportError", "DeckImportTooLarge",
    "ImportLimits", "ImportProblem", "ImportedDeck", "clean_name", "detect_format",
    "export_deck", "import_deck", "safe_filename",
]

NOT_TEXT = gettext_lazy("The input must be text.")
UNKNOWN_FORMAT = gettext_lazy("Unknown format {name!r}: choose one of {known}.")

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise


def _export_code(deck: Deck, index: CardIndex, *, format_code: str | None = None) -> str:
    return encode_deck_code(deck, format_code=format_code) + "\n"


@dataclass(frozen=True)
class Codec:
    name: str
    label: StrOrPromise
    extension: str
    media_type: str
    export: Callable[..., str]
    parse: Callable[[str, CardIndex, ImportLimits], ImportedDeck]


CODECS: dict[str, Codec] = {
    "text": Codec("text", gettext_lazy("Plain text"), "txt", "text/plain; charset=utf-8",
                  export_text, parse_text),
    "json": Codec("json", "JSON", "json", "application/json", export_json, parse_json),
    "csv": Codec("csv", gettext_lazy("CSV (spreadsheet)"), "csv", "text/csv; charset=utf-8",
                 export_csv, parse_csv),
    "code": Codec("code", gettext_lazy("Deck code"), "txt", "text/plain; charset=utf-8",
                  _export_code, decode_deck_code),
}


def _codec(name: str) -> Codec:
    try:
        return CODECS[name]
    except KeyError:
        raise DeckImportError(UNKNOWN_FORMAT.format(name=str(name)[:20],
                                                    known=", ".join(CODECS))) from None


def export_deck(deck: Deck, format_name: str, index: CardIndex, *,
                format_code: str | None = None,
                kind_headings: Sequence[tuple[str, str]] | None = None,
                heroes_in_deck: bool = False) -> str:
    """The deck written in one of ``CODECS``; KeyError for an unknown format name. The text
    list groups cards under ``kind_headings`` and, with ``heroes_in_deck``, writes no
    ``Hero:`` line for hero cards of the deck (``export_text``); other codecs ignore both."""
    codec = CODECS[format_name]
    if format_name == "text":
        return export_text(deck, index, format_code=format_code, kind_headings=kind_headings,
                           heroes_in_deck=heroes_in_deck)
    return codec.export(deck, index, format_code=format_code)


def detect_format(text: str) -> str:
    """Which codec a pasted input is for: JSON, CSV (our header), a deck code, or text."""
    return _sniff(text)[0]


def _sniff(text: str) -> tuple[str, DecodedCode | None]:
    """The codec a pasted input is for, and the deck code it decoded to tell (None for the
    other codecs), so the code is read once."""
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("{"):
        return "json", None
    first = stripped.split("\n", 1)[0].strip().casefold()
    if first.startswith("section,") or first in ("count,code,name", "count,code", "code,count"):
        return "csv", None
    words = [ln.strip() for ln in stripped.splitlines() if ln.strip()
             and not ln.strip().startswith("#")]
    if len(words) == 1 and " " not in words[0]:
        try:
            return "code", read_checked_code(words[0])
        except DeckImportError:
            pass
    return "text", None


def import_deck(text: str, index: CardIndex, format_name: str = "auto",
                limits: ImportLimits = DEFAULT_LIMITS) -> ImportedDeck:
    """Read a deck in the named format (or detect it); raises only DeckImportError. The one
    place an input's size and characters are checked, before any reading."""
    if not isinstance(text, str):
        raise DeckImportError(NOT_TEXT)
    check_size(text, limits)
    if format_name != "auto":
        return _codec(format_name).parse(text, index, limits)
    format_name, decoded = _sniff(text)
    if decoded is not None:
        return decode_deck_code(text, index, limits, decoded)
    if format_name != "text" or not looks_like_code(text):
        return _codec(format_name).parse(text, index, limits)
    # One word that is not a deck code: a card's name or code, or a damaged deck code.
    try:
        return parse_text(text, index, limits)
    except DeckImportError as as_text:
        if any(problem.suggestions for problem in as_text.problems):
            raise          # close to a card's name: a typo in a one-card list
        return decode_deck_code(text, index, limits)   # raises the deck code's own error
