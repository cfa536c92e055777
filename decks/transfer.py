"""Import and export between the catalogue's decks and the pure codecs (``decks.codecs``).

``draft_import`` reads pasted text, a file's text or a deck code into a ``Draft``;
``draft_export`` writes a draft in one of the codecs' formats with a safe file name.
Both build their ``CardIndex`` from the catalogue (one query).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.translation import gettext_lazy

from decks.adapters import catalogue_index
from decks.codecs import (
    CODECS,
    DEFAULT_LIMITS,
    DeckImportError,
    ImportedDeck,
    ImportLimits,
    export_deck,
    import_deck,
    safe_filename,
)
from decks.drafts import DEFAULT_FORMAT, Draft
from decks.models import Format
from decks.selectors import (
    draft_fit,
    format_heroes_in_deck,
    format_kind_headings,
    formats_heroes_in_deck,
)

NOTHING = gettext_lazy(
    "There is nothing to import: paste a deck list, a deck code or a file's contents."
)
FORMAT_NOT_HERE = gettext_lazy(
    "The list is for the format {code!r}, which this site does not have; it was imported "
    "into {default}."
)
EXPORT_FORMATS = tuple(CODECS)
# A request carrying an import (page or API) is refused above this many bytes with 413, before
# its body is read; the text itself is then held to the codecs' caps.
IMPORT_MAX_BODY = 64 * 1024
BODY_TOO_LARGE = gettext_lazy("The request is {size} bytes; an import takes at most {limit} bytes.")


def body_too_large(request) -> str | None:
    """The 413 message for an import request whose body is over ``IMPORT_MAX_BODY``."""
    try:
        size = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        size = 0
    if size > IMPORT_MAX_BODY:
        return BODY_TOO_LARGE.format(size=size, limit=IMPORT_MAX_BODY)
    return None


@dataclass(frozen=True)
class Imported:
    draft: Draft
    source: str          # which codec read it: text, json, csv, code
    notes: tuple[str, ...]


def draft_import(text: str, *, format_name: str = "auto",
                 limits: ImportLimits = DEFAULT_LIMITS,
                 deck_format: str | None = None) -> Imported:
    """A draft from any supported input; DeckImportError (400/413) says what to fix.
    ``deck_format`` is the format of a list that names none (by default ``standard``)."""
    if not text or not text.strip():
        raise DeckImportError(NOTHING)
    index = catalogue_index()
    # A draft holds one hero: the codecs report a second one beside every other problem. A
    # format whose heroes are cards of the deck keeps a list's hero cards in it.
    result: ImportedDeck = import_deck(text, index, format_name, replace(
        limits, max_heroes=1, default_format=deck_format or DEFAULT_FORMAT,
        heroes_in_deck=formats_heroes_in_deck()))
    deck = result.deck
    if not deck.heroes and not deck.counts and not deck.piles:
        raise DeckImportError(NOTHING)
    notes: list[str] = []
    format_code = result.format_code or deck_format or DEFAULT_FORMAT
    if not Format.objects.filter(code=format_code).exists():
        notes.append(FORMAT_NOT_HERE.format(code=format_code, default=DEFAULT_FORMAT))
        format_code = DEFAULT_FORMAT
    draft = Draft(name=deck.name, hero=deck.hero, cards=dict(deck.counts),
                  format_code=format_code, piles={k: dict(v) for k, v in deck.piles.items()})
    draft = draft_fit(draft, Format.objects.get(code=format_code))
    return Imported(draft=draft, source=result.source, notes=tuple(notes))


@dataclass(frozen=True)
class Export:
    content: str
    filename: str
    media_type: str


def draft_export(draft: Draft, format_name: str) -> Export:
    """The draft written as ``format_name`` (KeyError for an unknown one)."""
    codec = CODECS[format_name]
    fmt = Format.objects.filter(code=draft.format_code).select_related("game").first()
    content = export_deck(draft.legality_deck(), format_name, catalogue_index(),
                          format_code=draft.format_code,
                          kind_headings=format_kind_headings(fmt) if fmt else None,
                          heroes_in_deck=fmt is not None and format_heroes_in_deck(fmt))
    suffix = "-code" if format_name == "code" else ""
    filename = safe_filename(draft.display_name + suffix, codec.extension)
    return Export(content=content, filename=filename, media_type=codec.media_type)
