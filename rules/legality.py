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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rules import legality_zh

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

RARITY_ORDER = ("N", "R", "SR", "SSR", "UR")
BAN_LABELS = {0: "banned", 1: "limited", 2: "semi-limited"}


class CardLike(Protocol):
    """What legality reads of a card: an engine CardDef or a catalogue row both qualify."""

    code: str
    kind: str
    name_en: str
    name_zh: str
    rarity: str


@dataclass(frozen=True)
class Format:
    """The construction rules of a format, as data.

    ``card_limits`` is the ban/limited list: ``{card code: max copies}`` (0 banned, 1 limited,
    2 semi-limited); it applies to every printing with that card's name. ``legal_sets`` None
    means every set is legal; otherwise the caller passes ``set_of`` to ``check_deck``.
    """

    code: str = "standard"
    name: str = "Standard"
    hero_count: int = 1
    deck_min: int = 30
    deck_max: int = 30
    deck_kinds: tuple[str, ...] = ("minion", "item")
    copy_limits: Mapping[str, int] = field(
        default_factory=lambda: {"N": 3, "R": 3, "SR": 3, "SSR": 3, "UR": 1})
    default_copy_limit: int = 3
    card_limits: Mapping[str, int] = field(default_factory=dict)
    legal_sets: tuple[str, ...] | None = None

    def copy_limit(self, rarity: str) -> int:
        return self.copy_limits.get(rarity, self.default_copy_limit)


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

    @classmethod
    def of(cls, hero: str | None, counts: Mapping[str, int], name: str = "") -> Deck:
        return cls(heroes=(hero,) if hero else (), counts=dict(counts), name=name)

    @property
    def hero(self) -> str | None:
        return self.heroes[0] if self.heroes else None

    @property
    def size(self) -> int:
        return sum(n for n in self.counts.values() if isinstance(n, int) and n > 0)


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


def _a(word: str, lang: str = "en") -> str:
    if lang == "zh":
        return legality_zh.KIND_WORDS.get(word, word)
    return f"an {word}" if word and word[0] in "aeiou" else f"a {word}"


def _plural(n: int, lang: str = "en") -> str:
    return "" if n == 1 or lang == "zh" else "s"


def _kinds_words(kinds: Iterable[str], lang: str = "en") -> str:
    if lang == "zh":
        words = [legality_zh.KIND_WORDS.get(k, k) for k in kinds]
        separator, conjunction, nothing = (legality_zh.LIST_SEPARATOR, legality_zh.AND,
                                           legality_zh.NO_CARDS)
    else:
        words = [f"{k}s" for k in kinds]
        separator, conjunction, nothing = ", ", " and ", "no cards"
    if not words:
        return nothing
    return words[0] if len(words) == 1 else separator.join(words[:-1]) + conjunction + words[-1]


def check_deck(deck: Deck, cards: Mapping[str, CardLike], fmt: Format = STANDARD, *,
               set_of: Mapping[str, str] | None = None, lang: str = "en") -> list[Problem]:
    """Every problem with ``deck`` under ``fmt`` (empty: legal). See the module docstring.

    ``lang`` is ``"en"`` or ``"zh"``: the language of the messages, fixes and card names."""
    problems: list[Problem] = []
    problems += _hero_problems(deck, cards, fmt, lang)
    problems += _entry_problems(deck, cards, fmt, lang)
    problems += _size_problems(deck, fmt, lang)
    problems += _copy_problems(deck, cards, fmt, lang)
    problems += _set_problems(deck, cards, fmt, set_of, lang)
    return problems


def is_legal(deck: Deck, cards: Mapping[str, CardLike], fmt: Format = STANDARD, *,
             set_of: Mapping[str, str] | None = None) -> bool:
    return not check_deck(deck, cards, fmt, set_of=set_of)


def _hero_want(count: int, lang: str) -> str:
    if lang == "zh":
        return legality_zh.hero_want(count)
    return f"{count} hero{'es' if count != 1 else ''}"


def _hero_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                   lang: str) -> list[Problem]:
    out: list[Problem] = []
    if not deck.heroes and fmt.hero_count > 0:
        out.append(Problem("hero_missing", "R5.1", _t("HERO_MISSING", lang).format(
            format=fmt.name, want=_hero_want(fmt.hero_count, lang)),
            _t("HERO_MISSING_FIX", lang)))
    elif len(deck.heroes) > fmt.hero_count:
        extra = deck.heroes[fmt.hero_count:]
        separator = legality_zh.LIST_SEPARATOR if lang == "zh" else ", "
        names = separator.join(_name(cards.get(c), c, lang) for c in extra)
        out.append(Problem("hero_count", "R5.1", _t("HERO_COUNT", lang).format(
            count=len(deck.heroes), format=fmt.name, want=fmt.hero_count),
            _t("HERO_COUNT_FIX", lang).format(names=names), tuple(deck.heroes)))
    for code in dict.fromkeys(deck.heroes):
        card = cards.get(code)
        if card is None:
            out.append(Problem("unknown_card", "R5.1", _t("UNKNOWN_CARD", lang).format(code=code),
                               _t("UNKNOWN_CARD_FIX", lang).format(code=code), (code,)))
        elif card.kind != "hero":
            name = _name(card, code, lang)
            out.append(Problem("hero_not_hero", "R5.1", _t("HERO_NOT_HERO", lang).format(
                name=name, a_kind=_a(card.kind, lang)),
                _t("HERO_NOT_HERO_FIX", lang).format(name=name), (code,)))
    return out


def _entry_problems(deck: Deck, cards: Mapping[str, CardLike], fmt: Format,
                    lang: str) -> list[Problem]:
    out: list[Problem] = []
    kinds = _kinds_words(fmt.deck_kinds, lang)
    for code, count in sorted(deck.counts.items()):
        card = cards.get(code)
        name = _name(card, code, lang)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            out.append(Problem("bad_count", "R5.2", _t("BAD_COUNT", lang).format(
                name=name, count=count), _t("BAD_COUNT_FIX", lang).format(name=name), (code,)))
        elif card is None:
            out.append(Problem("unknown_card", "R5.2", _t("UNKNOWN_CARD", lang).format(code=code),
                               _t("UNKNOWN_CARD_FIX", lang).format(code=code), (code,)))
        elif card.kind not in fmt.deck_kinds:
            fix = "KIND_NOT_ALLOWED_HERO_FIX" if card.kind == "hero" else "KIND_NOT_ALLOWED_FIX"
            out.append(Problem("kind_not_allowed", "R5.2", _t("KIND_NOT_ALLOWED", lang).format(
                name=name, a_kind=_a(card.kind, lang), format=fmt.name, kinds=kinds),
                _t(fix, lang).format(count=count, name=name), (code,)))
    return out


def _size_problems(deck: Deck, fmt: Format, lang: str = "en") -> list[Problem]:
    size = deck.size
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
                   lang: str) -> list[Problem]:
    """R5.3 and R5.4: copies per card name against the rarity limit and the ban list."""
    groups: dict[str, list[str]] = {}
    for code, count in deck.counts.items():
        card = cards.get(code)
        if card is not None and isinstance(count, int) and count > 0 and card.kind != "hero":
            groups.setdefault(card.name_en.casefold(), []).append(code)
    labels = legality_zh.BAN_LABELS if lang == "zh" else BAN_LABELS
    out: list[Problem] = []
    for codes in sorted(groups.values()):
        total = sum(deck.counts[c] for c in codes)
        rarest = max((cards[c].rarity for c in codes), key=_rarity_rank)
        rarity_limit = min(fmt.copy_limit(cards[c].rarity) for c in codes)
        bans = [fmt.card_limits[c] for c in codes if c in fmt.card_limits]
        ban_limit = min(bans) if bans else None
        name = _name(cards[codes[0]], codes[0], lang)
        involved = tuple(codes)
        if ban_limit == 0:
            out.append(Problem("banned", "R5.4", _t("BANNED", lang).format(
                name=name, format=fmt.name),
                _t("BANNED_FIX", lang).format(count=total, name=name), involved))
        elif ban_limit is not None and ban_limit < rarity_limit and total > ban_limit:
            out.append(Problem("restricted", "R5.4", _t("RESTRICTED", lang).format(
                name=name, count=total, limit=ban_limit, format=fmt.name,
                label=labels.get(ban_limit, labels[1])),
                _t("RESTRICTED_FIX", lang).format(extra=total - ban_limit, name=name),
                involved))
        elif total > rarity_limit:
            out.append(Problem("copy_limit", "R5.3", _t("COPY_LIMIT", lang).format(
                name=name, count=total, rarity=rarest, limit=rarity_limit),
                _t("COPY_LIMIT_FIX", lang).format(extra=total - rarity_limit, name=name),
                involved))
    out += _banned_heroes(deck, cards, fmt, lang)
    return out


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
                  set_of: Mapping[str, str] | None, lang: str) -> list[Problem]:
    if fmt.legal_sets is None:
        return []
    set_of = set_of or {}
    out = []
    entries = [(h, 1) for h in dict.fromkeys(deck.heroes)] + sorted(deck.counts.items())
    for code, count in entries:
        card_set = set_of.get(code)
        if code in cards and card_set is not None and card_set not in fmt.legal_sets:
            name = _name(cards[code], code, lang)
            out.append(Problem("set_not_legal", "R5", _t("SET_NOT_LEGAL", lang).format(
                name=name, set=card_set, format=fmt.name),
                _t("SET_NOT_LEGAL_FIX", lang).format(count=count, name=name), (code,)))
    return out


def _rarity_rank(rarity: str) -> int:
    return RARITY_ORDER.index(rarity) if rarity in RARITY_ORDER else -1
