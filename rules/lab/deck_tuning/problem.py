"""What a deck tuning may change: swaps of copies of one card for another, legal in the format.

A *swap* takes ``copies`` copies of card ``out`` out of the deck and puts as many copies of card
``into`` in (``copies`` 0: the hero ``out`` is replaced by the hero ``into``). A candidate is a
sequence of swaps applied to the deck being tuned; every candidate the search plays is legal in
the deck's format (``rules.decks.legality``), keeps every copy of the cards the user keeps, never
takes
out a card an earlier swap put in nor puts back one it took out.

Invariants: neighbours come out in one fixed order for a given problem and seed (a prior that
keeps the deck's attributes and mana curve, then a tie-break seeded by ``proposal_seed`` or
else ``seed``), so the search over them is deterministic; nothing here mutates its inputs.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.ai.agents import DEFAULT_AGENT
from rules.decks.legality import STANDARD as STANDARD_FORMAT
from rules.decks.legality import Deck, Format, check_deck
from rules.engine.cards import STANDARD, CardDef, DeckList, Ruleset

DeckKey = tuple[str, tuple[tuple[str, int], ...]]   # hero, sorted (code, copies)

NOT_LEGAL = "The deck is not legal in the {format} format: {problems}"
NO_OPPONENTS = "The field needs at least one opponent."
BAD_WEIGHTS = ("The field's weights must be one share, at least 0, for each opponent, and not "
               "all 0 (got {weights}).")
TOO_FAR = "The deck differs from its origin in {changes} cards; at most {limit} may differ."
UNKNOWN_CARDS = "No card data for: {codes}."


class TuningError(ValueError):
    """A tuning that cannot be run; the message says what to fix."""


@dataclass(frozen=True, order=True)
class Swap:
    out: str
    into: str
    copies: int          # 0: a hero change

    @property
    def is_hero(self) -> bool:
        return self.copies == 0

    def to_dict(self) -> dict[str, Any]:
        return {"out": self.out, "into": self.into, "copies": self.copies}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Swap:
        return cls(str(data["out"]), str(data["into"]), int(data["copies"]))


Candidate = tuple[Swap, ...]   # applied in order; () is the unchanged deck


@dataclass(frozen=True)
class TuneField:
    """What every game of a tuning plays: cards, the opponents, agent and ruleset."""

    cards: Mapping[str, CardDef]
    opponents: tuple[DeckList, ...]
    agent: str = DEFAULT_AGENT
    ruleset: Ruleset = STANDARD
    weights: tuple[float, ...] | None = None    # each opponent's play share (None: equal)

    def shares(self) -> tuple[float, ...] | None:
        """The weights as shares summing to 1 (None: every opponent alike)."""
        if self.weights is None:
            return None
        total = sum(self.weights)
        return tuple(w / total for w in self.weights)


@dataclass(frozen=True)
class TuningProblem:
    field: TuneField
    deck: DeckList                               # the deck tuned (its hero and cards)
    fmt: Format = STANDARD_FORMAT                 # legality: the deck's format
    set_of: Mapping[str, str] | None = None       # card code -> set code (formats with sets)
    pool: tuple[str, ...] | None = None           # codes that may come in (None: every card)
    keep: frozenset[str] = frozenset()            # codes whose copies stay
    heroes: tuple[str, ...] = ()                  # heroes it may change to (empty: none)
    max_swaps: int = 3
    seed: int = 1
    budget_games: int = 100_000
    verify_games: int = 1_000                     # a suggestion's games against each opponent
    proposals: int = 32                           # candidates raced in each round
    epsilon: float = 0.005                        # the field's ε-equilibrium (``rules.lab.meta``)
    meta_resamples: int = 100                     # resamples of the unchanged field's pairs
    suggestions: int = 3                          # suggestions re-verified
    rungs: tuple[int, ...] | None = None          # racing rungs in blocks (None: by budget)
    origin: DeckKey | None = None                 # the printed list the changes count from
    max_changes: int | None = None                # most cards differing from ``origin``
    field_pairings: bool = True                   # play the opponents' pairings (shares)
    verify_seed: int | None = None                # fresh games' seed (None: from ``seed``)
    # the proposals' tie-break (None: ``seed``): a caller that races on the same seeds again
    # (the forecast's rounds) can still propose other cards each time
    proposal_seed: int | None = None
    extra: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)


def deck_key(hero: str, counts: Mapping[str, int]) -> DeckKey:
    return hero, tuple(sorted((c, n) for c, n in counts.items() if n > 0))


def base_key(deck: DeckList) -> DeckKey:
    return deck_key(deck.hero, deck.counts())


def apply(key: DeckKey, swaps: Candidate) -> DeckKey:
    hero, counts = key[0], dict(key[1])
    for swap in swaps:
        if swap.is_hero:
            hero = swap.into
            continue
        counts[swap.out] = counts.get(swap.out, 0) - swap.copies
        counts[swap.into] = counts.get(swap.into, 0) + swap.copies
    return deck_key(hero, counts)


def deck_list(key: DeckKey, name: str = "") -> DeckList:
    return DeckList.from_counts(key[0], dict(key[1]), name)


def changes(origin: DeckKey, key: DeckKey) -> int:
    """How many cards of ``key`` differ from ``origin``: copies in that ``origin`` lacks, or
    copies out, whichever is more (a hero change counts one)."""
    before, after = dict(origin[1]), dict(key[1])
    added = sum(max(0, n - before.get(c, 0)) for c, n in after.items())
    removed = sum(max(0, n - after.get(c, 0)) for c, n in before.items())
    return max(added, removed) + (origin[0] != key[0])


def within_reach(problem: TuningProblem, key: DeckKey) -> bool:
    """The deck keeps within ``max_changes`` cards of its origin (always, without a cap)."""
    if problem.origin is None or problem.max_changes is None:
        return True
    return changes(problem.origin, key) <= problem.max_changes


def is_legal(problem: TuningProblem, key: DeckKey) -> bool:
    return within_reach(problem, key) and not check_deck(
        Deck.of(key[0], dict(key[1])), problem.field.cards, problem.fmt, set_of=problem.set_of)


def check_problem(problem: TuningProblem) -> None:
    """TuningError when the tuning cannot start: no opponent, unknown cards, an illegal deck."""
    if not problem.field.opponents:
        raise TuningError(NO_OPPONENTS)
    weights = problem.field.weights
    if weights is not None and (len(weights) != len(problem.field.opponents)
                                or min(weights) < 0 or sum(weights) <= 0):
        raise TuningError(BAD_WEIGHTS.format(weights=list(weights)))
    if not within_reach(problem, base_key(problem.deck)):
        assert problem.origin is not None
        raise TuningError(TOO_FAR.format(changes=changes(problem.origin, base_key(problem.deck)),
                                         limit=problem.max_changes))
    cards = problem.field.cards
    used = {problem.deck.hero, *problem.deck.cards, *(problem.pool or ()), *problem.heroes}
    for deck in problem.field.opponents:
        used.update((deck.hero, *deck.cards))
    missing = sorted(c for c in used if c not in cards)
    if missing:
        raise TuningError(UNKNOWN_CARDS.format(codes=", ".join(missing)))
    problems = check_deck(Deck.of(problem.deck.hero, problem.deck.counts()), cards, problem.fmt,
                          set_of=problem.set_of)
    if problems:
        # The engine names what is broken by its codes; the site says it in words
        # (balance.tuning.services re-checks the deck and renders its problems).
        raise TuningError(NOT_LEGAL.format(format=problem.fmt.name, problems="; ".join(
            f"{p.code} ({p.rule}: {', '.join(p.cards)})" if p.cards else f"{p.code} ({p.rule})"
            for p in problems)))


def pool_of(problem: TuningProblem) -> list[str]:
    """The cards that may come in: the problem's pool, or every card of the format's kinds."""
    codes = problem.pool if problem.pool is not None else sorted(problem.field.cards)
    kinds = set(problem.fmt.deck_kinds)
    return [c for c in codes if c in problem.field.cards
            and problem.field.cards[c].kind in kinds]


def _tiebreak(seed: int, *parts: object) -> str:
    return hashlib.sha256("/".join(map(str, (seed, *parts))).encode()).hexdigest()


def neighbours(problem: TuningProblem, base: DeckKey, swaps: Candidate,
               exclude: frozenset[DeckKey] = frozenset()) -> list[Candidate]:
    """Candidates one swap beyond ``swaps``, legal, best prior first, at most ``proposals``.

    The prior: an incoming card of an attribute the deck already plays (or none), then a cost
    near the outgoing card's, the same kind; each incoming card replaces every copy, then one
    copy; each outgoing card gets its share of the proposals so every slot of the deck is
    tried."""
    cards = problem.field.cards
    tiebreak_seed = problem.seed if problem.proposal_seed is None else problem.proposal_seed
    current = apply(base, swaps)
    hero, counts = current[0], dict(current[1])
    added = {s.into for s in swaps}
    removed = {s.out for s in swaps}
    attributes = {cards[c].attribute for c in (hero, *counts)} - {None}
    out: list[tuple[tuple[int | str, ...], Candidate]] = []       # (sort key, candidate)
    for new_hero in () if hero in problem.keep else problem.heroes:   # a kept hero stays
        if new_hero != hero and new_hero not in removed and new_hero in cards:
            candidate = (*swaps, Swap(hero, new_hero, 0))
            key = apply(base, candidate)
            if key not in exclude and is_legal(problem, key):
                out.append(((0, _tiebreak(tiebreak_seed, hero, new_hero)), candidate))
    pool = pool_of(problem)
    per_out: dict[str, list[tuple[tuple[int | str, ...], Candidate]]] = {}
    for code, copies in sorted(counts.items()):
        if code in problem.keep or code in added:
            continue
        gone = cards[code]
        options: list[tuple[tuple[int | str, ...], Candidate]] = []
        for into in pool:
            if into == code or into in removed:
                continue
            card = cards[into]
            prior = (card.attribute is not None and card.attribute not in attributes,
                     abs(card.cost - gone.cost), card.kind != gone.kind)
            tiebreak = _tiebreak(tiebreak_seed, code, into)
            for k in sorted({1, copies}, reverse=True):    # every copy, then one
                options.append(((*prior, tiebreak, k == 1), (*swaps, Swap(code, into, k))))
        options.sort(key=lambda item: item[0])
        per_out[code] = options
    share = max(1, -(-max(0, problem.proposals - len(out)) // max(1, len(per_out))))
    for code in sorted(per_out):
        taken = 0
        for option_key, candidate in per_out[code]:
            if taken == share:
                break
            key = apply(base, candidate)
            if key in exclude or not is_legal(problem, key):
                continue
            out.append(((1, *option_key), candidate))
            taken += 1
    out.sort(key=lambda item: item[0])
    seen: set[DeckKey] = set()
    chosen = []
    for _, candidate in out:
        key = apply(base, candidate)
        if key not in seen:
            seen.add(key)
            chosen.append(candidate)
    return chosen[:max(problem.proposals, len(problem.heroes))]
