"""A collection as a list, and a list into a collection, through the deck importer's own
codecs (``decks.codecs``): the same forgiving reader (codes or names in either language,
"did you mean", every bad line named) and the same writers, so a collection exported here
reads back exactly, and a deck list pasted here adds its cards.

A collection is not a deck: every card line counts, whatever pile or ``Hero:`` line it is
under, and a collection may hold far more cards than a deck (``COLLECTION_LIMITS``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy

from cards.game_words import game_word
from collection.models import MAX_COPIES
from collection.selectors import collection_counts, deck_missing
from collection.services import Imported, collection_counts_merge
from decks.adapters import catalogue_index
from decks.codecs import (
    CODECS,
    DeckImportError,
    ImportLimits,
    export_deck,
    import_deck,
    safe_filename,
)
from decks.models import Deck
from rules.decks.legality import Deck as CardList

if TYPE_CHECKING:
    from django.contrib.auth.models import User

IN_PARTS = gettext_lazy("Split the list and import it in parts.")
COLLECTION_LIMITS = ImportLimits(max_bytes=256 * 1024, max_lines=5000, max_copies=MAX_COPIES,
                                 max_cards=500_000, max_name=100, max_errors=50,
                                 advice=IN_PARTS)
LIST_FORMATS = ("text", "csv")
NOTHING = gettext_lazy("There is nothing to import: paste a list such as “3x Ember Pup” or a "
                       "CSV file with count and code columns.")
UNKNOWN_LIST_FORMAT = gettext_lazy("Unknown list format {name!r}: choose text or csv.")


def list_counts(text: str, *, format_name: str = "auto") -> dict[str, int]:
    """``{code: copies}`` a pasted list or file names; DeckImportError says what to fix."""
    if format_name not in ("auto", *LIST_FORMATS):
        raise DeckImportError(UNKNOWN_LIST_FORMAT.format(name=str(format_name)[:20]))
    if not isinstance(text, str) or not text.strip():
        raise DeckImportError(str(NOTHING))
    read = import_deck(text, catalogue_index(), format_name, COLLECTION_LIMITS).deck
    counts: Counter[str] = Counter(read.counts)
    counts.update(read.heroes)
    for pile in read.piles.values():
        counts.update(pile)
    if not counts:
        raise DeckImportError(str(NOTHING))
    return dict(counts)   # a card past MAX_COPIES is capped where it is stored, and said


def collection_import(*, user: User, text: str, format_name: str = "auto",
                      replace: bool = False) -> Imported:
    """Add a list's cards to the user's collection (or, with ``replace``, make it the list)."""
    counts = list_counts(text, format_name=format_name)
    merged = collection_counts_merge(user=user, counts=counts, replace=replace)
    return Imported(cards=len(counts), copies=merged.stored, changed=merged.changed,
                    capped=merged.capped)


@dataclass(frozen=True)
class ListFile:
    content: str
    filename: str
    media_type: str


# A collection's cards by kind, heroes first: a collection has no deck's hero, so its hero
# cards are cards among the others, with no "Hero:" line (they read back as counted either way).
LIST_KINDS = ("hero", "minion", "item")


def _write(counts: dict[str, int], format_name: str, name: str) -> ListFile:
    codec = CODECS[format_name]
    headings = [(kind, game_word("kinds", kind)) for kind in LIST_KINDS]
    content = export_deck(CardList(heroes=(), counts=counts, name=name), format_name,
                          catalogue_index(), kind_headings=headings, heroes_in_deck=True)
    return ListFile(content=content, filename=safe_filename(name, codec.extension),
                    media_type=codec.media_type)


def collection_export(*, user: User, format_name: str) -> ListFile:
    """The user's collection as a text list or CSV (KeyError for another format)."""
    if format_name not in LIST_FORMATS:
        raise KeyError(format_name)
    return _write(collection_counts(user=user), format_name,
                  f"collection-{user.get_username()}")


def shopping_list(*, deck: Deck, user: User, format_name: str) -> ListFile:
    """The copies the user lacks for ``deck``, as a list to take to a shop (or re-import)."""
    if format_name not in LIST_FORMATS:
        raise KeyError(format_name)
    missing = {row.card.code: row.missing for row in deck_missing(deck=deck, user=user)}
    return _write(missing, format_name, f"{deck.name} shopping list")
