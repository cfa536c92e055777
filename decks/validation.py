"""Deck validation without a page: the API's validate and import answers.

Validation is the engine's ``check_deck`` over a few dozen cards, microseconds of work; what
cost the API its milliseconds was reading the same rows again for every request (the format,
its ban list and legal sets, the game, each card with its set and game). Those rows change only
with the catalogue, so each process keeps them per catalogue generation
(``cards.generation``: every save of a card, set, game or format moves it, in every process at
once) and a request reads one token from the shared cache instead of five queries.

A client validates the same list again and again (the builder after every change, a shared
list by everyone who opens it), so the answers themselves are kept too, per process, under the
request's body, its language and the catalogue's generation (``answer_stored``): a list seen
before costs a hash and a dictionary look-up, and a change to the catalogue retires every answer.

Invariants: the problems are exactly ``decks.selectors.deck_view``'s for the same draft and
format (tests/decks/test_validation.py); the kept rows are never handed to a page (pages label
their rows for their language; these are read by every thread at once and never written).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from cards.generation import catalogue_generation
from cards.language import card_lang
from cards.models import Card
from decks.adapters import INDEX_FIELDS, format_to_rules, game_of, set_of
from decks.drafts import Draft
from decks.models import Format
from decks.selectors import format_default
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


@dataclass(frozen=True)
class Validation:
    format: Format
    size: int
    problems: list[legality.Problem]

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
                     game_of=game_of(cards), formats=formats, default=format_default().code)


def validation_catalogue() -> Catalogue:
    """The rows validation reads, read again only when the catalogue's generation moved."""
    generation = catalogue_generation()
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
                   lang: str | None = None) -> Validation:
    """Every problem of ``draft`` under the format ``format_code`` (the default format when
    empty), in ``lang`` (by default the request's); Format.DoesNotExist for an unknown code."""
    catalogue = validation_catalogue()
    found = catalogue.formats.get(format_code or catalogue.default)
    if found is None:
        raise Format.DoesNotExist(format_code)
    codes = [*draft.all_codes(), draft.hero or "", *found.fixed]
    cards = {code: catalogue.cards[code] for code in codes if code in catalogue.cards}
    problems = legality.check_deck(
        draft.legality_deck(), cards, found.rules,
        set_of={code: catalogue.set_of[code] for code in cards},
        game_of={code: catalogue.game_of[code] for code in cards}, lang=lang or card_lang())
    return Validation(format=found.row, size=draft.size, problems=problems)


MAX_ANSWERS = 4096
_answers: OrderedDict[Hashable, dict] = OrderedDict()
_answers_lock = threading.Lock()


def answer_stored(*, body: bytes, content_type: str, build: Callable[[], dict]) -> dict:
    """The answer ``build()`` gives for a request ``body``, kept per body, language and
    catalogue generation (the least recently asked goes first past ``MAX_ANSWERS``). An answer
    is read, never changed: the caller renders it as it is."""
    key = (hashlib.blake2b(body, digest_size=16).digest(), content_type, card_lang(),
           catalogue_generation())
    with _answers_lock:
        found = _answers.get(key)
        if found is not None:
            _answers.move_to_end(key)
            return found
    answer = build()
    with _answers_lock:
        _answers[key] = answer
        while len(_answers) > MAX_ANSWERS:
            _answers.popitem(last=False)
    return answer
