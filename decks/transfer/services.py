"""Import and export between the catalogue's decks and the pure codecs (``decks.codecs``).

``draft_import`` reads pasted text, a file's text or a deck code into a ``Draft``;
``draft_export`` writes a draft in one of the codecs' formats with a safe file name.
Both build their ``CardIndex`` from the catalogue (one query).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.http import HttpRequest
from django.utils.translation import gettext_lazy
from rest_framework.request import Request

from decks.adapters import catalogue_index
from decks.codecs import (
    CODECS,
    DEFAULT_LIMITS,
    CardIndex,
    DeckImportError,
    ImportedDeck,
    ImportLimits,
    ImportProblem,
    export_deck,
    import_deck,
    safe_filename,
)
from decks.drafts import DEFAULT_FORMAT, Draft
from decks.models import Format
from decks.selectors import (
    deck_rule_problems,
    draft_fit,
    format_get,
    format_heroes_in_deck,
    format_kind_headings,
    formats_active,
    formats_heroes_in_deck,
)
from decks.transfer.placing import formats_placing

NOTHING = gettext_lazy(
    "There is nothing to import: paste a deck list, a deck code or a file's contents."
)
FORMAT_NOT_HERE = gettext_lazy(
    "The list is for the format {code!r}, which this site does not have; name one of: "
    "{known} (or none, for the default format)."
)
# A request carrying an import (page or API) is refused above this many bytes with 413, before
# its body is read; the text itself is then held to the codecs' caps.
IMPORT_MAX_BODY = 64 * 1024
BODY_TOO_LARGE = gettext_lazy("The request is {size} bytes; an import takes at most {limit} bytes.")


def body_too_large(request: HttpRequest | Request, limit: int = IMPORT_MAX_BODY) -> str | None:
    """The 413 message for an import request whose body is over ``limit`` bytes."""
    try:
        size = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        size = 0
    if size > limit:
        return BODY_TOO_LARGE.format(size=size, limit=limit)
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
    # A format whose heroes are cards of the deck keeps a list's hero cards in it; a list that
    # names no format is read as ``deck_format``.
    limits = replace(limits, default_format=deck_format or DEFAULT_FORMAT,
                     heroes_in_deck=formats_heroes_in_deck(), placing=formats_placing())
    result = _read(text, catalogue_index(), format_name, limits)
    deck = result.deck
    if not deck.heroes and not deck.counts and not deck.piles:
        raise DeckImportError(NOTHING)
    fmt = _import_format(result, default=deck_format)
    draft = Draft(name=deck.name, hero=deck.hero, cards=dict(deck.counts),
                  format_code=fmt.code, piles={k: dict(v) for k, v in deck.piles.items()})
    return Imported(draft=draft_fit(draft, fmt), source=result.source, notes=())


def _read(text: str, index: CardIndex, format_name: str, limits: ImportLimits) -> ImportedDeck:
    """The deck the input holds, for a draft (which holds one hero).

    A list that was read but names a second hero cannot become a draft; it is refused with
    every deck rule it breaks besides (copies, size, ...), as validation lists them, so one
    round of fixes is enough. A list that could not be read is refused with its reading
    problems (the codecs name a second hero among them)."""
    try:
        return import_deck(text, index, format_name, replace(limits, max_heroes=1))
    except DeckImportError as refused:
        if not all(problem.code for problem in refused.problems):
            raise
        read = import_deck(text, index, format_name, limits)   # every hero, to check the rest
        try:
            fmt, more = _import_format(read), []
        except DeckImportError as unknown:
            fmt, more = format_get(None), unknown.problems
        found = {problem.code for problem in refused.problems}
        rules = [ImportProblem(f"{problem.message} — {problem.fix}", code=problem.code)
                 for problem in deck_rule_problems(read.deck, fmt=fmt)
                 if problem.code not in found]
        raise DeckImportError([*refused.problems, *more, *rules]) from None


def _import_format(read: ImportedDeck, *, default: str | None = None) -> Format:
    """The format the input names (its code, in any case), or the default when it names none;
    a format this site does not have is refused naming the ones it has, never replaced."""
    if not read.format_code:
        return format_get(default)
    found = Format.objects.filter(code__iexact=read.format_code).first()
    if found is not None:
        return found
    known = ", ".join(formats_active().values_list("code", flat=True))
    raise DeckImportError(ImportProblem(
        FORMAT_NOT_HERE.format(code=read.format_code, known=known), line=read.format_line,
        where="format" if read.source == "json" else None))


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
