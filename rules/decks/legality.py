"""Deck legality: is this deck allowed in this format, and if not, every reason why (RULES.md R5).

``check_deck(deck, cards, fmt)`` returns **every** problem at once, in a stable order, each a
``Problem`` with a stable ``code``, the rule it breaks, a message in plain words, the cards
involved and a suggested fix ("remove 1 × Night Wyrm"). An empty list means the deck is legal.

Invariants:
- Pure and total: no Django, no I/O, no exception for any deck — unknown codes, heroes in the
  deck, zero counts are problems, not crashes. The result depends only on the arguments.
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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules.decks import legality_zh
from rules.decks import piles as pile_codes
from rules.engine.words import KIND_WORDS

# --- Messages (tests import these instead of retyping the sentences) --------------------------

HERO_MISSING = "The deck has no hero; the {format} format needs exactly {want}."
HERO_MISSING_FIX = "pick a hero"
HERO_COUNT = "The deck has {count} heroes; the {format} format allows exactly {want}."
HERO_COUNT_FIX = "keep one hero and remove {names}"
HERO_NOT_HERO = "{name} is {a_kind}, not a hero, so it cannot be the deck's hero."
HERO_NOT_HERO_FIX = "pick a hero card as the hero instead of {name}"
UNKNOWN_CARD = "No card has the code {code!r}."
UNKNOWN_CARD_FIX = "remove {code}"
BAD_COUNT = "{name}: {count} copies is not a card count; a count is a whole number from 1."
BAD_COUNT_FIX = "set {name} to 1 or more copies, or remove it"
KIND_NOT_ALLOWED = "{name} is {a_kind}; a {format} deck may only hold {kinds}."
KIND_NOT_ALLOWED_HERO_FIX = "remove {count} × {name} (make it the deck's hero instead)"
KIND_NOT_ALLOWED_FIX = "remove {count} × {name}"
DECK_TOO_SMALL = "The deck has {count} cards; the {format} format needs {want}."
DECK_TOO_SMALL_FIX = "add {missing} more card{s}"
DECK_TOO_LARGE = "The deck has {count} cards; the {format} format allows {want}."
DECK_TOO_LARGE_FIX = "remove {extra} card{s}"
COPY_LIMIT = "{name}: {count} copies — {rarity} cards are limited to {limit}."
COPY_LIMIT_FIX = "remove {extra} × {name}"
BANNED = "{name} is banned in the {format} format."
BANNED_FIX = "remove {count} × {name}"
RESTRICTED = "{name}: {count} copies — it is {label} to {limit} in the {format} format."
RESTRICTED_FIX = "remove {extra} × {name}"
SET_NOT_LEGAL = "{name} is from the set {set}, which is not legal in the {format} format."
SET_NOT_LEGAL_FIX = "remove {count} × {name}"
# Formats in piles (several sections, per-kind counts, fixed compositions; rules/decks/formats.py).
PILE_UNKNOWN = "The {format} format has no pile called {pile!r}; its piles are {piles}."
PILE_UNKNOWN_FIX = "move the cards of {pile!r} into one of: {piles}"
PILE_TOO_SMALL = "{pile}: {count} cards; the {format} format needs {want}."
PILE_TOO_SMALL_FIX = "add {missing} more card{s} to {pile}"
PILE_TOO_LARGE = "{pile}: {count} cards; the {format} format allows {want}."
PILE_TOO_LARGE_FIX = "remove {extra} card{s} from {pile}"
NOT_IN_PILE = "{name} is {a_kind}; {pile} may only hold {kinds}."
NOT_IN_PILE_FIX = "remove {count} × {name} from {pile}"
NOT_IN_PILE_MOVE_FIX = "move {count} × {name} from {pile} to {target}"
KIND_TOO_FEW = "{pile} holds {count} × {kind}; the {format} format needs {want}."
KIND_TOO_FEW_FIX = "add {missing} × {kind} to {pile}"
KIND_TOO_MANY = "{pile} holds {count} × {kind}; the {format} format allows {want}."
KIND_TOO_MANY_FIX = "remove {extra} × {kind} from {pile}"
COMPOSITION_MISSING = "{pile} is a fixed set: it needs {want} × {name}, it has {count}."
COMPOSITION_MISSING_FIX = "add {missing} × {name} to {pile}"
COMPOSITION_EXTRA = "{pile} is a fixed set: it holds {count} × {name}, the set has {want}."
COMPOSITION_EXTRA_FIX = "remove {extra} × {name} from {pile}"
CARD_COPY_LIMIT = "{name}: {count} copies — the {format} format allows {limit} of it."
CARD_COPY_LIMIT_FIX = "remove {extra} × {name}"
# Games: a format admits only its own game's cards; copies by rarity need a tier.
OTHER_GAME = "{name} is not a {game} card; a {format} deck holds only {game} cards."
OTHER_GAME_FIX = "remove {count} × {name}"
NO_COPY_TIER = ("{name} has no rarity tier, and the {format} format limits copies by tier "
                "({tiers}).")
NO_COPY_TIER_FIX = "give {name} a rarity tier in the catalogue, or remove it"

RARITY_ORDER = ("N", "R", "SR", "SSR", "UR")
BAN_LABELS = {0: "banned", 1: "limited", 2: "semi-limited"}


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

    def name(self, lang: str = "en") -> str:
        return (self.name_zh or self.name_en or self.code) if lang == "zh" else (
            self.name_en or self.code)


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
    """The game's (English, Chinese) name, for messages."""

    def game_display(self, lang: str = "en") -> str:
        en, zh = self.game_name
        return (zh or en or self.game) if lang == "zh" else (en or self.game)

    def copy_limit(self, rarity: str) -> int | None:
        return self.copy_limits.get(rarity, self.default_copy_limit)

    def display_name(self, lang: str = "en") -> str:
        return (self.name_zh or self.name) if lang == "zh" else self.name

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
    """One reason a deck is not legal. ``code`` is stable; ``message`` and ``fix`` are words."""

    code: str
    rule: str
    message: str
    fix: str
    cards: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "rule": self.rule, "message": self.message,
                "fix": self.fix, "cards": list(self.cards)}


def _t(key: str, lang: str) -> str:
    """The message ``key`` (a constant's name above) in ``lang``: English or Chinese."""
    return legality_zh.MESSAGES[key] if lang == "zh" else str(globals()[key])


def _name(card: CardLike | None, code: str, lang: str) -> str:
    if card is None:
        return code
    return (card.name_zh or card.name_en) if lang == "zh" else (card.name_en or code)


def _kind_name(kind: str, lang: str) -> str:
    """An engine kind's word from its registry (``rules.engine.words``): "minion", "随从卡"; a
    word the registry does not hold (another game's kind name) as it is."""
    word = KIND_WORDS.get(kind)
    if word is None:
        return kind
    return legality_zh.kind_card(word.name_zh) if lang == "zh" else word.prose("en")


def _kind_plural(kind: str) -> str:
    word = KIND_WORDS.get(kind)
    return word.plural("en").lower() if word is not None else f"{kind}s"


def _a(word: str, lang: str = "en") -> str:
    word = _kind_name(word, lang)
    if lang == "zh":
        return word
    # A game's own kind names are capitalised ("Artifact", "Avatar"): an Artifact.
    return f"an {word}" if word and word[0].lower() in "aeiou" else f"a {word}"


def _plural(n: int, lang: str = "en") -> str:
    return "" if n == 1 or lang == "zh" else "s"


def _kinds_words(kinds: Iterable[str], lang: str = "en") -> str:
    if lang == "zh":
        words = [_kind_name(k, lang) for k in kinds]
        separator, conjunction, nothing = (legality_zh.LIST_SEPARATOR, legality_zh.AND,
                                           legality_zh.NO_CARDS)
    else:
        words = [_kind_plural(k) for k in kinds]
        separator, conjunction, nothing = ", ", " and ", "no cards"
    if not words:
        return nothing
    return words[0] if len(words) == 1 else separator.join(words[:-1]) + conjunction + words[-1]


def check_deck(deck: Deck, cards: Mapping[str, CardLike], fmt: Format = STANDARD, *,
               set_of: Mapping[str, str] | None = None, lang: str = "en",
               game_of: Mapping[str, str] | None = None) -> list[Problem]:
    """Every problem with ``deck`` under ``fmt`` (empty: legal). See the module docstring.

    ``lang`` is ``"en"`` or ``"zh"``: the language of the messages, fixes and card names.
    ``game_of`` maps card codes to their game's code: with it (and ``fmt.game``), a card of
    another game is a problem of its own and counts toward nothing else."""
    foreign = _foreign(deck, fmt, game_of)
    if fmt.piles:
        return _check_piles(deck, cards, fmt, set_of, lang, foreign)
    problems: list[Problem] = []
    problems += _hero_problems(deck, cards, fmt, lang, foreign)
    problems += _entry_problems(deck, cards, fmt, lang, foreign)
    problems += _size_problems(deck, fmt, lang, foreign)
    problems += _copy_problems(deck, cards, fmt, lang, foreign)
    problems += _set_problems(deck, cards, fmt, set_of, lang, foreign)
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


def _other_game(code: str, count: Any, cards: Mapping[str, CardLike], fmt: Format, rule: str,
                lang: str) -> Problem:
    name = _name(cards.get(code), code, lang)
    game = fmt.game_display(lang)
    return Problem("other_game", rule, _t("OTHER_GAME", lang).format(
        name=name, game=game, format=fmt.display_name(lang)),
        _t("OTHER_GAME_FIX", lang).format(count=count, name=name), (code,))


def _hero_want(count: int, lang: str) -> str:
    if lang == "zh":
        return legality_zh.hero_want(count, KIND_WORDS["hero"].name_zh)
    return f"{count} {_kind_name('hero', lang) if count == 1 else _kind_plural('hero')}"


def _hero_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                   lang: str, foreign: frozenset[str] = frozenset()) -> list[Problem]:
    out: list[Problem] = []
    heroes = tuple(h for h in deck.heroes if h not in foreign)
    if not heroes and fmt.hero_count > 0:
        out.append(Problem("hero_missing", "R5.1", _t("HERO_MISSING", lang).format(
            format=fmt.name, want=_hero_want(fmt.hero_count, lang)),
            _t("HERO_MISSING_FIX", lang)))
    elif len(heroes) > fmt.hero_count:
        extra = heroes[fmt.hero_count:]
        separator = legality_zh.LIST_SEPARATOR if lang == "zh" else ", "
        names = separator.join(_name(cards.get(c), c, lang) for c in extra)
        out.append(Problem("hero_count", "R5.1", _t("HERO_COUNT", lang).format(
            count=len(heroes), format=fmt.name, want=fmt.hero_count),
            _t("HERO_COUNT_FIX", lang).format(names=names), heroes))
    for code in dict.fromkeys(deck.heroes):
        card = cards.get(code)
        if code in foreign:
            out.append(_other_game(code, 1, cards, fmt, "R5.1", lang))
        elif card is None:
            out.append(Problem("unknown_card", "R5.1", _t("UNKNOWN_CARD", lang).format(code=code),
                               _t("UNKNOWN_CARD_FIX", lang).format(code=code), (code,)))
        elif card.kind != "hero":
            name = _name(card, code, lang)
            out.append(Problem("hero_not_hero", "R5.1", _t("HERO_NOT_HERO", lang).format(
                name=name, a_kind=_a(card.kind, lang)),
                _t("HERO_NOT_HERO_FIX", lang).format(name=name), (code,)))
    return out


def _entry_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                    lang: str, foreign: frozenset[str] = frozenset()) -> list[Problem]:
    out: list[Problem] = []
    # Names and words are made for the entries with a problem only: most entries have none.
    for code, count in sorted(deck.counts.items()):
        card = cards.get(code)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            name = _name(card, code, lang)
            out.append(Problem("bad_count", "R5.2", _t("BAD_COUNT", lang).format(
                name=name, count=count), _t("BAD_COUNT_FIX", lang).format(name=name), (code,)))
        elif card is None:
            out.append(Problem("unknown_card", "R5.2", _t("UNKNOWN_CARD", lang).format(code=code),
                               _t("UNKNOWN_CARD_FIX", lang).format(code=code), (code,)))
        elif code in foreign:
            out.append(_other_game(code, count, cards, fmt, "R5.2", lang))
        elif card.kind not in fmt.deck_kinds:
            name = _name(card, code, lang)
            fix = "KIND_NOT_ALLOWED_HERO_FIX" if card.kind == "hero" else "KIND_NOT_ALLOWED_FIX"
            out.append(Problem("kind_not_allowed", "R5.2", _t("KIND_NOT_ALLOWED", lang).format(
                name=name, a_kind=_a(card.kind, lang), format=fmt.name,
                kinds=_kinds_words(fmt.deck_kinds, lang)),
                _t(fix, lang).format(count=count, name=name), (code,)))
    return out


def _size_problems(deck: Deck, fmt: Format, lang: str = "en",
                   foreign: frozenset[str] = frozenset()) -> list[Problem]:
    size = deck.size - sum(n for c, n in deck.counts.items()
                           if c in foreign and isinstance(n, int) and n > 0)
    if lang == "zh":
        want = legality_zh.size_want(fmt.deck_min, fmt.deck_max)
    elif fmt.deck_min == fmt.deck_max:
        want = f"exactly {fmt.deck_min}"
    else:
        want = f"{fmt.deck_min} to {fmt.deck_max}"
    if size < fmt.deck_min:
        missing = fmt.deck_min - size
        return [Problem("deck_too_small", "R5.2", _t("DECK_TOO_SMALL", lang).format(
            count=size, format=fmt.name, want=want),
            _t("DECK_TOO_SMALL_FIX", lang).format(missing=missing, s=_plural(missing, lang)))]
    if size > fmt.deck_max:
        extra = size - fmt.deck_max
        return [Problem("deck_too_large", "R5.2", _t("DECK_TOO_LARGE", lang).format(
            count=size, format=fmt.name, want=want),
            _t("DECK_TOO_LARGE_FIX", lang).format(extra=extra, s=_plural(extra, lang)))]
    return []


def _copy_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                   lang: str, foreign: frozenset[str] = frozenset()) -> list[Problem]:
    """R5.3 and R5.4: copies per card name against the rarity limit and the ban list."""
    counts = {c: n for c, n in deck.counts.items() if c not in foreign}
    out = _copies(counts, cards, fmt, lang, skip_kinds=("hero",))
    out += _banned_heroes(deck, cards, fmt, lang)
    return out


def _copies(counts: Mapping[str, Any], cards: Mapping[str, CardLike], fmt: Format, lang: str,
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
        problem = _copy_problem(codes, total, cards, fmt, lang)
        if problem is not None:
            out.append(problem)
    return out


def _copy_problem(codes: list[str], total: int, cards: Mapping[str, CardLike], fmt: Format,
                  lang: str) -> Problem | None:
    """The copy problem of the printings ``codes`` of one name holding ``total`` copies, if
    any. Its words are made only when there is one: most names in a deck have none."""
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
    fmt_name = fmt.display_name(lang)
    name = _name(cards[codes[0]], codes[0], lang)
    involved = tuple(codes)
    if ban_limit == 0:
        return Problem("banned", bans_rule, _t("BANNED", lang).format(
            name=name, format=fmt_name),
            _t("BANNED_FIX", lang).format(count=total, name=name), involved)
    if ban_limit is not None and _below(ban_limit, rarity_limit) and total > ban_limit:
        labels = legality_zh.BAN_LABELS if lang == "zh" else BAN_LABELS
        return Problem("restricted", bans_rule, _t("RESTRICTED", lang).format(
            name=name, count=total, limit=ban_limit, format=fmt_name,
            label=labels.get(ban_limit, labels[1])),
            _t("RESTRICTED_FIX", lang).format(extra=total - ban_limit, name=name), involved)
    if card_limit is not None and _below(card_limit, rarity_limit) and total > card_limit:
        return Problem("card_copy_limit", copies_rule, _t("CARD_COPY_LIMIT", lang).format(
            name=name, count=total, limit=card_limit, format=fmt_name),
            _t("CARD_COPY_LIMIT_FIX", lang).format(extra=total - card_limit, name=name),
            involved)
    if rarity_limit is not None and total > rarity_limit:
        if tier_limits and rarity_limit == min(tier_limits):        # the limit is a tier's
            rarest = max((cards[c].rarity for c in codes),
                         key=lambda r: _rarity_rank(r, fmt))
            return Problem("copy_limit", copies_rule, _t("COPY_LIMIT", lang).format(
                name=name, count=total, rarity=_rarity_word(rarest, fmt, lang),
                limit=rarity_limit),
                _t("COPY_LIMIT_FIX", lang).format(extra=total - rarity_limit, name=name),
                involved)
        return Problem("copy_limit", copies_rule, _t("CARD_COPY_LIMIT", lang).format(
            name=name, count=total, limit=rarity_limit, format=fmt_name),
            _t("COPY_LIMIT_FIX", lang).format(extra=total - rarity_limit, name=name),
            involved)
    if rarity_limit is None and not exempt and fmt.copy_limits and (
            card_limit is None and ban_limit is None):
        # Copies by tier and no default: a card without a tier would have no limit at all.
        separator = legality_zh.LIST_SEPARATOR if lang == "zh" else ", "
        tiers = separator.join(_rarity_word(r, fmt, lang) for r in fmt.copy_limits)
        return Problem("no_copy_tier", copies_rule, _t("NO_COPY_TIER", lang).format(
            name=name, format=fmt_name, tiers=tiers),
            _t("NO_COPY_TIER_FIX", lang).format(name=name), involved)
    return None


def _below(limit: int, other: int | None) -> bool:
    return other is None or limit < other


def _rarity_word(rarity: str, fmt: Format, lang: str) -> str:
    names = fmt.rarity_names.get(rarity)
    if not names:
        return rarity
    return (names[1] or names[0]) if lang == "zh" else names[0]


def _banned_heroes(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                   lang: str) -> list[Problem]:
    out = []
    for code in dict.fromkeys(deck.heroes):
        if fmt.card_limits.get(code) == 0 and code in cards:
            name = _name(cards[code], code, lang)
            out.append(Problem("banned", "R5.4", _t("BANNED", lang).format(
                name=name, format=fmt.name),
                _t("BANNED_FIX", lang).format(count=1, name=name), (code,)))
    return out


def _set_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                  set_of: Mapping[str, str] | None, lang: str,
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
            name = _name(cards[code], code, lang)
            out.append(Problem("set_not_legal", "R5", _t("SET_NOT_LEGAL", lang).format(
                name=name, set=card_set, format=fmt.name),
                _t("SET_NOT_LEGAL_FIX", lang).format(count=count, name=name), (code,)))
    return out


def _check_piles(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                 set_of: Mapping[str, str] | None, lang: str,
                 foreign: frozenset[str] = frozenset()) -> list[Problem]:
    """A format in piles: each pile's entries, size, per-kind counts and fixed composition,
    then copies, bans and sets over every pile together."""
    piles = deck.pile_counts(fmt)
    known = {p.code for p in fmt.piles}
    separator = legality_zh.LIST_SEPARATOR if lang == "zh" else ", "
    pile_names = separator.join(p.name(lang) for p in fmt.piles)
    fmt_name = fmt.display_name(lang)
    out: list[Problem] = []
    # Which piles a deck has is the format's whole layout; a file that names no rule for it
    # gets the main pile's (where a plain list's cards go).
    piles_rule = fmt.rule_refs.get("piles") or (fmt.main_pile.rule if fmt.main_pile else "")
    for code in sorted(set(piles) - known):
        out.append(Problem("pile_unknown", piles_rule, _t(
            "PILE_UNKNOWN", lang).format(format=fmt_name, pile=code, piles=pile_names),
            _t("PILE_UNKNOWN_FIX", lang).format(pile=code, piles=pile_names),
            tuple(sorted(piles[code]))))
    for pile in fmt.piles:
        out += _pile_problems(pile, piles.get(pile.code, {}), cards, fmt, lang, foreign)
    merged: dict[str, Any] = {}
    for code, counts in piles.items():
        if code not in known:
            continue
        for card_code, count in counts.items():
            if card_code in foreign:
                continue
            if isinstance(count, int) and not isinstance(count, bool) and count > 0:
                merged[card_code] = merged.get(card_code, 0) + count
    out += _copies(merged, cards, fmt, lang)
    if fmt.legal_sets is not None:
        sets_rule = fmt.rule_refs.get("sets", "")
        for code, count in sorted(merged.items()):
            card_set = (set_of or {}).get(code)
            if code in cards and card_set is not None and card_set not in fmt.legal_sets:
                name = _name(cards[code], code, lang)
                out.append(Problem("set_not_legal", sets_rule, _t("SET_NOT_LEGAL", lang).format(
                    name=name, set=card_set, format=fmt_name),
                    _t("SET_NOT_LEGAL_FIX", lang).format(count=count, name=name), (code,)))
    return out


def _range_words(low: int, high: int | None, lang: str) -> str:
    if lang == "zh":
        return legality_zh.range_want(low, high)
    if high is None:
        return f"at least {low}"
    if low == high:
        return f"exactly {low}"
    return f"at most {high}" if low == 0 else f"{low} to {high}"


def _kind_word(kind: str, fmt: Format, lang: str) -> str:
    names = fmt.kind_names.get(kind)
    if names:
        return (names[1] or names[0]) if lang == "zh" else names[0]
    return _kind_name(kind, lang)


def _admitted_words(pile: Pile, cards: Mapping[str, CardLike], fmt: Format, lang: str) -> str:
    separator = legality_zh.LIST_SEPARATOR if lang == "zh" else ", "
    words = [_kind_word(k, fmt, lang) for k in pile.kinds]
    words += [_name(cards.get(c), c, lang) for c in pile.cards]
    return separator.join(words) if words else (legality_zh.NO_CARDS if lang == "zh"
                                                else "no cards")


def _pile_problems(pile: Pile, counts: Mapping[str, Any], cards: Mapping[str, CardLike],
                   fmt: Format, lang: str, foreign: frozenset[str] = frozenset()
                   ) -> list[Problem]:
    out: list[Problem] = []
    pile_name = pile.name(lang)
    fmt_name = fmt.display_name(lang)
    size = 0
    by_kind: dict[str, int] = {}
    for code, count in sorted(counts.items()):
        card = cards.get(code)
        name = _name(card, code, lang)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            out.append(Problem("bad_count", pile.rule, _t("BAD_COUNT", lang).format(
                name=name, count=count), _t("BAD_COUNT_FIX", lang).format(name=name), (code,)))
            continue
        if code in foreign:
            out.append(_other_game(code, count, cards, fmt, pile.rule, lang))
            continue
        size += count
        if card is None:
            out.append(Problem("unknown_card", pile.rule, _t("UNKNOWN_CARD", lang).format(
                code=code), _t("UNKNOWN_CARD_FIX", lang).format(code=code), (code,)))
            continue
        by_kind[card.kind] = by_kind.get(card.kind, 0) + count
        if not pile.admits(card):
            target = next((p for p in fmt.piles if p.code != pile.code and p.admits(card)),
                          None)
            fix = (_t("NOT_IN_PILE_MOVE_FIX", lang).format(
                count=count, name=name, pile=pile_name, target=target.name(lang))
                if target else _t("NOT_IN_PILE_FIX", lang).format(
                    count=count, name=name, pile=pile_name))
            out.append(Problem("not_in_pile", pile.rule, _t("NOT_IN_PILE", lang).format(
                name=name, a_kind=_kind_word(card.kind, fmt, lang) if lang == "zh"
                else _a(_kind_word(card.kind, fmt, lang)), pile=pile_name,
                kinds=_admitted_words(pile, cards, fmt, lang)), fix, (code,)))
    want = _range_words(pile.min, pile.max, lang)
    if size < pile.min:
        missing = pile.min - size
        out.append(Problem("pile_too_small", pile.rule, _t("PILE_TOO_SMALL", lang).format(
            pile=pile_name, count=size, format=fmt_name, want=want),
            _t("PILE_TOO_SMALL_FIX", lang).format(missing=missing, s=_plural(missing, lang),
                                                  pile=pile_name)))
    elif pile.max is not None and size > pile.max:
        extra = size - pile.max
        out.append(Problem("pile_too_large", pile.rule, _t("PILE_TOO_LARGE", lang).format(
            pile=pile_name, count=size, format=fmt_name, want=want),
            _t("PILE_TOO_LARGE_FIX", lang).format(extra=extra, s=_plural(extra, lang),
                                                  pile=pile_name)))
    for rule in pile.kind_counts:
        have = by_kind.get(rule.kind, 0)
        kind = _kind_word(rule.kind, fmt, lang)
        want = _range_words(rule.min, rule.max, lang)
        if have < rule.min:
            out.append(Problem("kind_too_few", rule.rule or pile.rule, _t(
                "KIND_TOO_FEW", lang).format(pile=pile_name, count=have, kind=kind,
                                             format=fmt_name, want=want),
                _t("KIND_TOO_FEW_FIX", lang).format(missing=rule.min - have, kind=kind,
                                                    pile=pile_name)))
        elif rule.max is not None and have > rule.max:
            out.append(Problem("kind_too_many", rule.rule or pile.rule, _t(
                "KIND_TOO_MANY", lang).format(pile=pile_name, count=have, kind=kind,
                                              format=fmt_name, want=want),
                _t("KIND_TOO_MANY_FIX", lang).format(extra=have - rule.max, kind=kind,
                                                     pile=pile_name)))
    if pile.composition is not None:
        own = {c: n for c, n in counts.items() if c not in foreign}
        out += _composition_problems(pile, own, cards, lang)
    return out


def _composition_problems(pile: Pile, counts: Mapping[str, Any], cards: Mapping[str, CardLike],
                          lang: str) -> list[Problem]:
    out: list[Problem] = []
    wanted = pile.composition or {}
    rule = pile.composition_rule or pile.rule
    pile_name = pile.name(lang)
    for code in sorted(set(wanted) | set(counts)):
        have = counts.get(code, 0)
        if not isinstance(have, int) or isinstance(have, bool):
            continue
        want = wanted.get(code, 0)
        name = _name(cards.get(code), code, lang)
        if have < want:
            out.append(Problem("composition_missing", rule, _t(
                "COMPOSITION_MISSING", lang).format(pile=pile_name, want=want, name=name,
                                                    count=have),
                _t("COMPOSITION_MISSING_FIX", lang).format(missing=want - have, name=name,
                                                           pile=pile_name), (code,)))
        elif have > want:
            out.append(Problem("composition_extra", rule, _t(
                "COMPOSITION_EXTRA", lang).format(pile=pile_name, want=want, name=name,
                                                  count=have),
                _t("COMPOSITION_EXTRA_FIX", lang).format(extra=have - want, name=name,
                                                         pile=pile_name), (code,)))
    return out


def _rarity_rank(rarity: str, fmt: Format | None = None) -> int:
    order = tuple(fmt.rarity_names) if fmt is not None and fmt.rarity_names else RARITY_ORDER
    return order.index(rarity) if rarity in order else -1
