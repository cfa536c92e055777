"""Plain, frozen definitions the engine plays with: cards, deck lists and rulesets.

Invariants: every object here is immutable and JSON-able through ``to_dict``; a ``CardDef`` is
only built from abilities the vocabulary validator accepted (``CardDef.from_dict`` validates), so
the engine never meets an ability it cannot run. There is no global card registry: callers pass
a ``{code: CardDef}`` mapping wherever cards are needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final

from rules.engine.ability_language import normalise_abilities, validate_card

# Re-exported: R1.5's advantage and the card module's vocabulary.
from rules.engine.advantage import BEATS as BEATS
from rules.engine.advantage import has_advantage as has_advantage
from rules.engine.basics import ATTRIBUTES as ATTRIBUTES
from rules.engine.basics import KEYWORDS as KEYWORDS
from rules.engine.basics import KINDS as KINDS
from rules.engine.basics import RARITIES as RARITIES
from rules.engine.basics import CardDataError as CardDataError
from rules.localized import Sentence, gettext_noop

# Definitions refused: sentences the site translates (rules.localized.Sentence).
MSG_UNKNOWN_OPTION = gettext_noop("unknown ruleset option {name!r}")
MSG_OPTION_TYPE = {"int": gettext_noop("ruleset option {name!r} must be a whole number"),
                   "bool": gettext_noop("ruleset option {name!r} must be true or false"),
                   "str": gettext_noop("ruleset option {name!r} must be text")}
MSG_OPTION_AT_LEAST_ONE = gettext_noop("ruleset option {name!r} must be at least 1")
MSG_OPTION_AT_MOST = gettext_noop("ruleset option {name!r} must be at most {high} (the rule "
                                  "book's bound, R6.6)")

# R6.6: each numeric option's range, (lowest, highest). The highest is far above what a designer
# tries (the standard game's value two to five times over) and keeps a game a page and a hint
# can play: 400 slots made a state of 3,201 legal actions and a hint of 31 seconds.
RULESET_BOUNDS: Final[dict[str, tuple[int, int]]] = {
    "turn_limit": (1, 100),
    "action_limit": (1, 1000),
    "slots": (1, 10),
    "opening_hand": (1, 20),
    "energy_cap": (1, 20),
    "first_turn_energy": (1, 20),
    "hand_limit": (1, 20),
    "display_limit": (1, 20),
}

# The triggers the engine asks about every turn, each a bit of ``CardDef.triggers``: "has this
# card an ability with that trigger?" is asked of every minion several times a turn, and testing
# a bit costs next to nothing beside a dictionary lookup (most answers are no).
TRIGGER_BIT: Final[dict[str, int]] = {trigger: 1 << i for i, trigger in enumerate((
    "turn_start", "turn_end", "ally_dies", "last_words", "active", "use", "aura",
    "combat_start", "after_win", "awaken"))}
TURN_START_BIT: Final = 1
TURN_END_BIT: Final = 2
ALLY_DIES_BIT: Final = 4
LAST_WORDS_BIT: Final = 8
ACTIVE_BIT: Final = 16
USE_BIT: Final = 32
AURA_BIT: Final = 64
COMBAT_START_BIT: Final = 128
AFTER_WIN_BIT: Final = 256
AWAKEN_BIT: Final = 512


def trigger_bits(by_trigger: Mapping[str, Any]) -> int:
    """The ``TRIGGER_BIT`` bits of the triggers a card has abilities for."""
    bits = 0
    for trigger, abilities in by_trigger.items():
        if abilities:
            bits |= TRIGGER_BIT.get(trigger, 0)
    return bits


def always_usable(ability: Mapping[str, Any]) -> bool:
    """Is an item or active skill usable whatever the board (``targets.usable`` says yes
    without looking)? So when it has no condition and one of its effects needs no chosen
    target. Legal actions ask this of every skill and item in reach after every action."""
    if ability.get("if") is not None:
        return False
    for effect in ability.get("effects", ()):
        target = effect.get("target")
        if target is None or target.get("pick") != "chosen":
            return True
    return False


@dataclass(frozen=True, slots=True)
class CardDef:
    """One card as printed. ``abilities`` is vocabulary data, already validated and normalised."""

    code: str
    kind: str
    name_en: str
    name_zh: str
    rarity: str = "N"
    cost: int = 0
    attack: int = 0
    hp: int = 0
    attribute: str | None = None
    faction: str | None = None
    race: str | None = None
    keywords: tuple[str, ...] = ()
    # The abilities exactly as written (the data form); ``by_trigger`` holds them normalised.
    abilities: tuple[dict[str, Any], ...] = ()
    # Normalised abilities grouped by trigger, derived once so effect dispatch is a dict lookup.
    by_trigger: dict[str, tuple[dict[str, Any], ...]] = field(default_factory=dict, compare=False,
                                                       repr=False, hash=False)
    # Derived from by_trigger whenever a card is made (see TRIGGER_BIT).
    triggers: int = field(default=0, init=False, compare=False, repr=False, hash=False)
    # Which abilities are usable whatever the board (``always_usable``): bit i for the i-th
    # active ability, and whether one of its "use" abilities (an item's) is. Derived too.
    active_always: int = field(default=0, init=False, compare=False, repr=False, hash=False)
    use_always: bool = field(default=False, init=False, compare=False, repr=False, hash=False)
    # ``keywords`` as the set a minion of this card starts with, made once: minions share it
    # (their keyword sets are immutable, replaced on change: rules.engine.state.Minion).
    keyword_set: frozenset[str] = field(default=frozenset(), init=False, compare=False,
                                        repr=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "triggers", trigger_bits(self.by_trigger))
        object.__setattr__(self, "keyword_set", frozenset(self.keywords))
        bits = 0
        for i, ability in enumerate(self.by_trigger.get("active", ())):
            if always_usable(ability):
                bits |= 1 << i
        object.__setattr__(self, "active_always", bits)
        object.__setattr__(self, "use_always",
                           any(always_usable(a) for a in self.by_trigger.get("use", ())))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardDef:
        """Build a card from its data form; raises CardDataError naming every problem."""
        problems = validate_card(data)
        if problems:
            raise CardDataError(problems)
        raw = list(data.get("abilities") or [])
        grouped: dict[str, list[dict[str, Any]]] = {}
        for ability in normalise_abilities(raw):
            grouped.setdefault(ability["trigger"], []).append(ability)
        return cls(
            code=str(data["code"]),
            kind=data["kind"],
            name_en=data.get("name_en") or data.get("name") or str(data["code"]),
            name_zh=data.get("name_zh") or data.get("name_en") or str(data["code"]),
            rarity=data.get("rarity", "N"),
            cost=int(data.get("cost") or 0),
            attack=int(data.get("attack") or 0),
            hp=int(data.get("hp") or 0),
            attribute=data.get("attribute"),
            faction=data.get("faction"),
            race=data.get("race"),
            keywords=tuple(data.get("keywords") or ()),
            abilities=tuple(raw),
            by_trigger={k: tuple(v) for k, v in grouped.items()},
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "kind": self.kind, "name_en": self.name_en,
                               "name_zh": self.name_zh, "rarity": self.rarity}
        if self.kind != "hero":
            out["cost"] = self.cost
        if self.kind == "minion":
            out["attack"] = self.attack
        if self.kind == "hero":
            out["hp"] = self.hp
        for name in ("attribute", "faction", "race"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.keywords:
            out["keywords"] = list(self.keywords)
        if self.abilities:
            out["abilities"] = [dict(a) for a in self.abilities]  # as written, re-loadable
        return out

    @property
    def name(self) -> str:
        return self.name_en

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return _rebuild(self)


@dataclass(frozen=True, slots=True)
class DeckList:
    """A hero and the deck's cards (codes, order irrelevant: the game shuffles)."""

    hero: str
    cards: tuple[str, ...]
    name: str = ""

    @classmethod
    def from_counts(cls, hero: str, counts: Mapping[str, int], name: str = "") -> DeckList:
        cards = tuple(code for code, n in sorted(counts.items()) for _ in range(n))
        return cls(hero=hero, cards=cards, name=name)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for code in self.cards:
            out[code] = out.get(code, 0) + 1
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "hero": self.hero, "cards": self.counts()}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return _rebuild(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DeckList:
        cards = data["cards"]
        if isinstance(cards, Mapping):
            return cls.from_counts(data["hero"], cards, data.get("name", ""))
        return cls(hero=data["hero"], cards=tuple(cards), name=data.get("name", ""))


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules a game is played under. Defaults are the ``standard`` ruleset of RULES.md;
    every [ruling] that could reasonably go another way is an option here."""

    name: str = "standard"
    hero_advantage: bool = True            # R2.3.10: attribute advantage applies against heroes
    attack_or_skill: bool = False          # R2.2.3 e: attacking and using a skill are exclusive
    react_ignores_awaken_turn: bool = False  # R4.9: re-act may hit the hero on the awaken turn
    # R6.1: awaken skills and last words resolve without asking their controller (the engine's
    # behaviour before they became a decision; fewer decisions for bulk runs).
    always_use_optional_skills: bool = False
    face_down_last_words: bool = True      # R6.2: a face-down minion's last words resolve
    sleeping_keywords: bool = True         # R6.3: shield and regenerate work while it sleeps
    summoned_awake_is_awakened: bool = False  # R6.4: summoned awake, its awaken skill triggers
    mind_controlled_may_attack: bool = False  # R6.5: it may attack on the turn it changes sides
    turn_limit: int = 30                   # R2.2.6: turns per player before the game is a draw
    # [ruling] main-phase actions per turn; then only "end" is legal. Free minions that bounce
    # back to hand could otherwise loop within one turn forever.
    action_limit: int = 200
    slots: int = 5                         # R1.1
    opening_hand: int = 10                 # R2.1.3
    energy_cap: int = 5                    # R2.2.2
    first_turn_energy: int = 3             # R2.2.2
    hand_limit: int = 8                    # R2.2.4
    display_limit: int = 5                 # R2.2.4

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Ruleset:
        data = dict(data or {})
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(data) - set(known))
        if unknown:
            raise CardDataError([Sentence(MSG_UNKNOWN_OPTION, {"name": name})
                                 for name in unknown])
        problems = []
        for key, value in data.items():
            expected = type(getattr(cls(), key))
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                problems.append(Sentence(MSG_OPTION_TYPE[expected.__name__], {"name": key}))
            elif expected is int and value < 1:
                problems.append(Sentence(MSG_OPTION_AT_LEAST_ONE, {"name": key}))
            elif expected is int and key in RULESET_BOUNDS and value > RULESET_BOUNDS[key][1]:
                problems.append(Sentence(MSG_OPTION_AT_MOST,
                                         {"name": key, "high": RULESET_BOUNDS[key][1]}))
        if problems:
            raise CardDataError(problems)
        return replace(cls(), **data)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __reduce__(self) -> tuple[type[Any], tuple[Any, ...]]:
        return _rebuild(self)


def _rebuild(obj: Any) -> tuple[type[Any], tuple[Any, ...]]:
    """How pickle and copy rebuild a frozen definition: its class and every field, in order.
    (Compiled, the frozen classes cannot be restored field by field the default way.)"""
    return (type(obj), tuple(getattr(obj, f.name) for f in fields(obj) if f.init))


STANDARD: Final = Ruleset()
