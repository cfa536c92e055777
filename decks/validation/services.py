"""Deck validation without a page: the API's validate and import answers.

Validation is the engine's ``check_deck`` over a few dozen cards, microseconds of work; what
cost the API its milliseconds was reading the same rows again for every request (the format,
its ban list and legal sets, the game, each card with its set and game). Those rows change only
with the catalogue, so each process keeps them per catalogue generation
(``cards.generation``: every save of a card, set, game or format moves it, in every process at
once) and a request reads one token from the shared cache instead of five queries.

A client validates the same list again and again (the builder after every change, a shared
list by everyone who opens it), so the answers themselves are kept too, per process, under the
request's body, its language and the catalogue's generation (``answer_stored``), rendered once:
a list seen before costs a hash and a dictionary look-up, and a change to the catalogue retires
every answer.

A list never seen before is most often plainly well formed — a JSON object of hero, cards,
format and piles whose every value the API's serializer would take as it is — and
``plain_draft`` reads it in one pass where DRF's parser and serializer cost more than the
validation itself; anything else (an error to report, a number sent as text, an unknown key) is
left to the serializer, whose errors are the answer. Either reading ends in ``validation_draft``
(the one place a body's values become a draft, the one "too many different cards" check), and
a request does each step once whichever way it goes (``ValidationRequest``): the body hashed,
the generation read, the kept answers looked in, the JSON parsed, the format found.

Invariants: the problems are exactly ``decks.selectors.deck_view``'s for the same draft and
format (tests/decks/test_validation.py); ``plain_draft`` reads a body as the serializer does or
not at all, and the API answers byte for byte alike either way
(tests/decks/test_validation_answers.py); the kept rows are never handed to a page (pages label
their rows for their language; these are read by every thread at once and never written).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy

from cards.generation import catalogue_generation
from cards.models import Card
from common.language import reader_language
from decks.adapters import INDEX_FIELDS, format_to_rules, game_of, set_of
from decks.codecs import DEFAULT_LIMITS
from decks.drafts import DEFAULT_FORMAT, MAX_COPIES, Draft
from decks.models import Format
from decks.problem_text import ProblemText, problems_text
from decks.selectors import format_default, formats_known
from rules.decks import legality


@dataclass(frozen=True)
class FormatRules:
    row: Format
    rules: legality.Format
    fixed: tuple[str, ...]     # cards a pile's fixed set names even when the deck lacks them


@dataclass(frozen=True)
class Catalogue:
    """What validation reads, as of one catalogue generation."""

    generation: str
    cards: dict[str, Card]
    set_of: dict[str, str]
    game_of: dict[str, str]
    formats: dict[str, FormatRules]
    default: str               # the default format's code
    known: str                 # every format's code, as the "no such format" answer lists them


@dataclass(frozen=True)
class Validation:
    format: Format
    size: int
    problems: list[ProblemText]

    @property
    def valid(self) -> bool:
        return not self.problems


_lock = threading.Lock()
_kept: list[Catalogue] = []


def _read(generation: str) -> Catalogue:
    cards = {card.code: card for card in Card.objects.select_related("card_set__game").only(
        *INDEX_FIELDS, "card_set__code", "card_set__game__code").order_by()}
    formats = {}
    for row in Format.objects.select_related("game").order_by("pk"):
        rules = format_to_rules(row)
        fixed = tuple(code for pile in rules.piles for code in (pile.composition or {}))
        formats[row.code] = FormatRules(row=row, rules=rules, fixed=fixed)
    return Catalogue(generation=generation, cards=cards, set_of=set_of(cards),
                     game_of=game_of(cards), formats=formats, default=format_default().code,
                     known=formats_known())


def validation_catalogue(generation: str | None = None) -> Catalogue:
    """The rows validation reads, read again only when the catalogue's ``generation`` (by
    default the current one) moved."""
    generation = generation or catalogue_generation()
    kept = _kept[0] if _kept else None
    if kept is not None and kept.generation == generation:
        return kept
    with _lock:
        if _kept and _kept[0].generation == generation:
            return _kept[0]
        fresh = _read(generation)
        _kept[:] = [fresh]
        return fresh


def draft_validate(*, draft: Draft, format_code: str | None,
                   generation: str | None = None) -> Validation:
    """Every problem of ``draft`` under the format ``format_code`` (the default format when
    empty), in the active language (the request's), as of the catalogue's ``generation`` (by
    default the current one); Format.DoesNotExist for an unknown code."""
    catalogue = validation_catalogue(generation)
    found = catalogue.formats.get(format_code or catalogue.default)
    if found is None:
        raise Format.DoesNotExist(format_code)
    codes = [*draft.all_codes(), draft.hero or "", *found.fixed]
    cards = {code: catalogue.cards[code] for code in codes if code in catalogue.cards}
    problems = legality.check_deck(
        draft.legality_deck(), cards, found.rules,
        set_of={code: catalogue.set_of[code] for code in cards},
        game_of={code: catalogue.game_of[code] for code in cards})
    return Validation(format=found.row, size=draft.size,
                      problems=problems_text(problems, fmt=found.rules, cards=cards))


# The validation API's text fields (its serializer uses them too).
HERO_MAX_LENGTH = 32
FORMAT_MAX_LENGTH = 40
PLAIN_KEYS = frozenset({"hero", "cards", "format", "piles"})


def plain_counts(value: object) -> dict[str, int] | None:
    """``{card code: copies}`` as the API takes it — a JSON object of whole numbers from 1 to
    MAX_COPIES under text keys — or None for anything else (the serializer's per-item field
    then says what is wrong)."""
    if type(value) is dict and all(type(code) is str and type(count) is int
                                   and 1 <= count <= MAX_COPIES
                                   for code, count in value.items()):
        return dict(value)
    return None


def _refuse_constant(name: str) -> None:
    raise ValueError(name)     # NaN and Infinity are not JSON: the parser's 400 says so


def _plain_text(value: object, *, limit: int, blank: bool) -> str | None:
    """A text field as the serializer reads it (surrounding white space trimmed), or None
    when it would refuse it."""
    if type(value) is not str:
        return None
    text = value.strip()
    return text if len(text) <= limit and (blank or text) else None


TOO_MANY_DIFFERENT = gettext_lazy("Too many different cards: a list names at most {limit}.")


def too_many_different(cards: Mapping[str, int], piles: Mapping[str, Mapping[str, int]]) -> bool:
    """Whether a list names more different cards (its piles' included) than an import may."""
    return len(cards) + sum(len(counts) for counts in piles.values()) > DEFAULT_LIMITS.max_cards


def validation_draft(*, hero: str | None, cards: dict[str, int], format_code: str,
                     piles: Mapping[str, Mapping[str, int]]) -> Draft:
    """The draft a validation body's values (as the serializer reads them) ask about: no hero
    for a blank one, empty piles left out."""
    return Draft(hero=hero or None, cards=cards, format_code=format_code,
                 piles={name: dict(counts) for name, counts in piles.items() if counts})


NOT_PARSED = object()     # a body left to DRF's parser (ValidationRequest.data)


def plain_json(body: bytes) -> object:
    """The JSON of a validation body as DRF's parser reads it, or ``NOT_PARSED`` when the parser
    is to read it (and say what is wrong). A body with a ``\\u`` escape is left to the parser,
    which refuses NUL and lone surrogates (raw UTF-8 can hold neither, and JSON refuses a raw
    control character)."""
    if b"\\u" in body:
        return NOT_PARSED
    try:
        return json.loads(body.decode(), parse_constant=_refuse_constant)
    except (ValueError, RecursionError):     # not UTF-8, not JSON, nested a thousand deep:
        return NOT_PARSED                       # the parser's 400


def plain_reading(data: object) -> Draft | None:
    """The draft a validation body's parsed JSON asks about, when it is plainly well formed:
    exactly what the API's serializer makes of it (trimmed text, the default format, empty
    piles left out). None for any other: the serializer reads it and its errors are the
    answer."""
    if type(data) is not dict or not data.keys() <= PLAIN_KEYS:
        return None
    hero = data.get("hero")
    if hero is not None:
        hero = _plain_text(hero, limit=HERO_MAX_LENGTH, blank=True)
        if hero is None:
            return None
    format_code = _plain_text(data.get("format", DEFAULT_FORMAT), limit=FORMAT_MAX_LENGTH,
                              blank=False)
    cards = plain_counts(data.get("cards"))
    piles = data.get("piles", {})
    if format_code is None or cards is None or type(piles) is not dict:
        return None
    read = {}
    for pile, counts in piles.items():
        pile_cards = plain_counts(counts)
        if pile_cards is None:
            return None
        read[pile] = pile_cards
    if too_many_different(cards, read):
        return None             # the serializer's "Too many different cards."
    return validation_draft(hero=hero, cards=cards, format_code=format_code, piles=read)


@dataclass(frozen=True)
class Answer:
    """A validation answer as data and as the bytes the API sends for it."""

    data: dict[str, Any]   # the JSON answer, as the API sends it
    content: bytes


MAX_ANSWERS = 4096
_answers: OrderedDict[Hashable, Answer] = OrderedDict()
_answers_lock = threading.Lock()


def answer_key(*, body: bytes, content_type: str, generation: str) -> Hashable:
    return (hashlib.blake2b(body, digest_size=16).digest(), content_type, reader_language(),
            generation)


def answer_kept(key: Hashable) -> Answer | None:
    """The answer kept under ``key`` (``answer_key``), if any."""
    with _answers_lock:
        found = _answers.get(key)
        if found is not None:
            _answers.move_to_end(key)
        return found


@dataclass
class ValidationRequest:
    """One validation request's steps, each done once whichever path answers it: the catalogue's
    generation read and the body hashed (``key``), the kept answers looked in (``kept``), the
    body's JSON parsed (``data``; ``NOT_PARSED`` until then, or when DRF's parser is to read
    it), and a format the catalogue does not have found (``unknown_format``)."""

    generation: str
    key: Hashable
    kept: Answer | None
    data: object = NOT_PARSED
    unknown_format: str | None = None

    @classmethod
    def of(cls, *, body: bytes, content_type: str) -> ValidationRequest:
        generation = catalogue_generation()
        key = answer_key(body=body, content_type=content_type, generation=generation)
        return cls(generation=generation, key=key, kept=answer_kept(key))

    def answer(self, data: dict[str, Any], render: Callable[[dict[str, Any]], bytes]) -> Answer:
        """``data`` rendered once and kept for this body."""
        self.kept = answer_keep(self.key, Answer(data=data, content=render(data)))
        return self.kept


def answer_keep(key: Hashable, answer: Answer) -> Answer:
    """Keep ``answer`` under ``key`` (the least recently asked goes first past
    ``MAX_ANSWERS``); an answer is read, never changed: the caller sends it as it is."""
    with _answers_lock:
        _answers[key] = answer
        while len(_answers) > MAX_ANSWERS:
            _answers.popitem(last=False)
    return answer
