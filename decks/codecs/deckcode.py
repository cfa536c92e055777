"""The site's door of deck codes: the format itself is the rules library's
(``rules.decks.deckcode``, pure); here its problems become sentences in the reader's language,
and a decoded code's cards are checked against the catalogue and the import limits.

Invariant: ``read_deck_code``, ``read_checked_code`` and ``decode_deck_code`` raise only
``DeckImportError`` whatever they are given.
"""

from __future__ import annotations

from django.utils.text import get_text_list
from django.utils.translation import gettext_lazy

from decks.codecs.base import (
    DEFAULT_LIMITS,
    TOO_MANY_COPIES,
    DeckImportError,
    ImportedDeck,
    ImportLimits,
    ImportProblem,
    check_heroes,
    check_size,
    check_total,
    finish,
    merged,
)
from decks.codecs.index import CardIndex
from rules.decks import deckcode
from rules.decks.deckcode import DeckCodeError, DecodedCode, code_word, read_code
from rules.decks.legality import Deck

NOT_A_CODE = gettext_lazy(
    "This is not a deck code: a code is one word of letters, digits, '-' and '_' (comment "
    "lines starting with # are allowed around it)."
)
DAMAGED = gettext_lazy("This deck code is damaged ({detail}); copy it again in full.")
NEWER = gettext_lazy(
    "This deck code was made by a newer or unknown version {version} of the deck code; this "
    "site reads versions {known}. Export the deck as text on the site that made it and paste "
    "the text instead."
)
AND = gettext_lazy("and")
UNKNOWN = gettext_lazy("The deck code names the card {code!r}, which this site does not have.")
CODE_BAD_CHARACTER = gettext_lazy(
    "This deck code holds {char!r}, which no deck code has (a code is letters, digits, '-' "
    "and '_'); copy the code again in full."
)
CODE_SECOND_WORD = gettext_lazy(
    "The deck code is followed by more text ({extra!r}); a code is one word: paste it alone "
    "(or after a # on its own line)."
)


def problem_text(exc: DeckCodeError) -> str:
    """A deck code's problem in the reader's language."""
    params = exc.params
    if exc.code == deckcode.NEWER:
        known = get_text_list([str(v) for v in params["known"]], str(AND))
        return NEWER.format(version=params["version"], known=known)
    message = {deckcode.NOT_A_CODE: NOT_A_CODE, deckcode.SECOND_WORD: CODE_SECOND_WORD,
               deckcode.BAD_CHARACTER: CODE_BAD_CHARACTER, deckcode.DAMAGED: DAMAGED}[exc.code]
    return message.format(**params)


def _import_error(exc: DeckCodeError) -> DeckImportError:
    return DeckImportError(ImportProblem(problem_text(exc), line=exc.line, column=exc.column))


def read_deck_code(text: str, limits: ImportLimits = DEFAULT_LIMITS) -> DecodedCode:
    """Decode a code into codes and counts (no catalogue needed); DeckImportError (naming the
    code's line) if bad."""
    check_size(text, limits)
    return read_checked_code(text, limits)


def read_checked_code(text: str, limits: ImportLimits = DEFAULT_LIMITS) -> DecodedCode:
    """``read_deck_code`` for a text whose size and characters were checked already."""
    try:
        return read_code(text, limits.max_cards)
    except DeckCodeError as exc:
        raise _import_error(exc) from None


def decode_deck_code(text: str, index: CardIndex, limits: ImportLimits = DEFAULT_LIMITS,
                     decoded: DecodedCode | None = None) -> ImportedDeck:
    """Decode a code (``import_deck`` has checked its size and characters; ``decoded`` when it
    has decoded it already) and check its cards against the catalogue."""
    decoded = decoded or read_checked_code(text, limits)
    try:
        _, line = code_word(text)
    except DeckCodeError as exc:      # not when ``decoded`` came from this text
        raise _import_error(exc) from None
    problems: list[ImportProblem] = []
    every = [decoded.counts, *decoded.piles.values()]
    for code in (*decoded.heroes, *(c for counts in every for c in counts)):
        if code not in index:
            problems.append(ImportProblem(UNKNOWN.format(code=code[:60]), line=line))
    for code, count in [item for counts in every for item in counts.items()]:
        if count > limits.max_copies:
            problems.append(ImportProblem(TOO_MANY_COPIES.format(
                count=count, name=index.display(code), limit=limits.max_copies), line=line))
    heroes = list(decoded.heroes)
    problems += check_heroes(heroes, [line] * len(heroes), [index.display(h) for h in heroes],
                             limits)
    finish(problems, limits)
    check_total(merged(decoded.counts, decoded.piles), heroes, limits)
    return ImportedDeck(Deck(heroes=decoded.heroes, counts=decoded.counts,
                             piles=decoded.piles), decoded.format_code, "code")
