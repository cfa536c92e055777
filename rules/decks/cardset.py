"""Card sets as human-editable YAML files: cards, factions, races and starter decks.

File shape::

    set: {code: CORE, name_en: Core Set, name_zh: 核心系列}
    factions: [{code: dawn, name_en: Dawn Order, name_zh: 晨曦教团}]
    races: [{code: dragon, name_en: Dragon, name_zh: 龙}]
    cards:
      - {code: C001, kind: minion, name_en: Ember Pup, name_zh: 余烬幼犬, rarity: N,
         cost: 1, attack: 2, attribute: fire, faction: dawn, race: beast,
         keywords: [react], abilities: [...]}
    decks:
      - {name: Ember Rush, hero: C200, cards: {C001: 3, C002: 2}}

Invariant: ``load_card_set`` either returns a fully valid set or raises ``CardSetError`` listing
every problem in the file (bad YAML, invalid cards, duplicate codes, undeclared factions or
races, decks naming unknown cards) — never a partial set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rules.engine.basics import CardDataError
from rules.engine.cards import CardDef, DeckList
from rules.localized import Sentence, gettext_noop

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
CORE_SET = DATA_DIR / "core.yaml"
TEST_SET = DATA_DIR / "test_set.yaml"


# What is wrong with a card set file, as sentences the site translates (``Sentence``).
NOT_YAML = gettext_noop("not valid YAML: {error}")
NOT_MAPPING = gettext_noop("the file must be a mapping with 'set', 'cards' and 'decks'")
NEEDS_CODE = gettext_noop("needs a code")
DUPLICATE_CODE = gettext_noop("duplicate code {code!r}")
CARD_UNREADABLE = gettext_noop("cannot be read as a card: {error}")
NOT_DECLARED = {
    "faction": gettext_noop("{value!r} is not declared under factions"),
    "race": gettext_noop("{value!r} is not declared under races"),
}
DECK_SHAPE = gettext_noop("needs a name, a hero and cards {{code: count}}")
DECK_UNKNOWN_CARD = gettext_noop("{deck}: unknown card {code!r}")


class CardSetError(ValueError):
    """A card set file the library refuses, with every problem (``Sentence``: its path, the
    English template and its parameters) listed."""

    def __init__(self, problems: list[Sentence]):
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s): "
                         + "; ".join(str(p) for p in problems[:20]))


@dataclass
class CardSet:
    code: str
    name_en: str
    name_zh: str
    cards: dict[str, CardDef]
    decks: dict[str, DeckList]
    factions: dict[str, dict[str, Any]] = field(default_factory=dict)
    races: dict[str, dict[str, Any]] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    def deck(self, name: str) -> DeckList:
        """A starter deck by name (case-insensitive); KeyError lists the known names."""
        for deck_name, deck in self.decks.items():
            if deck_name.lower() == name.lower():
                return deck
        raise KeyError(f"unknown deck {name!r} (known: {', '.join(self.decks)})")


def load_card_set(source: str | Path | Mapping[str, Any]) -> CardSet:
    """Load and validate a set from a path, YAML text, or already-parsed data."""
    if isinstance(source, Mapping):
        data = source
    else:
        text = Path(source).read_text(encoding="utf-8") if _is_path(source) else str(source)
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise CardSetError([Sentence(NOT_YAML, {"error": str(exc)})]) from None
    if not isinstance(data, Mapping):
        raise CardSetError([Sentence(NOT_MAPPING)])
    return _build(data)


def _is_path(source: str | Path) -> bool:
    return isinstance(source, Path) or ("\n" not in source and source.endswith((".yaml",
                                                                                ".yml")))


def _declared(data: Mapping[str, Any], key: str,
              problems: list[Sentence]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for i, item in enumerate(data.get(key) or []):
        if not isinstance(item, Mapping) or not item.get("code"):
            problems.append(Sentence(NEEDS_CODE, path=f"{key}[{i}]"))
        elif item["code"] in out:
            problems.append(Sentence(DUPLICATE_CODE, {"code": item["code"]}, f"{key}[{i}]"))
        else:
            out[item["code"]] = dict(item)
    return out


def _build(data: Mapping[str, Any]) -> CardSet:
    problems: list[Sentence] = []
    meta = data.get("set") or {}
    factions = _declared(data, "factions", problems)
    races = _declared(data, "races", problems)
    cards: dict[str, CardDef] = {}
    for i, raw in enumerate(data.get("cards") or []):
        try:
            card = CardDef.from_dict(raw)
        except CardDataError as exc:
            problems.extend(exc.problems)
            continue
        except (TypeError, AttributeError, ValueError) as exc:
            problems.append(Sentence(CARD_UNREADABLE, {"error": str(exc)}, f"cards[{i}]"))
            continue
        code = card.code
        if code in cards:
            problems.append(Sentence(DUPLICATE_CODE, {"code": code}, f"card {code}"))
        for tag, declared in (("faction", factions), ("race", races)):
            value = getattr(card, tag)
            if value is not None and value not in declared:
                problems.append(Sentence(NOT_DECLARED[tag], {"value": value},
                                         f"card {code}.{tag}"))
        cards[code] = card
    decks: dict[str, DeckList] = {}
    for i, raw in enumerate(data.get("decks") or []):
        where = f"decks[{i}]"
        try:
            deck = DeckList.from_dict(raw)
        except (KeyError, TypeError, AttributeError, ValueError):
            problems.append(Sentence(DECK_SHAPE, path=where))
            continue
        for code in {deck.hero, *deck.cards}:
            if code not in cards:
                problems.append(Sentence(DECK_UNKNOWN_CARD, {"deck": deck.name, "code": code},
                                         where))
        decks[deck.name or where] = deck
    if problems:
        raise CardSetError(problems)
    return CardSet(code=meta.get("code", "SET"), name_en=meta.get("name_en", "Card set"),
                   name_zh=meta.get("name_zh", ""), cards=cards,
                   decks=decks, factions=factions, races=races, raw=dict(data))
