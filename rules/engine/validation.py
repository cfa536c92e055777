"""Validation of ability and card data against the vocabulary's registries.

Invariant: every problem is reported (never only the first), each with a JSON-path-like
location (``abilities[0].effects[1].amount``) and a message that says what is wrong; the
messages are the constants below, which tests import instead of retyping.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.engine.basics import ATTRIBUTES, KEYWORDS, KINDS, RARITIES
from rules.engine.effect_definitions import EFFECTS
from rules.engine.term_registry import (
    ABILITY_FIELDS,
    AMOUNT_FIELDS,
    AURA_EFFECTS,
    AURA_PICKS,
    CONDITION_FIELDS,
    COUNT_FIELDS,
    FILTER_FIELDS,
    NON_NEGATIVE,
    PASSIVE_TRIGGERS,
    PICKS,
    PICKS_NEEDING_SOURCE_MINION,
    TARGET_FIELDS,
    TRIGGERS,
    Field,
)

MSG_NOT_LIST = "must be a list"
MSG_NOT_OBJECT = "must be an object"
MSG_REQUIRED = "is required"
MSG_UNKNOWN_FIELD = "is not a field of {term} (allowed: {allowed})"
MSG_UNKNOWN_TRIGGER = "unknown trigger {value!r} (known: {known})"
MSG_TRIGGER_KIND = "trigger {trigger!r} is not allowed on a {kind} (allowed on: {kinds})"
MSG_UNKNOWN_EFFECT = "unknown effect {value!r} (known: {known})"
MSG_CHOICE = "must be one of {choices}, not {value!r}"
MSG_INT = "must be a whole number"
MSG_BOOL = "must be true or false"
MSG_STRING = "must be a text value or a list of them"
MSG_EMPTY = "must not be empty"
MSG_AURA_EFFECT = "an aura may only use {allowed}, not {value!r}"
MSG_SKIP_COMBAT_CONTEXT = "skip_combat is only allowed in a combat_start ability"
MSG_NO_SOURCE_MINION = "pick {pick!r} needs the ability's own minion; a {kind} has none"
MSG_COMBAT_ENEMY = ("pick 'combat_enemy' only makes sense in combat_start (after a combat the "
                    "loser is already destroyed)")
MSG_CONDITION = "must name exactly one of 'count' or 'hero_hp', with 'min' and/or 'max'"
MSG_CARD_FIELD = "{field} is required for a {kind}"
MSG_CARD_FORBIDDEN = "a {kind} has no {field}"
MSG_NEGATIVE = "must not be negative"
MSG_OPTIONS = "must be a list of at least two effect lists"
MSG_AMOUNT = 'must be a whole number or {"count": ...}'
MSG_AT_LEAST_ONE = "must be at least 1"
MSG_MIN_OVER_MAX = "min must not be greater than max"
MSG_AURA_PICK = "an aura reaches minions by {allowed}, not {value!r}"
MSG_SLEEPING = "'sleeping' only applies to passive triggers ({allowed})"
MSG_NESTED_SKIP = "skip_combat cannot be inside another skip_combat"
MSG_SUMMON_KIND = "summon puts minions into play; a filter on kind must be minion"
MSG_SIDE_FOR_PICK = "pick {pick!r} always means the ability's own side; side must be ally"


@dataclass(frozen=True)
class Problem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class _Checker:
    def __init__(self, kind: str):
        self.kind = kind
        self.problems: list[Problem] = []

    def add(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    # -- generic field checks
    def fields(self, path: str, data: Any, spec: Mapping[str, Field], term: str,
               ignore: tuple[str, ...] = ()) -> bool:
        if not isinstance(data, Mapping):
            self.add(path, MSG_NOT_OBJECT)
            return False
        for key in data:
            if key not in spec and key not in ignore:
                allowed = ", ".join(sorted(spec))
                self.add(f"{path}.{key}", MSG_UNKNOWN_FIELD.format(term=term, allowed=allowed))
        for key, fspec in spec.items():
            if key not in data:
                if fspec.required:
                    self.add(f"{path}.{key}", MSG_REQUIRED)
                continue
            self.value(f"{path}.{key}", data[key], fspec)
        return True

    def value(self, path: str, value: Any, fspec: Field) -> None:
        kind = fspec.type
        if kind == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                self.add(path, MSG_INT)
            elif value < 0 and path.rsplit(".", 1)[-1] in NON_NEGATIVE:
                self.add(path, MSG_NEGATIVE)
        elif kind == "bool":
            if not isinstance(value, bool):
                self.add(path, MSG_BOOL)
        elif kind == "enum":
            if not isinstance(value, str) or value not in fspec.choices:
                self.add(path, MSG_CHOICE.format(choices=", ".join(fspec.choices), value=value))
        elif kind == "values":
            values = value if isinstance(value, list) else [value]
            if not values:
                self.add(path, MSG_EMPTY)
            for item in values:
                if not isinstance(item, str):
                    self.add(path, MSG_STRING)
                elif fspec.choices and item not in fspec.choices:
                    self.add(path, MSG_CHOICE.format(choices=", ".join(fspec.choices),
                                                     value=item))
        elif kind == "amount":
            self.amount(path, value)
        elif kind == "count":
            self.fields(path, value, COUNT_FIELDS, "a count")
        elif kind == "filter":
            if value is not None:
                self.fields(path, value, FILTER_FIELDS, "a filter")
        elif kind == "condition":
            self.condition(path, value)
        elif kind == "target":
            self.target(path, value)
        elif kind == "effects":
            self.effects(path, value)
        elif kind == "options":
            if not isinstance(value, list) or len(value) < 2:
                self.add(path, MSG_OPTIONS)
            else:
                for i, option in enumerate(value):
                    self.effects(f"{path}[{i}]", option)

    def amount(self, path: str, value: Any) -> None:
        if isinstance(value, int) and not isinstance(value, bool):
            term = EFFECTS.get(self.effect_name or "")
            if value < 0 and term is not None and term.non_negative:
                self.add(path, MSG_NEGATIVE)
            return
        if isinstance(value, Mapping):
            self.fields(path, value, AMOUNT_FIELDS, "an amount")
        else:
            self.add(path, MSG_AMOUNT)

    def condition(self, path: str, value: Any) -> None:
        if not self.fields(path, value, CONDITION_FIELDS, "a condition"):
            return
        subjects = [k for k in ("count", "hero_hp") if k in value]
        if len(subjects) != 1 or not ("min" in value or "max" in value):
            self.add(path, MSG_CONDITION)
        low, high = value.get("min"), value.get("max")
        if isinstance(low, int) and isinstance(high, int) and low > high:
            self.add(path, MSG_MIN_OVER_MAX)

    def target(self, path: str, value: Any) -> None:
        if isinstance(value, str):
            value = {"pick": value}
        if not self.fields(path, value, TARGET_FIELDS, "a target"):
            return
        pick = value.get("pick")
        if pick in PICKS_NEEDING_SOURCE_MINION and self.kind != "minion":
            self.add(f"{path}.pick", MSG_NO_SOURCE_MINION.format(pick=pick, kind=self.kind))
        if pick == "combat_enemy" and self.trigger != "combat_start":
            self.add(f"{path}.pick", MSG_COMBAT_ENEMY)
        if isinstance(value.get("count"), int) and value["count"] < 1:
            self.add(f"{path}.count", MSG_AT_LEAST_ONE)
        if self.trigger == "aura" and pick in PICKS and pick not in AURA_PICKS:
            self.add(f"{path}.pick", MSG_AURA_PICK.format(allowed=", ".join(AURA_PICKS),
                                                          value=pick))
        if pick in PICKS_NEEDING_SOURCE_MINION and value.get("side", "ally") != "ally":
            self.add(f"{path}.side", MSG_SIDE_FOR_PICK.format(pick=pick))

    def effects(self, path: str, value: Any) -> None:
        if not isinstance(value, list):
            self.add(path, MSG_NOT_LIST)
            return
        if not value:
            self.add(path, MSG_EMPTY)
        for i, effect in enumerate(value):
            self.effect(f"{path}[{i}]", effect)

    def effect(self, path: str, value: Any) -> None:
        if not isinstance(value, Mapping):
            self.add(path, MSG_NOT_OBJECT)
            return
        name = value.get("do")
        if name is None:
            self.add(f"{path}.do", MSG_REQUIRED)
            return
        if not isinstance(name, str) or name not in EFFECTS:
            self.add(f"{path}.do", MSG_UNKNOWN_EFFECT.format(
                value=name, known=", ".join(EFFECTS)))
            return
        if name == "skip_combat" and self.in_skip:
            self.add(f"{path}.do", MSG_NESTED_SKIP)
        if name == "summon":
            kinds = (value.get("filter") or {}).get("kind") if isinstance(
                value.get("filter"), Mapping) else None
            if kinds is not None and kinds not in ("minion", ["minion"]):
                self.add(f"{path}.filter.kind", MSG_SUMMON_KIND)
        if self.trigger == "aura" and name not in AURA_EFFECTS:
            self.add(f"{path}.do", MSG_AURA_EFFECT.format(allowed=" and ".join(AURA_EFFECTS),
                                                          value=name))
        if name == "skip_combat" and self.trigger != "combat_start":
            self.add(f"{path}.do", MSG_SKIP_COMBAT_CONTEXT)
        outer, self.effect_name = self.effect_name, name
        was_in_skip = self.in_skip
        self.in_skip = self.in_skip or name == "skip_combat"
        self.fields(path, value, EFFECTS[name].fields, f"the effect {name!r}", ignore=("do",))
        self.effect_name, self.in_skip = outer, was_in_skip

    def ability(self, path: str, value: Any) -> None:
        if not isinstance(value, Mapping):
            self.add(path, MSG_NOT_OBJECT)
            return
        trigger = value.get("trigger")
        if trigger is None:
            self.add(f"{path}.trigger", MSG_REQUIRED)
            return
        if not isinstance(trigger, str) or trigger not in TRIGGERS:
            self.add(f"{path}.trigger", MSG_UNKNOWN_TRIGGER.format(
                value=trigger, known=", ".join(TRIGGERS)))
            return
        self.trigger = trigger
        if value.get("sleeping") is True and trigger not in PASSIVE_TRIGGERS:
            self.add(f"{path}.sleeping", MSG_SLEEPING.format(allowed=", ".join(
                PASSIVE_TRIGGERS)))
        term = TRIGGERS[trigger]
        if self.kind not in term.kinds:
            self.add(f"{path}.trigger", MSG_TRIGGER_KIND.format(
                trigger=trigger, kind=self.kind, kinds=", ".join(term.kinds)))
        spec = {**ABILITY_FIELDS, **term.fields}
        self.fields(path, value, spec, f"the {trigger!r} ability", ignore=("trigger",))

    trigger: str | None = None
    effect_name: str | None = None
    in_skip: bool = False


def validate_abilities(abilities: Any, kind: str = "minion",
                       path: str = "abilities") -> list[Problem]:
    """Every problem in an ability list, each naming its path; [] when the list is valid."""
    checker = _Checker(kind)
    if not isinstance(abilities, list):
        return [Problem(path, MSG_NOT_LIST)]
    for i, ability in enumerate(abilities):
        checker.ability(f"{path}[{i}]", ability)
    return checker.problems


# Fields each card kind must have (R1.4) and must not have.
KIND_REQUIRED = {"hero": ("hp", "attribute"), "minion": ("cost", "attack", "attribute"),
                 "item": ("cost",)}
KIND_FORBIDDEN = {"hero": ("cost", "attack", "keywords"), "minion": ("hp",),
                  "item": ("hp", "attack", "attribute", "faction", "race", "keywords")}


def validate_card(data: Any) -> list[Problem]:
    """Every problem with one card's data form (fields of R1.4 and its abilities)."""
    if not isinstance(data, Mapping):
        return [Problem("card", MSG_NOT_OBJECT)]
    where = f"card {data.get('code', '?')}"
    problems: list[Problem] = []
    if not data.get("code"):
        problems.append(Problem(f"{where}.code", MSG_REQUIRED))
    kind = data.get("kind")
    if kind not in KINDS:
        problems.append(Problem(f"{where}.kind", MSG_CHOICE.format(
            choices=", ".join(KINDS), value=kind)))
        return problems
    for name in KIND_REQUIRED[kind]:
        if data.get(name) is None:
            problems.append(Problem(f"{where}.{name}", MSG_CARD_FIELD.format(field=name,
                                                                             kind=kind)))
    for name in KIND_FORBIDDEN[kind]:
        if data.get(name) not in (None, [], ()):
            problems.append(Problem(f"{where}.{name}", MSG_CARD_FORBIDDEN.format(
                field=name, kind=kind)))
    for name in ("cost", "attack", "hp"):
        value = data.get(name)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            problems.append(Problem(f"{where}.{name}", MSG_INT))
        elif isinstance(value, int) and value < 0:
            problems.append(Problem(f"{where}.{name}", MSG_NEGATIVE))
    checks = (("attribute", ATTRIBUTES), ("rarity", RARITIES))
    for name, choices in checks:
        if data.get(name) is not None and data[name] not in choices:
            problems.append(Problem(f"{where}.{name}", MSG_CHOICE.format(
                choices=", ".join(choices), value=data[name])))
    for keyword in data.get("keywords") or ():
        if keyword not in KEYWORDS:
            problems.append(Problem(f"{where}.keywords", MSG_CHOICE.format(
                choices=", ".join(KEYWORDS), value=keyword)))
    problems.extend(validate_abilities(data.get("abilities") or [], kind,
                                       path=f"{where}.abilities"))
    return problems
