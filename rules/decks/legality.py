"""Deck legality: is this deck allowed in this format, and if not, every reason why (RULES.md R5).

``check_deck(deck, cards, fmt)`` returns **every** problem at once, in a stable order, each a
``Problem`` with a stable ``code``, the rule it breaks, its ``params`` and the cards involved.
An empty list means the deck is legal. A problem says *what* is wrong, never in words: its
``params`` are plain data (counts and limits; card, pile, kind, rarity, set, game and format
codes; a wanted size as ``{"min": …, "max": …}``; lists of codes), and the site says it in the
reader's language (``decks.problem_text``), naming the cards, piles and format from the
``cards`` and ``fmt`` the deck was checked with.

Invariants:
- Pure and total: no Django, no I/O, no exception for any deck — unknown codes, heroes in the
  deck, zero counts are problems, not crashes. The result depends only on the arguments.
- No sentence in any language, and no language code read or compared (tests/rules/
  test_legality.py reads the package for one).
- A format is plain data (``Format``); the ``standard`` format is R5 (``STANDARD``).
- Copy limits count copies **by name** (R5.3): two printings of one card share one limit, and
  the strictest limit of the printings applies (a rarity limit or a ban-list entry).
- ``cards`` may hold engine ``CardDef``s or anything with ``code``, ``kind``, ``name_en``,
  ``name_zh`` and ``rarity`` (catalogue rows qualify), so a caller need not build full
  definitions just to validate.
- A format of a game (``Format.game``) admits only that game's cards: with ``game_of`` (card
  code → game code) a card of another game is one problem (``other_game``, "remove it") and
  counts toward nothing else — no pile size, per-kind count, copy limit or hero slot — so the
  other fixes listed beside it are the ones still needed once it is gone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.decks import piles as pile_codes

RARITY_ORDER = ("N", "R", "SR", "SSR", "UR")


class CardLike(Protocol):
    """What legality reads of a card: an engine CardDef or a catalogue row both qualify."""

    @property
    def code(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def name_en(self) -> str: ...

    @property
    def name_zh(self) -> str: ...

    @property
    def rarity(self) -> str: ...


@dataclass(frozen=True)
class KindCount:
    """How many cards of one kind a pile must or may hold ("at least 1 hero inside the deck")."""

    kind: str
    min: int = 0
    max: int | None = None
    rule: str = ""


@dataclass(frozen=True)
class Pile:
    """One section of a deck (a spellbook, an atlas, the hero beside the deck, the deck itself).

    ``kinds`` and ``cards`` say what it admits (both empty: any card); ``min``/``max`` its size
    (``max`` None: no upper bound); ``kind_counts`` per-kind minimums and maximums inside it;
    ``composition`` a fixed list ``{card code: exact count}``. ``hero`` marks the pile the
    builder's hero slot fills (heroes *beside* the deck); a hero *inside* the deck is a
    ``KindCount`` of the main pile. ``rule`` is the rule-book reference its problems carry.
    """

    code: str
    name_en: str = ""
    name_zh: str = ""
    min: int = 0
    max: int | None = None
    kinds: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    kind_counts: tuple[KindCount, ...] = ()
    composition: Mapping[str, int] | None = None
    hero: bool = False
    rule: str = ""
    composition_rule: str = ""

    def admits(self, card: CardLike) -> bool:
        if not self.kinds and not self.cards:
            return True
        return card.kind in self.kinds or card.code in self.cards


@dataclass(frozen=True)
class Format:
    """The construction rules of a format, as data.

    ``card_limits`` is the ban/limited list: ``{card code: max copies}`` (0 banned, 1 limited,
    2 semi-limited); it applies to every printing with that card's name. ``legal_sets`` None
    means every set is legal; otherwise the caller passes ``set_of`` to ``check_deck``.

    A format with ``piles`` is checked pile by pile (``rules/decks/formats.py`` reads one from
    data):
    the hero and size fields above are then unused. ``copy_limits`` maps a rarity tier to its
    limit, ``default_copy_limit`` (None: no limit) covers the rest, ``card_copy_limits`` sets a
    limit for named cards, and ``copy_exempt_kinds``/``copy_exempt_cards`` (basic cards) have no
    copy limit. ``rule_refs`` names the rule-book rule of ``"copies"``, ``"bans"``, ``"sets"``
    and ``"piles"``; ``kind_names`` and ``rarity_names`` give ``(English, Chinese)`` words.
    ``game`` is the game whose cards it admits (checked when the caller passes ``game_of``).
    """

    code: str = "standard"
    name: str = "Standard"
    hero_count: int = 1
    deck_min: int = 30
    deck_max: int = 30
    deck_kinds: tuple[str, ...] = ("minion", "item")
    copy_limits: Mapping[str, int] = field(
        default_factory=lambda: {"N": 3, "R": 3, "SR": 3, "SSR": 3, "UR": 1})
    default_copy_limit: int | None = 3
    card_limits: Mapping[str, int] = field(default_factory=dict)
    legal_sets: tuple[str, ...] | None = None
    piles: tuple[Pile, ...] = ()
    card_copy_limits: Mapping[str, int] = field(default_factory=dict)
    copy_exempt_kinds: tuple[str, ...] = ()
    copy_exempt_cards: tuple[str, ...] = ()
    rule_refs: Mapping[str, str] = field(default_factory=dict)
    kind_names: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    rarity_names: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    name_zh: str = ""
    game: str = ""
    """The code of the game whose cards the format admits ("": any card, not checked)."""
    game_name: tuple[str, str] = ("", "")
    """The game's (English, Chinese) name, for the site's sentences."""

    def copy_limit(self, rarity: str) -> int | None:
        return self.copy_limits.get(rarity, self.default_copy_limit)

    @property
    def hero_pile(self) -> Pile | None:
        """The pile the builder's hero slot fills, if the format has one."""
        return next((p for p in self.piles if p.hero), None)

    @property
    def main_pile(self) -> Pile | None:
        """The pile a plain list of cards goes to: ``deck`` if there is one, else the first
        pile that is not the hero slot."""
        named = next((p for p in self.piles if p.code == pile_codes.MAIN_PILE), None)
        return named or next((p for p in self.piles if not p.hero), None)


STANDARD = Format()
"""R5: exactly 1 hero, exactly 30 minion/item cards, UR ≤ 1 per name, others ≤ 3, no bans."""


@dataclass(frozen=True)
class Deck:
    """What legality checks: the hero slot(s) and ``{code: count}`` of the deck's cards.

    Heroes are a tuple because an imported list may name none or several; the format decides
    how many are allowed (R5.1).
    """

    heroes: tuple[str, ...] = ()
    counts: Mapping[str, int] = field(default_factory=dict)
    name: str = ""
    piles: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    """Cards in named piles, ``{pile code: {code: count}}``, beside ``counts`` (the main
    pile); only formats with piles read them."""

    @classmethod
    def of(cls, hero: str | None, counts: Mapping[str, int], name: str = "") -> Deck:
        return cls(heroes=(hero,) if hero else (), counts=dict(counts), name=name)

    @property
    def hero(self) -> str | None:
        return self.heroes[0] if self.heroes else None

    @property
    def size(self) -> int:
        return sum(n for n in self.counts.values() if isinstance(n, int) and n > 0)

    def pile_counts(self, fmt: Format) -> dict[str, dict[str, int]]:
        """``{pile code: {code: count}}`` as ``fmt`` reads this deck: ``counts`` (and a pile
        called ``deck``) fill the format's main pile, ``heroes`` its hero pile (or the main
        pile when it has none); named piles keep their names."""
        main = fmt.main_pile.code if fmt.main_pile else pile_codes.MAIN_PILE
        hero = fmt.hero_pile.code if fmt.hero_pile else main
        out: dict[str, dict[str, int]] = {}

        def add(pile: str, code: str, count: Any) -> None:
            into = out.setdefault(pile, {})
            if isinstance(count, int) and not isinstance(count, bool) and isinstance(
                    into.get(code, 0), int):
                into[code] = into.get(code, 0) + count
            else:
                into[code] = count

        for code in self.heroes:
            add(hero, code, 1)
        for code, count in self.counts.items():
            add(main, code, count)
        for pile, counts in self.piles.items():
            target = main if pile == pile_codes.MAIN_PILE and not any(
                p.code == pile_codes.MAIN_PILE for p in fmt.piles) else pile
            for code, count in counts.items():
                add(target, code, count)
        return out


@dataclass(frozen=True)
class Problem:
    """One reason a deck is not legal: a stable ``code``, the rule it breaks, ``params`` (plain
    data, see the module docstring) and the codes of the cards involved."""

    code: str
    rule: str
    params: Mapping[str, Any] = field(default_factory=dict)
    cards: tuple[str, ...] = ()


def _want(low: int, high: int | None) -> dict[str, int | None]:
    """A wanted number of cards: ``max`` None means no upper bound."""
    return {"min": low, "max": high}


def check_deck(deck: Deck, cards: Mapping[str, CardLike], fmt: Format = STANDARD, *,
               set_of: Mapping[str, str] | None = None,
               game_of: Mapping[str, str] | None = None) -> list[Problem]:
    """Every problem with ``deck`` under ``fmt`` (empty: legal). See the module docstring.

    ``game_of`` maps card codes to their game's code: with it (and ``fmt.game``), a card of
    another game is a problem of its own and counts toward nothing else."""
    foreign = _foreign(deck, fmt, game_of)
    if fmt.piles:
        return _check_piles(deck, cards, fmt, set_of, foreign)
    problems: list[Problem] = []
    problems += _hero_problems(deck, cards, fmt, foreign)
    problems += _entry_problems(deck, cards, fmt, foreign)
    problems += _size_problems(deck, fmt, foreign)
    problems += _copy_problems(deck, cards, fmt, foreign)
    problems += _set_problems(deck, cards, fmt, set_of, foreign)
    return problems


def is_legal(deck: Deck, cards: Mapping[str, CardLike], fmt: Format = STANDARD, *,
             set_of: Mapping[str, str] | None = None,
             game_of: Mapping[str, str] | None = None) -> bool:
    return not check_deck(deck, cards, fmt, set_of=set_of, game_of=game_of)


def _foreign(deck: Deck, fmt: Format, game_of: Mapping[str, str] | None) -> frozenset[str]:
    """The codes in ``deck`` of cards of another game than ``fmt``'s (none when either the
    format's game or ``game_of`` is not given; an unknown code is not foreign but unknown)."""
    if not fmt.game or game_of is None:
        return frozenset()
    codes = {*deck.heroes, *deck.counts, *(c for p in deck.piles.values() for c in p)}
    return frozenset(c for c in codes if c in game_of and game_of[c] != fmt.game)


def _other_game(code: str, count: Any, fmt: Format, rule: str) -> Problem:
    return Problem("other_game", rule, {"card": code, "count": count, "game": fmt.game,
                                        "format": fmt.code}, (code,))


def _unknown_card(code: str, rule: str) -> Problem:
    return Problem("unknown_card", rule, {"card": code}, (code,))


def _bad_count(code: str, count: Any, rule: str) -> Problem:
    # ``count`` is whatever the deck held (text, a negative number): the site shows it as given.
    return Problem("bad_count", rule, {"card": code, "count": count}, (code,))


def _hero_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                   foreign: frozenset[str] = frozenset()) -> list[Problem]:
    out: list[Problem] = []
    heroes = tuple(h for h in deck.heroes if h not in foreign)
    if not heroes and fmt.hero_count > 0:
        out.append(Problem("hero_missing", "R5.1", {"format": fmt.code,
                                                    "want": fmt.hero_count}))
    elif len(heroes) > fmt.hero_count:
        out.append(Problem("hero_count", "R5.1", {
            "count": len(heroes), "format": fmt.code, "want": fmt.hero_count,
            "extra": list(heroes[fmt.hero_count:])}, heroes))
    for code in dict.fromkeys(deck.heroes):
        card = cards.get(code)
        if code in foreign:
            out.append(_other_game(code, 1, fmt, "R5.1"))
        elif card is None:
            out.append(_unknown_card(code, "R5.1"))
        elif card.kind != "hero":
            out.append(Problem("hero_not_hero", "R5.1", {"card": code, "kind": card.kind},
                               (code,)))
    return out


def _entry_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                    foreign: frozenset[str] = frozenset()) -> list[Problem]:
    out: list[Problem] = []
    for code, count in sorted(deck.counts.items()):
        card = cards.get(code)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            out.append(_bad_count(code, count, "R5.2"))
        elif card is None:
            out.append(_unknown_card(code, "R5.2"))
        elif code in foreign:
            out.append(_other_game(code, count, fmt, "R5.2"))
        elif card.kind not in fmt.deck_kinds:
            out.append(Problem("kind_not_allowed", "R5.2", {
                "card": code, "kind": card.kind, "count": count, "format": fmt.code,
                "kinds": list(fmt.deck_kinds)}, (code,)))
    return out


def _size_problems(deck: Deck, fmt: Format,
                   foreign: frozenset[str] = frozenset()) -> list[Problem]:
    size = deck.size - sum(n for c, n in deck.counts.items()
                           if c in foreign and isinstance(n, int) and n > 0)
    params = {"count": size, "format": fmt.code, "want": _want(fmt.deck_min, fmt.deck_max)}
    if size < fmt.deck_min:
        return [Problem("deck_too_small", "R5.2", {**params, "missing": fmt.deck_min - size})]
    if size > fmt.deck_max:
        return [Problem("deck_too_large", "R5.2", {**params, "extra": size - fmt.deck_max})]
    return []


def _copy_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                   foreign: frozenset[str] = frozenset()) -> list[Problem]:
    """R5.3 and R5.4: copies per card name against the rarity limit and the ban list."""
    counts = {c: n for c, n in deck.counts.items() if c not in foreign}
    out = _copies(counts, cards, fmt, skip_kinds=("hero",))
    out += _banned_heroes(deck, cards, fmt)
    return out


def _copies(counts: Mapping[str, Any], cards: Mapping[str, CardLike], fmt: Format,
            skip_kinds: tuple[str, ...] = ()) -> list[Problem]:
    """Copies per card name (every pile together) against the rarity tier's limit, a named
    card's limit and the ban list; exempt kinds and cards (basic cards) have no copy limit."""
    groups: dict[str, list[str]] = {}
    for code, count in counts.items():
        card = cards.get(code)
        if card is not None and isinstance(count, int) and count > 0 and (
                card.kind not in skip_kinds):
            groups.setdefault(card.name_en.casefold(), []).append(code)
    doubtful = []
    for codes in groups.values():
        total = sum(counts[c] for c in codes)
        if len(codes) == 1 and codes[0] not in fmt.card_limits and (
                codes[0] not in fmt.card_copy_limits):
            limit = fmt.copy_limits.get(cards[codes[0]].rarity)
            if limit is not None and total <= limit:
                continue        # one printing within its tier's limit: most names of a deck
        doubtful.append((codes, total))
    out: list[Problem] = []
    for codes, total in sorted(doubtful):
        problem = _copy_problem(codes, total, cards, fmt)
        if problem is not None:
            out.append(problem)
    return out


def _copy_problem(codes: list[str], total: int, cards: Mapping[str, CardLike],
                  fmt: Format) -> Problem | None:
    """The copy problem of the printings ``codes`` of one name holding ``total`` copies, if
    any; the first printing names the card."""
    exempt = all(cards[c].kind in fmt.copy_exempt_kinds or c in fmt.copy_exempt_cards
                 for c in codes)
    tier_limits = [fmt.copy_limits[cards[c].rarity] for c in codes
                   if cards[c].rarity in fmt.copy_limits]
    rarity_limit = None if exempt else (min(tier_limits) if tier_limits
                                        else fmt.default_copy_limit)
    named = [fmt.card_copy_limits[c] for c in codes if c in fmt.card_copy_limits]
    card_limit = min(named) if named else None
    bans = [fmt.card_limits[c] for c in codes if c in fmt.card_limits]
    ban_limit = min(bans) if bans else None
    if ban_limit is None and card_limit is None and (
            total <= rarity_limit if rarity_limit is not None
            else exempt or not fmt.copy_limits):
        return None             # within its limit (or it has none): the common case
    copies_rule = fmt.rule_refs.get("copies", "R5.3")
    bans_rule = fmt.rule_refs.get("bans", "R5.4")
    involved = tuple(codes)
    card = {"card": codes[0], "count": total, "format": fmt.code}
    if ban_limit == 0:
        return Problem("banned", bans_rule, card, involved)
    if ban_limit is not None and _below(ban_limit, rarity_limit) and total > ban_limit:
        return Problem("restricted", bans_rule, {**card, "limit": ban_limit,
                                                 "extra": total - ban_limit}, involved)
    if card_limit is not None and _below(card_limit, rarity_limit) and total > card_limit:
        return Problem("card_copy_limit", copies_rule, {**card, "limit": card_limit,
                                                        "extra": total - card_limit}, involved)
    if rarity_limit is not None and total > rarity_limit:
        limited = {**card, "limit": rarity_limit, "extra": total - rarity_limit}
        if tier_limits and rarity_limit == min(tier_limits):        # the limit is a tier's
            limited["rarity"] = max((cards[c].rarity for c in codes),
                                    key=lambda r: _rarity_rank(r, fmt))
        return Problem("copy_limit", copies_rule, limited, involved)
    if rarity_limit is None and not exempt and fmt.copy_limits and (
            card_limit is None and ban_limit is None):
        # Copies by tier and no default: a card without a tier would have no limit at all.
        return Problem("no_copy_tier", copies_rule, {
            "card": codes[0], "format": fmt.code, "rarities": list(fmt.copy_limits)},
            involved)
    return None


def _below(limit: int, other: int | None) -> bool:
    return other is None or limit < other


def _banned_heroes(deck: Deck, cards: Mapping[str, CardLike], fmt: Format) -> list[Problem]:
    return [Problem("banned", "R5.4", {"card": code, "count": 1, "format": fmt.code}, (code,))
            for code in dict.fromkeys(deck.heroes)
            if fmt.card_limits.get(code) == 0 and code in cards]


def _set_problem(code: str, count: Any, card_set: str, fmt: Format, rule: str) -> Problem:
    return Problem("set_not_legal", rule, {"card": code, "count": count, "set": card_set,
                                           "format": fmt.code}, (code,))


def _set_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                  set_of: Mapping[str, str] | None,
                  foreign: frozenset[str] = frozenset()) -> list[Problem]:
    if fmt.legal_sets is None:
        return []
    set_of = set_of or {}
    out = []
    entries = [(h, 1) for h in dict.fromkeys(deck.heroes)] + sorted(deck.counts.items())
    for code, count in entries:
        card_set = set_of.get(code)
        if code in foreign:
            continue
        if code in cards and card_set is not None and card_set not in fmt.legal_sets:
            out.append(_set_problem(code, count, card_set, fmt, "R5"))
    return out


def _check_piles(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                 set_of: Mapping[str, str] | None,
                 foreign: frozenset[str] = frozenset()) -> list[Problem]:
    """A format in piles: each pile's entries, size, per-kind counts and fixed composition,
    then copies, bans and sets over every pile together."""
    piles = deck.pile_counts(fmt)
    known = {p.code for p in fmt.piles}
    out: list[Problem] = []
    # Which piles a deck has is the format's whole layout; a file that names no rule for it
    # gets the main pile's (where a plain list's cards go).
    piles_rule = fmt.rule_refs.get("piles") or (fmt.main_pile.rule if fmt.main_pile else "")
    for code in sorted(set(piles) - known):
        out.append(Problem("pile_unknown", piles_rule, {
            "pile": code, "format": fmt.code, "piles": [p.code for p in fmt.piles]},
            tuple(sorted(piles[code]))))
    for pile in fmt.piles:
        out += _pile_problems(pile, piles.get(pile.code, {}), cards, fmt, foreign)
    merged: dict[str, Any] = {}
    for code, counts in piles.items():
        if code not in known:
            continue
        for card_code, count in counts.items():
            if card_code in foreign:
                continue
            if isinstance(count, int) and not isinstance(count, bool) and count > 0:
                merged[card_code] = merged.get(card_code, 0) + count
    out += _copies(merged, cards, fmt)
    if fmt.legal_sets is not None:
        sets_rule = fmt.rule_refs.get("sets", "")
        for code, count in sorted(merged.items()):
            card_set = (set_of or {}).get(code)
            if code in cards and card_set is not None and card_set not in fmt.legal_sets:
                out.append(_set_problem(code, count, card_set, fmt, sets_rule))
    return out


def _pile_problems(pile: Pile, counts: Mapping[str, Any], cards: Mapping[str, CardLike],
                   fmt: Format, foreign: frozenset[str] = frozenset()) -> list[Problem]:
    out: list[Problem] = []
    size = 0
    by_kind: dict[str, int] = {}
    for code, count in sorted(counts.items()):
        card = cards.get(code)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            out.append(_bad_count(code, count, pile.rule))
            continue
        if code in foreign:
            out.append(_other_game(code, count, fmt, pile.rule))
            continue
        size += count
        if card is None:
            out.append(_unknown_card(code, pile.rule))
            continue
        by_kind[card.kind] = by_kind.get(card.kind, 0) + count
        if not pile.admits(card):
            target = next((p for p in fmt.piles if p.code != pile.code and p.admits(card)),
                          None)
            out.append(Problem("not_in_pile", pile.rule, {
                "card": code, "kind": card.kind, "count": count, "pile": pile.code,
                "pile_kinds": list(pile.kinds), "pile_cards": list(pile.cards),
                "target": target.code if target else None}, (code,)))
    out += _pile_size_problems(pile, size, fmt)
    for rule in pile.kind_counts:
        have = by_kind.get(rule.kind, 0)
        params = {"pile": pile.code, "kind": rule.kind, "count": have, "format": fmt.code,
                  "want": _want(rule.min, rule.max)}
        if have < rule.min:
            out.append(Problem("kind_too_few", rule.rule or pile.rule,
                               {**params, "missing": rule.min - have}))
        elif rule.max is not None and have > rule.max:
            out.append(Problem("kind_too_many", rule.rule or pile.rule,
                               {**params, "extra": have - rule.max}))
    if pile.composition is not None:
        own = {c: n for c, n in counts.items() if c not in foreign}
        out += _composition_problems(pile, own)
    return out


def _pile_size_problems(pile: Pile, size: int, fmt: Format) -> list[Problem]:
    params = {"pile": pile.code, "count": size, "format": fmt.code,
              "want": _want(pile.min, pile.max)}
    if size < pile.min:
        return [Problem("pile_too_small", pile.rule, {**params, "missing": pile.min - size})]
    if pile.max is not None and size > pile.max:
        return [Problem("pile_too_large", pile.rule, {**params, "extra": size - pile.max})]
    return []


def _composition_problems(pile: Pile, counts: Mapping[str, Any]) -> list[Problem]:
    out: list[Problem] = []
    wanted = pile.composition or {}
    rule = pile.composition_rule or pile.rule
    for code in sorted(set(wanted) | set(counts)):
        have = counts.get(code, 0)
        if not isinstance(have, int) or isinstance(have, bool):
            continue
        want = wanted.get(code, 0)
        params = {"pile": pile.code, "card": code, "want": want, "count": have}
        if have < want:
            out.append(Problem("composition_missing", rule, {**params, "missing": want - have},
                               (code,)))
        elif have > want:
            out.append(Problem("composition_extra", rule, {**params, "extra": have - want},
                               (code,)))
    return out


def _rarity_rank(rarity: str, fmt: Format | None = None) -> int:
    order = tuple(fmt.rarity_names) if fmt is not None and fmt.rarity_names else RARITY_ORDER
    return order.index(rarity) if rarity in order else -1
