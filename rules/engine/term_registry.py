"""The registries of the ability language's terms: every trigger, effect, target, filter, amount and
condition an ability may use, with its fields, description, rule id and example.

This is the single source of truth for the terms: the validator (``validation.py``), the
normaliser (``normalise.py``), the rules-text generator (``text.py``) and the reference page
(``reference.py``) all read these tables, so a term cannot exist in one and be missing in another.
The effect terms are registered by ``effect_definitions.py``, each with its text in both
languages (read ``EFFECTS`` from there, which guarantees they are all registered).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.engine.basics import ATTRIBUTES, KEYWORDS, RARITIES
from rules.localized import add_translations, remove_translations

# ---------------------------------------------------------------- registries


@dataclass(frozen=True)
class Field:
    """One field of a term. ``type`` is one of the FIELD_TYPES keys."""

    type: str
    required: bool = False
    default: Any = None
    choices: Sequence[str] = ()     # an enum's or a list of values' codes (empty: any)
    doc: str = ""


@dataclass(frozen=True)
class Term:
    name: str
    doc: str
    example: dict[str, Any]
    fields: dict[str, Field] = field(default_factory=dict)
    kinds: tuple[str, ...] = ()          # triggers: the card kinds that may carry it
    rule: str = ""                       # the RULES.md id the term implements, if any
    # Effects only: its amounts and counts are never negative; its rules text in English
    # (``en``) and from a language's catalogue templates (``templated``: ``(effect, ctx) ->
    # clause``, ``ctx.lang`` the language); and, for a term the engine's own dispatch does
    # not know (a test's toy term), what it does: ``(game, controller, source, effect, other,
    # targets) -> None``, as the handlers of rules/engine/effect_handlers.py.
    non_negative: bool = False
    en: Callable[..., str] | None = None
    templated: Callable[..., str] | None = None
    handler: Callable[..., None] | None = None


DUPLICATE_EFFECT = "effect term {name!r} is registered already"
# Every effect term, by name, in the order registered (effect_definitions.py registers them all).
EFFECTS: dict[str, Term] = {}


_TEMPLATES_ADDED: dict[str, list[str]] = {}


def register_effect(term: Term, templates: Mapping[str, Mapping[str, str]] | None = None
                    ) -> Term:
    """Add an effect term; ValueError for a name already taken. A term a later module
    registers brings its rules-text templates for the languages that write from their
    catalogue: ``{language: {"text.effect.<name>…": template}}``."""
    if term.name in EFFECTS:
        raise ValueError(DUPLICATE_EFFECT.format(name=term.name))
    EFFECTS[term.name] = term
    for lang, entries in (templates or {}).items():
        add_translations(lang, entries)
        _TEMPLATES_ADDED.setdefault(term.name, []).extend(entries)
    return term


def unregister_effect(name: str) -> None:
    """Remove an effect term (for tests that register a toy one), its templates with it."""
    EFFECTS.pop(name, None)
    remove_translations(_TEMPLATES_ADDED.pop(name, []))


SIDES = ("ally", "enemy", "any")
HEROES = ("own", "enemy", "both")
PLAYERS = ("own", "enemy")
DURATIONS = ("turn", "permanent")
WHOSE = ("own", "enemy", "each")
PICKS = ("self", "chosen", "random", "all", "leftmost", "rightmost", "adjacent", "combat_enemy")
ZONES = ("minions", "hand", "graveyard", "display", "deck")
SOURCES = ("hand", "deck")

TRIGGERS: dict[str, Term] = {t.name: t for t in [
    Term("awaken", "When this minion is awakened, by energy or by an effect.",
         {"trigger": "awaken", "effects": [{"do": "draw", "count": 1}]},
         kinds=("minion",), rule="R4.4"),
    Term("last_words", "When this minion is destroyed (not when it regenerates).",
         {"trigger": "last_words", "effects": [{"do": "damage_hero", "amount": 2}]},
         kinds=("minion",), rule="R4.5"),
    Term("active", "Its controller may use it once per turn, paying `cost` energy; a minion "
         "must be awakened (also on the turn it was awakened).",
         {"trigger": "active", "cost": 1,
          "effects": [{"do": "attack", "amount": 2, "target": "self", "duration": "turn"}]},
         fields={"cost": Field("int", default=0, doc="energy paid to use it")},
         kinds=("minion", "hero"), rule="R4.6"),
    Term("aura", "Always on while its source is an awakened minion or a hero and the "
         "`if` condition holds; only `attack` and `grant_keyword` effects.",
         {"trigger": "aura", "effects": [{"do": "attack", "amount": 1, "target":
                                          {"pick": "all", "side": "ally", "other": True}}]},
         kinds=("minion", "hero"), rule="R4.7"),
    Term("turn_start", "At the start of a turn, after the energy phase.",
         {"trigger": "turn_start", "effects": [{"do": "energy", "amount": 1}]},
         fields={"whose": Field("enum", default="own", choices=WHOSE,
                                doc="whose turn: own, enemy or each")},
         kinds=("minion", "hero"), rule="R4.7"),
    Term("turn_end", "At the end of a turn, when the main phase ends.",
         {"trigger": "turn_end", "effects": [{"do": "heal_hero", "amount": 1}]},
         fields={"whose": Field("enum", default="own", choices=WHOSE,
                                doc="whose turn: own, enemy or each")},
         kinds=("minion", "hero"), rule="R4.7"),
    Term("combat_start", "When this minion's combat starts, as attacker or defender; the "
         "attacker's resolve first.",
         {"trigger": "combat_start", "effects": [{"do": "attack", "amount": 2,
                                                  "target": "self", "duration": "turn"}]},
         kinds=("minion",), rule="R2.3.5"),
    Term("after_win", "After this minion wins a combat (the other side was destroyed).",
         {"trigger": "after_win", "effects": [{"do": "draw", "count": 1}]},
         kinds=("minion",), rule="R2.3.9"),
    Term("ally_dies", "When another minion of its controller is destroyed.",
         {"trigger": "ally_dies", "effects": [{"do": "attack", "amount": 1, "target": "self",
                                               "duration": "permanent"}]},
         kinds=("minion", "hero"), rule="R2.3.9"),
    Term("use", "When the item is used from hand by paying its cost; then it goes to the "
         "graveyard.",
         {"trigger": "use", "effects": [{"do": "destroy", "target": "chosen"}]},
         kinds=("item",), rule="R2.2.3"),
]}

# Fields every ability may have besides its trigger's own.
ABILITY_FIELDS: dict[str, Field] = {
    "effects": Field("effects", required=True, doc="what happens, in order"),
    "if": Field("condition", doc="the ability does nothing unless this holds"),
    "sleeping": Field("bool", default=False,
                      doc="a passive that works even while its minion sleeps (R4.1)"),
}


TARGET_FIELDS: dict[str, Field] = {
    "pick": Field("enum", required=True, choices=PICKS, doc="which minions (see the picks)"),
    "side": Field("enum", choices=SIDES, doc="default: ally for self/adjacent, else enemy"),
    "filter": Field("filter", default=None, doc="only minions that match"),
    "count": Field("int", default=1, doc="how many, for random"),
    "other": Field("bool", default=False, doc="never the ability's own minion"),
}
TARGET_DOCS = {
    "self": "the ability's own minion",
    "chosen": "one minion its controller chooses",
    "random": "`count` minions at random",
    "all": "every minion that matches",
    "leftmost": "the matching minion in the leftmost slot",
    "rightmost": "the matching minion in the rightmost slot",
    "adjacent": "the minions in the slots beside the ability's own minion",
    "combat_enemy": "the other minion of the combat (combat_start only: after a combat the "
                    "loser is already gone)",
}

FILTER_FIELDS: dict[str, Field] = {
    "attribute": Field("values", choices=ATTRIBUTES, doc="one attribute or a list of them"),
    "rarity": Field("values", choices=RARITIES, doc="one rarity or a list of them"),
    "kind": Field("values", choices=("minion", "item"), doc="card kind (cards in a zone)"),
    "keyword": Field("values", choices=KEYWORDS, doc="has one of these keywords"),
    "faction": Field("values", doc="one faction code or a list of them"),
    "race": Field("values", doc="one race code or a list of them"),
    "cost_min": Field("int", doc="energy cost at least"),
    "cost_max": Field("int", doc="energy cost at most"),
    "attack_min": Field("int", doc="current attack at least (printed attack for cards)"),
    "attack_max": Field("int", doc="current attack at most (printed attack for cards)"),
    "awake": Field("bool", doc="only awakened (true) or only sleeping (false) minions"),
}
COUNT_FIELDS: dict[str, Field] = {
    "zone": Field("enum", required=True, choices=ZONES, doc="where to count"),
    "side": Field("enum", default="ally", choices=SIDES, doc="whose zone"),
    "filter": Field("filter", default=None, doc="count only what matches"),
}
AMOUNT_FIELDS: dict[str, Field] = {
    "count": Field("count", required=True, doc="what to count"),
    "times": Field("int", default=1, doc="multiplied by"),
    "plus": Field("int", default=0, doc="then plus"),
    "max": Field("int", default=None, doc="but at most"),
}
CONDITION_FIELDS: dict[str, Field] = {
    "count": Field("count", doc="holds when this count is within min..max"),
    "hero_hp": Field("enum", choices=PLAYERS, doc="holds when that hero's HP is within min..max"),
    "min": Field("int", doc="at least"),
    "max": Field("int", doc="at most"),
}
# Fields that count things or cost energy: never negative.
NON_NEGATIVE = {"cost", "count", "times", "max", "min", "cost_min", "cost_max", "attack_min",
                "attack_max"}
PASSIVE_TRIGGERS = ("aura", "turn_start", "turn_end", "combat_start", "after_win", "ally_dies")
AURA_PICKS = ("self", "all", "adjacent", "leftmost", "rightmost")
AURA_EFFECTS = ("attack", "grant_keyword")
PICKS_NEEDING_SOURCE_MINION = ("self", "adjacent")
