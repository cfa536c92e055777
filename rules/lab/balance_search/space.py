"""What a balance search may change: moves over cards' printed fields, and patches made of them.

A *move* is one change of one printed field of one card (``C005.attack = 4``). A candidate
patch is a set of moves with at most one move per (card, field). Numbers move within
``spread`` of the printed value (cost, attack, HP: ±2 by default); keywords toggle one keyword;
the attribute becomes another attribute; ``abilities``: every whole number inside the card's
abilities moves within ``spread`` too, inside the bounds a designer accepts
(``patches.ability_number_bounds``: sign kept, no cost below 0, no amount that leaves the
effect doing nothing), and each ability (and each effect of an ability with several) may be
removed. An ability is one slot: a candidate changes at most one thing in each. Only moves
the engine accepts (``CardDef.from_dict``) are offered, so every candidate patch can be played.

Invariants: the moves of a search space come out in one fixed order (cards as given, fields in
``FIELDS`` order, values ascending), so a search over them is deterministic; nothing here
mutates its inputs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import zip_longest
from typing import Any

from rules.engine.basics import ATTRIBUTES, CardDataError
from rules.engine.cards import CardDef, DeckList
from rules.engine.keywords import KEYWORDS
from rules.lab.patches import (
    Change,
    Patch,
    ability_number_bounds,
    ability_numbers,
    ability_removals,
    is_ability_path,
    patch_apply,
    patch_card_defs,
    path_parts,
)
from rules.lab.patches import PatchError as PatchError
from rules.localized import Sentence, gettext_noop

NUMBER_FIELDS = ("cost", "attack", "hp")
OTHER_FIELDS = ("keywords", "attribute", "abilities")
FIELDS = NUMBER_FIELDS + OTHER_FIELDS
DEFAULT_FIELDS = NUMBER_FIELDS
META_DEFAULT_FIELDS = (*NUMBER_FIELDS, "abilities")   # the meta objective's default
DEFAULT_SPREAD = 2
MAX_SPREAD = 5

# What is wrong with a search space: sentences the site translates (rules.localized.Sentence).
UNKNOWN_FIELD = gettext_noop("fields: {field!r} cannot be searched (fields: {fields}).")
UNKNOWN_CARDS = gettext_noop("cards: no such card in the field's card data: {codes}.")
BAD_SPREAD = gettext_noop("spread: give a whole number from 1 to 5 (got {value}).")
NO_MOVES = gettext_noop(
    "Nothing may change: the allowed cards have none of the allowed fields.")
NOT_A_MOVE = gettext_noop(
    "The live patch's change {card} {field} = {value} is not one a search makes: cost, "
    "attack, HP or a number inside an ability within 5 of printed, one keyword added or "
    "taken away, another attribute, or an ability or an effect removed.")
ONE_SLOT_TWICE = gettext_noop(
    "The live patch changes {card} {slot} twice: a search changes each field, and each "
    "ability, once.")


class SpaceError(ValueError):
    """A search space that cannot be searched; ``sentence`` says what to fix (``str()``: in
    English)."""

    def __init__(self, template: str, params: Mapping[str, Any] | None = None):
        self.sentence = Sentence(template, params)
        super().__init__(str(self.sentence))


@dataclass(frozen=True, order=True)
class Move:
    """One change: ``card.field = value`` (``value`` a tuple for keywords; ``field`` an ability
    path for a number inside the abilities, ``value`` None for a removal)."""

    card: str
    field: str
    value: Any
    size: int = 1          # how far from printed: |Δ| for numbers, 1 otherwise
    step: int = 0          # the signed Δ for numbers (0 otherwise)

    def change(self) -> Change:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return Change(self.card, self.field, value)

    @property
    def slot(self) -> tuple[str, str]:
        """What a candidate changes at most once: a field, or one ability of the card."""
        if is_ability_path(self.field):
            return self.card, ".".join(self.field.split(".")[:2])
        return self.card, self.field

    @property
    def numeric(self) -> bool:
        """A number moved by ``step`` (screened at its farthest step each way)."""
        return self.step != 0


Candidate = tuple[Move, ...]   # sorted, at most one move per slot; () is "no change"


def candidate_patch(candidate: Candidate, name: str) -> Patch:
    return Patch(name=name, changes=tuple(move.change() for move in candidate))


def candidate_cards(cards: Mapping[str, CardDef], candidate: Candidate
                    ) -> Mapping[str, CardDef]:
    """``cards`` as the candidate patches them (the same mapping for no change)."""
    if not candidate:
        return cards
    return patch_card_defs(cards, candidate_patch(candidate, "candidate"))


def patch_candidate(patch: Patch, cards: Mapping[str, CardDef]) -> Candidate:
    """The moves that make ``patch``: a live patch as a search's first anchor
    (``Problem.start``), so the search may extend it, change it or take its changes back.
    SpaceError names the first change no move makes (a renamed card, a number more than
    ``MAX_SPREAD`` from printed) or a slot the patch changes twice."""
    moves: dict[tuple[str, str], Move] = {}
    for change in patch.changes:
        if change.card not in cards:
            raise SpaceError(UNKNOWN_CARDS, {"codes": change.card})
        field = "abilities" if is_ability_path(change.field) else change.field
        offered = _card_moves(cards[change.card], field, MAX_SPREAD) if field in FIELDS else []
        move = next((m for m in offered if m.change() == change), None)
        if move is None:
            raise SpaceError(NOT_A_MOVE, {"card": change.card, "field": change.field,
                                          "value": change.value})
        if move.slot in moves:
            raise SpaceError(ONE_SLOT_TWICE, {"card": change.card, "slot": move.slot[1]})
        moves[move.slot] = move
    return tuple(sorted(moves.values()))


def candidate_size(candidate: Candidate) -> int:
    return sum(move.size for move in candidate)


def edits_between(start: Candidate, moves: Candidate) -> int:
    """How many places ``moves`` changes ``start`` in: a slot added, taken back, or given
    another value each count one (``Problem.max_edits``)."""
    before = {m.slot: m for m in start}
    after = {m.slot: m for m in moves}
    return sum(1 for slot in before.keys() | after.keys() if before.get(slot) != after.get(slot))


@dataclass(frozen=True)
class SearchSpace:
    """Which cards and fields may change, and how far numbers may move."""

    cards: tuple[str, ...]
    fields: tuple[str, ...] = DEFAULT_FIELDS
    spread: int = DEFAULT_SPREAD

    @classmethod
    def for_decks(cls, decks: Sequence[DeckList], cards: Mapping[str, CardDef], *,
                  only: Sequence[str] | None = None, fields: Sequence[str] = DEFAULT_FIELDS,
                  spread: int = DEFAULT_SPREAD) -> SearchSpace:
        """Every card of the decks (heroes included), or ``only``; SpaceError when wrong."""
        bad = [f for f in fields if f not in FIELDS]
        if bad:
            raise SpaceError(UNKNOWN_FIELD, {"field": bad[0], "fields": ", ".join(FIELDS)})
        if not 1 <= spread <= MAX_SPREAD:
            raise SpaceError(BAD_SPREAD, {"value": spread})
        codes = list(only) if only else deck_cards(decks)
        unknown = [code for code in codes if code not in cards]
        if unknown:
            raise SpaceError(UNKNOWN_CARDS, {"codes": ", ".join(unknown)})
        ordered = tuple(f for f in FIELDS if f in fields)
        return cls(cards=tuple(dict.fromkeys(codes)), fields=ordered, spread=spread)


def default_fields(objective: str) -> tuple[str, ...]:
    """What may change when the caller does not say: the meta objective (and the adapted one,
    which searches with it) adds the numbers inside abilities and their removals
    (``META_DEFAULT_FIELDS``)."""
    return META_DEFAULT_FIELDS if objective in ("meta", "adapted") else DEFAULT_FIELDS


def deck_cards(decks: Sequence[DeckList]) -> list[str]:
    """The codes of the decks' heroes and cards, first-seen order."""
    codes: dict[str, None] = {}
    for deck in decks:
        codes[deck.hero] = None
        for code in deck.cards:
            codes[code] = None
    return list(codes)


def space_moves(space: SearchSpace, cards: Mapping[str, CardDef]) -> list[Move]:
    """Every move the engine accepts, in the space's fixed order; SpaceError if none."""
    moves = [move for code in space.cards for field in space.fields
             for move in _card_moves(cards[code], field, space.spread)]
    if not moves:
        raise SpaceError(NO_MOVES)
    return moves


def _card_moves(card: CardDef, field: str, spread: int) -> list[Move]:
    data = card.to_dict()
    if field == "abilities":
        return _ability_moves(card.code, data, spread)
    offers: list[tuple[int | str | tuple[str, ...], int]]     # (value, signed step)
    if field in NUMBER_FIELDS:
        if field not in data:
            return []
        printed = int(data[field])
        offers = [(printed + d, d) for d in range(-spread, spread + 1) if d]
    elif field == "keywords":
        if card.kind != "minion":
            return []
        have = set(card.keywords)
        offers = [(tuple(sorted(have ^ {kw})), 0) for kw in KEYWORDS]
    else:
        if "attribute" not in data:
            return []
        offers = [(a, 0) for a in ATTRIBUTES if a != card.attribute]
    return [Move(card.code, field, value, abs(step) or 1, step) for value, step in offers
            if _playable(data, field, value)]


def _ability_moves(code: str, data: dict[str, Any], spread: int) -> list[Move]:
    """Every ability number moved within ``spread`` and its bounds, then every removal the
    engine accepts; a move the patch format refuses is never offered."""
    out: list[Move] = []
    for path, printed in ability_numbers(data):
        low, high = ability_number_bounds(str(path_parts(path)[-1]), printed)
        for d in range(-spread, spread + 1):
            if d and low <= printed + d <= high and _patched(code, data, path, printed + d):
                out.append(Move(code, path, printed + d, abs(d), d))
    for path in ability_removals(data):
        if _patched(code, data, path, None):
            out.append(Move(code, path, None, 1, 0))
    return out


def _patched(code: str, data: dict[str, Any], path: str, value: int | None) -> bool:
    try:
        patch_apply({code: data}, Patch("move", (Change(code, path, value),)))
    except PatchError:
        return False
    return True


def _playable(data: dict[str, Any], field: str, value: Any) -> bool:
    if isinstance(value, int) and value < 0:
        return False
    changed = {**data, field: list(value) if isinstance(value, tuple) else value}
    if changed[field] == []:
        changed.pop(field)
    try:
        CardDef.from_dict(changed)
    except CardDataError:
        return False
    return True


def key_cards(decks: Sequence[DeckList], cards: Mapping[str, CardDef], per_deck: int,
              first: Sequence[Sequence[str]] = (),
              lead: Sequence[Sequence[str]] = ()) -> list[str]:
    """Each deck's hero and its ``per_deck`` first cards: its most-drawn (most copies, then
    cheapest), the cards whose changes move its matchups most, taking turns with those
    ``first`` names for it (the cards an adapted list rides on, which its copies alone may
    rank too low to be searched at all) and, ahead of both at each turn, the ``lead`` names
    for it (what every forecast path's list of its archetype brought in)."""
    out: dict[str, None] = {}
    for k, deck in enumerate(decks):
        out[deck.hero] = None
        counts = deck.counts()
        leading = [c for c in (lead[k] if k < len(lead) else ()) if c in counts]
        ahead = [c for c in (first[k] if k < len(first) else ())
                 if c in counts and c not in leading]
        drawn = sorted((c for c in counts if c not in ahead and c not in leading),
                       key=lambda c: (-counts[c], cards[c].cost, c))
        ranked = [c for turn in zip_longest(leading, drawn, ahead) for c in turn
                  if c is not None]
        for code in ranked[:per_deck]:
            out[code] = None
    return list(out)


def screened_moves(moves: Sequence[Move]) -> dict[Move, tuple[Move, float]]:
    """For each move, the move screening plays for it and the share of its effect it takes:
    numbers are screened at their farthest step each way and nearer steps take the matching
    share (``C005.attack = 4`` is half of ``= 5`` when printed 3); other moves stand alone."""
    farthest: dict[tuple[str, str, bool], Move] = {}
    for move in moves:
        if move.numeric:
            key = (move.card, move.field, move.step > 0)
            if key not in farthest or move.size > farthest[key].size:
                farthest[key] = move
    out: dict[Move, tuple[Move, float]] = {}
    for move in moves:
        if move.numeric:
            far = farthest[(move.card, move.field, move.step > 0)]
            out[move] = (far, move.size / far.size)
        else:
            out[move] = (move, 1.0)
    return out
