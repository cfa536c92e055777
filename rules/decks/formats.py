"""Formats and games as data: the schema of ``docs/formats.md``, read into ``rules.decks.legality``.

A *rule book file* (YAML, loaded by ``python manage.py load_formats FILE``) holds

- ``game``: a game's code, names in both languages, whether this project's engine plays it
  (``engine``), its card kinds and rarity tiers (code, English and Chinese names, in order);
- ``card_sets``: card sets of that game (a sample set made for tests says ``sample: true``);
- ``formats``: each a code, names, ``rules`` (piles, copy limits, rule references — the part a
  designer edits as JSON in the admin), ``bans`` (``{card code: 0|1|2}``) and ``legal_sets``;
- ``decks``: sample decks, each with the problem codes its format must find (none: legal).

Invariants:
- Pure (no Django, no I/O): functions take parsed data and return values or raise
  ``FormatDataError`` listing **every** problem, each with its path (``formats[1].rules.piles[0]
  .min``), so a file or an admin form is refused whole with all its mistakes at once.
- A problem says *what* is wrong, never in words: a ``FormatProblem`` is a path, a stable code
  and plain parameters; the site says it in the reader's language
  (``decks.formats.problem_text``).
- ``format_from_data`` is the only way data becomes a ``legality.Format``; the site builds its
  formats through it too (``decks.adapters.format_to_rules``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from rules.decks.legality import Format, KindCount, Pile

CODE_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
CARD_CODE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")

RULES_KEYS = {"piles", "copies", "rule_refs"}
PILE_KEYS = {"code", "name_en", "name_zh", "min", "max", "kinds", "cards", "kind_counts",
             "composition", "composition_rule", "hero", "rule"}
COPIES_KEYS = {"rarity", "default", "cards", "exempt_kinds", "exempt_cards", "rule"}
KIND_COUNT_KEYS = {"min", "max", "rule"}
RULE_REF_KEYS = {"bans", "sets", "piles"}
FORMAT_KEYS = {"code", "name_en", "name_zh", "description_en", "description_zh", "game",
               "rules", "bans", "legal_sets", "active"}
GAME_KEYS = {"code", "name_en", "name_zh", "engine", "kinds", "rarities", "description_en",
             "description_zh", "source"}
NAMED_KEYS = {"code", "name_en", "name_zh"}
CARD_SET_KEYS = {"code", "name_en", "name_zh", "sample", "cards"}
CARD_KEYS = {"code", "name_en", "name_zh", "kind", "rarity"}
DECK_KEYS = {"name", "format", "piles", "expect", "note"}
FILE_KEYS = {"game", "card_sets", "formats", "decks"}

# The schema's problem codes (``FormatProblem.code``), with the parameters each carries.
MAPPING = "mapping"                       # must be a mapping
UNKNOWN_KEY = "unknown_key"               # known: the keys allowed there, sorted
LIST = "list"                             # must be a list
REQUIRED = "required"
TEXT = "text"                             # must be text
EMPTY = "empty"                           # text that must not be blank
CODE = "code"                             # pattern, value
NUMBER = "number"                         # low, value: a whole number from low to 9999
FLAG = "flag"                             # must be true or false
TWICE = "twice"                           # code: listed twice
NO_KINDS = "no_kinds"                     # a game declares no card kind
NOT_KNOWN_KIND = "not_known_kind"         # value, known: the game's kinds, sorted
NOT_KNOWN_RARITY = "not_known_rarity"     # value, known: the game's rarity tiers, sorted
NO_PILES = "no_piles"
TWO_HERO_PILES = "two_hero_piles"
ONLY_HERO_PILE = "only_hero_pile"
MAX_BELOW_MIN = "max_below_min"           # high, low
COMPOSITION_SIZE = "composition_size"     # total, low, high (None: no upper bound)
BAN_VALUE = "ban_value"                   # a ban-list entry is not 0, 1 or 2
OTHER_GAME = "other_game"                 # game: the file's game
NO_FORMAT = "no_format"                   # format: the code a sample deck names
CODES = (MAPPING, UNKNOWN_KEY, LIST, REQUIRED, TEXT, EMPTY, CODE, NUMBER, FLAG, TWICE,
         NO_KINDS, NOT_KNOWN_KIND, NOT_KNOWN_RARITY, NO_PILES, TWO_HERO_PILES, ONLY_HERO_PILE,
         MAX_BELOW_MIN, COMPOSITION_SIZE, BAN_VALUE, OTHER_GAME, NO_FORMAT)


@dataclass(frozen=True)
class FormatProblem:
    """One mistake in format data: where (``rules.piles[1].max``; "" for the whole file), a
    stable ``code`` (above) and its ``params`` (plain data: numbers, codes, the value found)."""

    path: str
    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        """The path and code, for a log; the site says it in words."""
        return f"{self.path}: {self.code}" if self.path else self.code


class FormatDataError(ValueError):
    """Data that is not a valid format or rule book file; ``problems`` lists every mistake."""

    def __init__(self, problems: list[FormatProblem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass(frozen=True)
class Named:
    """A card kind or a rarity tier of a game: a code and its names in both languages."""

    code: str
    name_en: str
    name_zh: str = ""


@dataclass(frozen=True)
class Game:
    code: str
    name_en: str
    name_zh: str = ""
    engine: bool = False
    kinds: tuple[Named, ...] = ()
    rarities: tuple[Named, ...] = ()
    description_en: str = ""
    description_zh: str = ""

    def kind_names(self) -> dict[str, tuple[str, str]]:
        return {k.code: (k.name_en, k.name_zh) for k in self.kinds}

    def rarity_names(self) -> dict[str, tuple[str, str]]:
        return {r.code: (r.name_en, r.name_zh) for r in self.rarities}


@dataclass(frozen=True)
class SampleCard:
    """A card of a sample set: what legality reads (``CardLike``)."""

    code: str
    kind: str
    name_en: str
    name_zh: str = ""
    rarity: str = ""


@dataclass(frozen=True)
class CardSetData:
    code: str
    name_en: str
    name_zh: str = ""
    sample: bool = False
    cards: tuple[SampleCard, ...] = ()


@dataclass(frozen=True)
class FormatData:
    """One format of a file: its metadata, its ``rules`` JSON, ban list and legal sets."""

    code: str
    name_en: str
    name_zh: str = ""
    description_en: str = ""
    description_zh: str = ""
    game: str = ""
    rules: Mapping[str, Any] = field(default_factory=dict)
    bans: Mapping[str, int] = field(default_factory=dict)
    legal_sets: tuple[str, ...] | None = None
    active: bool = True


@dataclass(frozen=True)
class SampleDeck:
    name: str
    format: str
    piles: Mapping[str, Mapping[str, int]]
    expect: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class RuleBook:
    """A parsed rule book file."""

    game: Game | None
    card_sets: tuple[CardSetData, ...] = ()
    formats: tuple[FormatData, ...] = ()
    decks: tuple[SampleDeck, ...] = ()

    def cards(self) -> dict[str, SampleCard]:
        return {c.code: c for s in self.card_sets for c in s.cards}

    def set_of(self) -> dict[str, str]:
        return {c.code: s.code for s in self.card_sets for c in s.cards}

    def game_of(self) -> dict[str, str]:
        """``{card code: game code}``: every card of the file is its game's."""
        game = self.game.code if self.game else ""
        return {c.code: game for s in self.card_sets for c in s.cards}

    def format(self, code: str) -> Format:
        data = next(f for f in self.formats if f.code == code)
        return format_from_data(data, self.game)


# --- small readers that collect problems instead of raising ---------------------------------


class _Reader:
    def __init__(self) -> None:
        self.problems: list[FormatProblem] = []

    def fail(self, path: str, code: str, /, **params: Any) -> None:
        """Record the problem ``code`` (a constant above) at ``path``; positional, as a
        problem's parameters may hold a ``code`` of their own (``TWICE``)."""
        self.problems.append(FormatProblem(path, code, params))

    def mapping(self, value: Any, path: str,
                keys: set[str] | None = None) -> dict[Any, Any]:
        if not isinstance(value, dict):
            self.fail(path, MAPPING)
            return {}
        if keys is not None:
            for key in value:
                if key not in keys:
                    self.fail(f"{path}.{key}" if path else str(key),
                              UNKNOWN_KEY, known=sorted(keys))
        return value

    def seq(self, value: Any, path: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(path, LIST)
            return []
        return value

    def text(self, value: Any, path: str, required: bool = False) -> str:
        if value is None:
            if required:
                self.fail(path, REQUIRED)
            return ""
        if not isinstance(value, str) or "\x00" in value:
            self.fail(path, TEXT)
            return ""
        if required and not value.strip():
            self.fail(path, EMPTY)
        return value

    def code(self, value: Any, path: str, pattern: re.Pattern[str] = CODE_RE) -> str:
        if not isinstance(value, str) or not pattern.match(value):
            self.fail(path, CODE, pattern=pattern.pattern, value=value)
            return ""
        return value

    def count(self, value: Any, path: str, *, optional: bool = False,
              low: int = 0) -> int | None:
        if value is None and optional:
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= 9999:
            self.fail(path, NUMBER, low=low, value=value)
            return None
        return value

    def flag(self, value: Any, path: str, default: bool = False) -> bool:
        if value is None:
            return default
        if not isinstance(value, bool):
            self.fail(path, FLAG)
            return default
        return value


# --- games --------------------------------------------------------------------------------


def _named_list(reader: _Reader, value: Any, path: str) -> tuple[Named, ...]:
    out: list[Named] = []
    seen: set[str] = set()
    for i, item in enumerate(reader.seq(value, path)):
        where = f"{path}[{i}]"
        item = reader.mapping(item, where, NAMED_KEYS)
        code = reader.code(item.get("code"), f"{where}.code")
        if code in seen:
            reader.fail(f"{where}.code", TWICE, code=code)
        seen.add(code)
        out.append(Named(code, reader.text(item.get("name_en"), f"{where}.name_en", True),
                         reader.text(item.get("name_zh"), f"{where}.name_zh", True)))
    return tuple(out)


def _game(reader: _Reader, data: Any, path: str) -> Game:
    data = reader.mapping(data, path, GAME_KEYS)
    kinds = _named_list(reader, data.get("kinds"), f"{path}.kinds")
    if not kinds:
        reader.fail(f"{path}.kinds", NO_KINDS)
    return Game(
        code=reader.code(data.get("code"), f"{path}.code"),
        name_en=reader.text(data.get("name_en"), f"{path}.name_en", True),
        name_zh=reader.text(data.get("name_zh"), f"{path}.name_zh", True),
        engine=reader.flag(data.get("engine"), f"{path}.engine"),
        kinds=kinds,
        rarities=_named_list(reader, data.get("rarities"), f"{path}.rarities"),
        description_en=reader.text(data.get("description_en"), f"{path}.description_en"),
        description_zh=reader.text(data.get("description_zh"), f"{path}.description_zh"),
    )


# --- format rules -------------------------------------------------------------------------


def rules_problems(rules: Any, kinds: set[str] | None = None,
                   rarities: set[str] | None = None, path: str = "rules"
                   ) -> list[FormatProblem]:
    """Every mistake in a format's ``rules`` data (empty: valid). ``kinds`` and ``rarities``
    are the game's codes (None: not checked)."""
    reader = _Reader()
    _rules(reader, rules, path, kinds, rarities)
    return reader.problems


def _known(reader: _Reader, value: str, known: set[str] | None, path: str, what: str) -> None:
    if known is not None and value and value not in known:
        reader.fail(path, NOT_KNOWN_KIND if what == "card kind" else NOT_KNOWN_RARITY,
                    value=value, known=sorted(known))


class _CopyRules(TypedDict):
    """The ``Format`` fields a ruleset's ``copies`` and ``rule_refs`` sections set."""

    copy_limits: dict[str, int]
    default_copy_limit: int | None
    card_copy_limits: dict[str, int]
    copy_exempt_kinds: tuple[str, ...]
    copy_exempt_cards: tuple[str, ...]
    rule_refs: dict[str, str]


def _rules(reader: _Reader, data: Any, path: str, kinds: set[str] | None,
           rarities: set[str] | None) -> tuple[tuple[Pile, ...], _CopyRules]:
    data = reader.mapping(data, path, RULES_KEYS)
    piles: list[Pile] = []
    seen: set[str] = set()
    raw_piles = reader.seq(data.get("piles"), f"{path}.piles")
    if not raw_piles and not reader.problems:
        reader.fail(f"{path}.piles", NO_PILES)
    for i, raw in enumerate(raw_piles):
        pile = _pile(reader, raw, f"{path}.piles[{i}]", kinds)
        if pile.code in seen:
            reader.fail(f"{path}.piles[{i}].code", TWICE, code=pile.code)
        seen.add(pile.code)
        piles.append(pile)
    if sum(p.hero for p in piles) > 1:
        reader.fail(f"{path}.piles", TWO_HERO_PILES)
    if piles and all(p.hero for p in piles):
        reader.fail(f"{path}.piles", ONLY_HERO_PILE)
    copies = reader.mapping(data.get("copies", {}), f"{path}.copies", COPIES_KEYS)
    tiers: dict[str, int] = {}
    for rarity, limit in reader.mapping(copies.get("rarity", {}),
                                        f"{path}.copies.rarity").items():
        _known(reader, str(rarity), rarities, f"{path}.copies.rarity.{rarity}", "rarity tier")
        value = reader.count(limit, f"{path}.copies.rarity.{rarity}")
        if value is not None:
            tiers[str(rarity)] = value
    default_limit = reader.count(copies.get("default"), f"{path}.copies.default", optional=True)
    card_limits: dict[str, int] = {}
    for code, limit in reader.mapping(copies.get("cards", {}), f"{path}.copies.cards").items():
        reader.code(code, f"{path}.copies.cards.{code}", CARD_CODE_RE)
        value = reader.count(limit, f"{path}.copies.cards.{code}")
        if value is not None:
            card_limits[str(code)] = value
    exempt_kinds = []
    for i, kind in enumerate(reader.seq(copies.get("exempt_kinds"),
                                        f"{path}.copies.exempt_kinds")):
        kind = reader.code(kind, f"{path}.copies.exempt_kinds[{i}]")
        _known(reader, kind, kinds, f"{path}.copies.exempt_kinds[{i}]", "card kind")
        exempt_kinds.append(kind)
    exempt_cards = tuple(
        reader.code(c, f"{path}.copies.exempt_cards[{i}]", CARD_CODE_RE)
        for i, c in enumerate(reader.seq(copies.get("exempt_cards"),
                                         f"{path}.copies.exempt_cards")))
    refs = {key: reader.text(value, f"{path}.rule_refs.{key}") for key, value in
            reader.mapping(data.get("rule_refs", {}), f"{path}.rule_refs",
                           RULE_REF_KEYS).items()}
    refs["copies"] = reader.text(copies.get("rule"), f"{path}.copies.rule")
    return tuple(piles), _CopyRules(
        copy_limits=tiers, default_copy_limit=default_limit, card_copy_limits=card_limits,
        copy_exempt_kinds=tuple(exempt_kinds), copy_exempt_cards=exempt_cards,
        rule_refs={k: v for k, v in refs.items() if v})


def _pile(reader: _Reader, data: Any, path: str, kinds: set[str] | None) -> Pile:
    data = reader.mapping(data, path, PILE_KEYS)
    low = reader.count(data.get("min", 0), f"{path}.min") or 0
    high = reader.count(data.get("max"), f"{path}.max", optional=True)
    if high is not None and high < low:
        reader.fail(f"{path}.max", MAX_BELOW_MIN, high=high, low=low)
    pile_kinds = []
    for i, kind in enumerate(reader.seq(data.get("kinds"), f"{path}.kinds")):
        kind = reader.code(kind, f"{path}.kinds[{i}]")
        _known(reader, kind, kinds, f"{path}.kinds[{i}]", "card kind")
        pile_kinds.append(kind)
    cards = tuple(reader.code(c, f"{path}.cards[{i}]", CARD_CODE_RE)
                  for i, c in enumerate(reader.seq(data.get("cards"), f"{path}.cards")))
    counts = []
    for kind, spec in reader.mapping(data.get("kind_counts", {}),
                                     f"{path}.kind_counts").items():
        where = f"{path}.kind_counts.{kind}"
        _known(reader, str(kind), kinds, where, "card kind")
        spec = reader.mapping(spec, where, KIND_COUNT_KEYS)
        k_low = reader.count(spec.get("min", 0), f"{where}.min") or 0
        k_high = reader.count(spec.get("max"), f"{where}.max", optional=True)
        if k_high is not None and k_high < k_low:
            reader.fail(f"{where}.max", MAX_BELOW_MIN, high=k_high, low=k_low)
        counts.append(KindCount(str(kind), k_low, k_high,
                                reader.text(spec.get("rule"), f"{where}.rule")))
    composition = None
    if data.get("composition") is not None:
        composition = {}
        for code, count in reader.mapping(data["composition"], f"{path}.composition").items():
            reader.code(code, f"{path}.composition.{code}", CARD_CODE_RE)
            value = reader.count(count, f"{path}.composition.{code}", low=1)
            if value is not None:
                composition[str(code)] = value
        total = sum(composition.values())
        if total < low or (high is not None and total > high):
            reader.fail(f"{path}.composition", COMPOSITION_SIZE, total=total, low=low,
                        high=high)
    return Pile(
        code=reader.code(data.get("code"), f"{path}.code"),
        name_en=reader.text(data.get("name_en"), f"{path}.name_en", True),
        name_zh=reader.text(data.get("name_zh"), f"{path}.name_zh", True),
        min=low, max=high, kinds=tuple(pile_kinds), cards=cards, kind_counts=tuple(counts),
        composition=composition, hero=reader.flag(data.get("hero"), f"{path}.hero"),
        rule=reader.text(data.get("rule"), f"{path}.rule"),
        composition_rule=reader.text(data.get("composition_rule"),
                                     f"{path}.composition_rule"),
    )


def format_from_rules(rules: Any, *, code: str, name: str, name_zh: str = "",
                      game: Game | None = None, bans: Mapping[str, int] | None = None,
                      legal_sets: tuple[str, ...] | None = None) -> Format:
    """The ``legality.Format`` of a format's ``rules`` data (raises ``FormatDataError``)."""
    reader = _Reader()
    kinds = {k.code for k in game.kinds} if game else None
    rarities = {r.code for r in game.rarities} if game else None
    piles, extra = _rules(reader, rules, "rules", kinds, rarities)
    if reader.problems:
        raise FormatDataError(reader.problems)
    return Format(code=code, name=name, name_zh=name_zh, piles=piles,
                  card_limits=dict(bans or {}), legal_sets=legal_sets,
                  kind_names=game.kind_names() if game else {},
                  rarity_names=game.rarity_names() if game else {},
                  game=game.code if game else "",
                  game_name=(game.name_en, game.name_zh) if game else ("", ""), **extra)


def format_from_data(data: FormatData, game: Game | None = None) -> Format:
    return format_from_rules(data.rules, code=data.code, name=data.name_en,
                             name_zh=data.name_zh, game=game, bans=data.bans,
                             legal_sets=data.legal_sets)


# --- whole files --------------------------------------------------------------------------


def rule_book_from_data(data: Any) -> RuleBook:
    """A parsed rule book file (see the module docstring); every problem raised at once."""
    reader = _Reader()
    data = reader.mapping(data, "", FILE_KEYS)
    game = _game(reader, data["game"], "game") if "game" in data else None
    kinds = {k.code for k in game.kinds} if game else None
    rarities = {r.code for r in game.rarities} if game else None
    card_sets = []
    for i, raw in enumerate(reader.seq(data.get("card_sets"), "card_sets")):
        where = f"card_sets[{i}]"
        raw = reader.mapping(raw, where, CARD_SET_KEYS)
        cards = []
        for j, card in enumerate(reader.seq(raw.get("cards"), f"{where}.cards")):
            at = f"{where}.cards[{j}]"
            card = reader.mapping(card, at, CARD_KEYS)
            kind = reader.code(card.get("kind"), f"{at}.kind")
            _known(reader, kind, kinds, f"{at}.kind", "card kind")
            rarity = reader.text(card.get("rarity"), f"{at}.rarity")
            _known(reader, rarity, rarities, f"{at}.rarity", "rarity tier")
            cards.append(SampleCard(
                code=reader.code(card.get("code"), f"{at}.code", CARD_CODE_RE), kind=kind,
                name_en=reader.text(card.get("name_en"), f"{at}.name_en", True),
                name_zh=reader.text(card.get("name_zh"), f"{at}.name_zh", True),
                rarity=rarity))
        card_sets.append(CardSetData(
            code=reader.code(raw.get("code"), f"{where}.code"),
            name_en=reader.text(raw.get("name_en"), f"{where}.name_en", True),
            name_zh=reader.text(raw.get("name_zh"), f"{where}.name_zh", True),
            sample=reader.flag(raw.get("sample"), f"{where}.sample"), cards=tuple(cards)))
    formats = []
    for i, raw in enumerate(reader.seq(data.get("formats"), "formats")):
        where = f"formats[{i}]"
        raw = reader.mapping(raw, where, FORMAT_KEYS)
        _rules(reader, raw.get("rules"), f"{where}.rules", kinds, rarities)
        bans: dict[str, int] = {}
        for code, limit in reader.mapping(raw.get("bans", {}), f"{where}.bans").items():
            reader.code(code, f"{where}.bans.{code}", CARD_CODE_RE)
            value = reader.count(limit, f"{where}.bans.{code}")
            if value is not None and value > 2:
                reader.fail(f"{where}.bans.{code}", BAN_VALUE)
            elif value is not None:
                bans[str(code)] = value
        legal = raw.get("legal_sets")
        legal_sets = None if legal is None else tuple(
            reader.code(c, f"{where}.legal_sets[{j}]")
            for j, c in enumerate(reader.seq(legal, f"{where}.legal_sets")))
        game_code = reader.text(raw.get("game"), f"{where}.game") or (game.code if game else "")
        if game and game_code != game.code:
            reader.fail(f"{where}.game", OTHER_GAME, game=game.code)
        formats.append(FormatData(
            code=reader.code(raw.get("code"), f"{where}.code"),
            name_en=reader.text(raw.get("name_en"), f"{where}.name_en", True),
            name_zh=reader.text(raw.get("name_zh"), f"{where}.name_zh", True),
            description_en=reader.text(raw.get("description_en"), f"{where}.description_en"),
            description_zh=reader.text(raw.get("description_zh"), f"{where}.description_zh"),
            game=game_code, rules=raw.get("rules") or {}, bans=bans, legal_sets=legal_sets,
            active=reader.flag(raw.get("active"), f"{where}.active", True)))
    format_codes = {f.code for f in formats}
    decks = []
    for i, raw in enumerate(reader.seq(data.get("decks"), "decks")):
        where = f"decks[{i}]"
        raw = reader.mapping(raw, where, DECK_KEYS)
        fmt = reader.text(raw.get("format"), f"{where}.format", True)
        if fmt and fmt not in format_codes:
            reader.fail(f"{where}.format", NO_FORMAT, format=fmt)
        piles = {str(p): {str(c): n for c, n in reader.mapping(
            counts, f"{where}.piles.{p}").items()}
            for p, counts in reader.mapping(raw.get("piles", {}), f"{where}.piles").items()}
        decks.append(SampleDeck(
            name=reader.text(raw.get("name"), f"{where}.name", True), format=fmt, piles=piles,
            expect=tuple(str(e) for e in reader.seq(raw.get("expect"), f"{where}.expect")),
            note=reader.text(raw.get("note"), f"{where}.note")))
    if reader.problems:
        raise FormatDataError(reader.problems)
    return RuleBook(game=game, card_sets=tuple(card_sets), formats=tuple(formats),
                    decks=tuple(decks))
