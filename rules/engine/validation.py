"""Validation of ability and card data against the vocabulary's registries.

Invariant: every problem is reported (never only the first), each with a JSON-path-like
location (``abilities[0].effects[1].amount``) and a message that says what is wrong; the
messages are the constants below, which tests import instead of retyping.
"""

from __future__ import annotations

from collections.abc import Mapping
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
from rules.localized import Sentence, gettext_noop

# Each problem's sentence, in English with its parameters as placeholders: the msgid the site
# translates it by (gettext_noop marks it for the site's catalogue; the library keeps no other
# language).
MSG_NOT_LIST = gettext_noop("must be a list")
MSG_NOT_OBJECT = gettext_noop("must be an object")
MSG_REQUIRED = gettext_noop("is required")
# An unknown key, by what it is a key of.
MSG_UNKNOWN_FIELD = {
    "count": gettext_noop("is not a field of a count (allowed: {allowed})"),
    "filter": gettext_noop("is not a field of a filter (allowed: {allowed})"),
    "amount": gettext_noop("is not a field of an amount (allowed: {allowed})"),
    "condition": gettext_noop("is not a field of a condition (allowed: {allowed})"),
    "target": gettext_noop("is not a field of a target (allowed: {allowed})"),
    "effect": gettext_noop("is not a field of the effect {name!r} (allowed: {allowed})"),
    "ability": gettext_noop("is not a field of the {name!r} ability (allowed: {allowed})"),
}
MSG_UNKNOWN_TRIGGER = gettext_noop("unknown trigger {value!r} (known: {known})")
MSG_TRIGGER_KIND = gettext_noop(
    "trigger {trigger!r} is not allowed on {kind} cards (allowed on: {kinds})")
MSG_UNKNOWN_EFFECT = gettext_noop("unknown effect {value!r} (known: {known})")
MSG_CHOICE = gettext_noop("must be one of {choices}, not {value!r}")
MSG_INT = gettext_noop("must be a whole number")
MSG_BOOL = gettext_noop("must be true or false")
MSG_STRING = gettext_noop("must be a text value or a list of them")
MSG_EMPTY = gettext_noop("must not be empty")
MSG_AURA_EFFECT = gettext_noop("an aura may only use {allowed}, not {value!r}")
MSG_SKIP_COMBAT_CONTEXT = gettext_noop("skip_combat is only allowed in a combat_start ability")
MSG_NO_SOURCE_MINION = gettext_noop(
    "pick {pick!r} needs the ability's own minion; {kind} cards have none")
MSG_COMBAT_ENEMY = gettext_noop(
    "pick 'combat_enemy' only makes sense in combat_start (after a combat the loser is already "
    "destroyed)")
MSG_CONDITION = gettext_noop(
    "must name exactly one of 'count' or 'hero_hp', with 'min' and/or 'max'")
MSG_CARD_FIELD = gettext_noop("{field} is required for {kind} cards")
MSG_CARD_FORBIDDEN = gettext_noop("{kind} cards have no {field}")
MSG_NEGATIVE = gettext_noop("must not be negative")
MSG_OPTIONS = gettext_noop("must be a list of at least two effect lists")
MSG_AMOUNT = gettext_noop('must be a whole number or {{"count": ...}}')
MSG_AT_LEAST_ONE = gettext_noop("must be at least 1")
MSG_MIN_OVER_MAX = gettext_noop("min must not be greater than max")
MSG_AURA_PICK = gettext_noop("an aura reaches minions by {allowed}, not {value!r}")
MSG_SLEEPING = gettext_noop("'sleeping' only applies to passive triggers ({allowed})")
MSG_NESTED_SKIP = gettext_noop("skip_combat cannot be inside another skip_combat")
MSG_SUMMON_KIND = gettext_noop("summon puts minions into play; a filter on kind must be minion")
MSG_SIDE_FOR_PICK = gettext_noop(
    "pick {pick!r} always means the ability's own side; side must be ally")


class Problem(Sentence):
    """One mistake in card data: where (``abilities[0].effects[1].amount``), the sentence that
    says it as a template (one of the ``MSG_`` msgids) and its parameters (codes, numbers, the
    value found). ``message`` is the English, for logs and the command line; the site says it
    in the reader's language (``cards.game_words.say``)."""

    __slots__ = ()

    def __init__(self, path: str, template: str, params: Mapping[str, Any] | None = None):
        super().__init__(template, params, path)


class _Checker:
    def __init__(self, kind: str):
        self.kind = kind
        self.problems: list[Problem] = []

    def add(self, path: str, template: str, params: Mapping[str, Any] | None = None) -> None:
        self.problems.append(Problem(path, template, params or {}))

    # -- generic field checks
    def fields(self, path: str, data: Any, spec: Mapping[str, Field], what: str,
               name: str = "", ignore: tuple[str, ...] = ()) -> bool:
        """Check ``data`` against ``spec``; ``what`` it is (a key of ``MSG_UNKNOWN_FIELD``)
        and its ``name`` (an effect's, a trigger's) say where an unknown key is."""
        if not isinstance(data, Mapping):
            self.add(path, MSG_NOT_OBJECT)
            return False
        for key in data:
            if key not in spec and key not in ignore:
                allowed = ", ".join(sorted(spec))
                self.add(f"{path}.{key}", MSG_UNKNOWN_FIELD[what],
                         dict(name=name, allowed=allowed))
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
                self.add(path, MSG_CHOICE, dict(choices=", ".join(fspec.choices), value=value))
        elif kind == "values":
            values = value if isinstance(value, list) else [value]
            if not values:
                self.add(path, MSG_EMPTY)
            for item in values:
                if not isinstance(item, str):
                    self.add(path, MSG_STRING)
                elif fspec.choices and item not in fspec.choices:
                    self.add(path, MSG_CHOICE, dict(choices=", ".join(fspec.choices),
                                                     value=item))
        elif kind == "amount":
            self.amount(path, value)
        elif kind == "count":
            self.fields(path, value, COUNT_FIELDS, "count")
        elif kind == "filter":
            if value is not None:
                self.fields(path, value, FILTER_FIELDS, "filter")
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
            self.fields(path, value, AMOUNT_FIELDS, "amount")
        else:
            self.add(path, MSG_AMOUNT)

    def condition(self, path: str, value: Any) -> None:
        if not self.fields(path, value, CONDITION_FIELDS, "condition"):
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
        if not self.fields(path, value, TARGET_FIELDS, "target"):
            return
        pick = value.get("pick")
        if pick in PICKS_NEEDING_SOURCE_MINION and self.kind != "minion":
            self.add(f"{path}.pick", MSG_NO_SOURCE_MINION, dict(pick=pick, kind=self.kind))
        if pick == "combat_enemy" and self.trigger != "combat_start":
            self.add(f"{path}.pick", MSG_COMBAT_ENEMY)
        if isinstance(value.get("count"), int) and value["count"] < 1:
            self.add(f"{path}.count", MSG_AT_LEAST_ONE)
        if self.trigger == "aura" and pick in PICKS and pick not in AURA_PICKS:
            self.add(f"{path}.pick", MSG_AURA_PICK, dict(allowed=", ".join(AURA_PICKS),
                                                          value=pick))
        if pick in PICKS_NEEDING_SOURCE_MINION and value.get("side", "ally") != "ally":
            self.add(f"{path}.side", MSG_SIDE_FOR_PICK, dict(pick=pick))

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
            self.add(f"{path}.do", MSG_UNKNOWN_EFFECT, dict(
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
            self.add(f"{path}.do", MSG_AURA_EFFECT, dict(allowed=", ".join(AURA_EFFECTS),
                                                          value=name))
        if name == "skip_combat" and self.trigger != "combat_start":
            self.add(f"{path}.do", MSG_SKIP_COMBAT_CONTEXT)
        outer, self.effect_name = self.effect_name, name
        was_in_skip = self.in_skip
        self.in_skip = self.in_skip or name == "skip_combat"
        self.fields(path, value, EFFECTS[name].fields, "effect", name,
                    ignore=("do",))
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
            self.add(f"{path}.trigger", MSG_UNKNOWN_TRIGGER, dict(
                value=trigger, known=", ".join(TRIGGERS)))
            return
        self.trigger = trigger
        if value.get("sleeping") is True and trigger not in PASSIVE_TRIGGERS:
            self.add(f"{path}.sleeping", MSG_SLEEPING, dict(allowed=", ".join(
                PASSIVE_TRIGGERS)))
        term = TRIGGERS[trigger]
        if self.kind not in term.kinds:
            self.add(f"{path}.trigger", MSG_TRIGGER_KIND, dict(
                trigger=trigger, kind=self.kind, kinds=", ".join(term.kinds)))
        spec = {**ABILITY_FIELDS, **term.fields}
        self.fields(path, value, spec, "ability", trigger, ignore=("trigger",))

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
        problems.append(Problem(f"{where}.kind", MSG_CHOICE, dict(
            choices=", ".join(KINDS), value=kind)))
        return problems
    for name in KIND_REQUIRED[kind]:
        if data.get(name) is None:
            problems.append(Problem(f"{where}.{name}", MSG_CARD_FIELD, dict(field=name,
                                                                             kind=kind)))
    for name in KIND_FORBIDDEN[kind]:
        if data.get(name) not in (None, [], ()):
            problems.append(Problem(f"{where}.{name}", MSG_CARD_FORBIDDEN, dict(
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
            problems.append(Problem(f"{where}.{name}", MSG_CHOICE, dict(
                choices=", ".join(choices), value=data[name])))
    for keyword in data.get("keywords") or ():
        if keyword not in KEYWORDS:
            problems.append(Problem(f"{where}.keywords", MSG_CHOICE, dict(
                choices=", ".join(KEYWORDS), value=keyword)))
    problems.extend(validate_abilities(data.get("abilities") or [], kind,
                                       path=f"{where}.abilities"))
    return problems
