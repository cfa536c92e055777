"""Balance patches: changes to cards' printed fields that a simulation plays with.

A patch is data::

    {"name": "Charger +1", "changes": [{"card": "C005", "field": "attack", "value": 4}]}

one entry per changed field of a card. A change may also reach *inside* a card's abilities: its
``field`` is then an ability path (``abilities.0.effects.1.amount``, ``abilities.0.cost``,
``abilities.1.if.min``) and its ``value`` a whole number kept within ``ability_number_bounds``
(sign kept; no cost below 0, no amount, count or threshold that leaves the effect doing
nothing, nothing beyond ``NUMBER_CAP`` or twice the printed size), or ``null`` at an ability
(``abilities.1``) or an effect (``abilities.0.effects.1``) to remove it. Paths name the printed
card's positions whatever else the patch removes. ``patch_apply`` returns a new card mapping
(data form, ``{code: {...}}``) with the changes made; every changed card is validated by the
engine exactly as a card edit is (``CardDef.from_dict``), so a patch the engine cannot play is
refused with every problem listed. Applying a patch to the card mapping of a run means every
deck on both sides plays the patched card.

Invariants: nothing here mutates its inputs or touches a catalogue; ``Patch.from_dict`` either
returns a well-formed patch or raises ``PatchError`` listing every problem; a patch's JSON form
(``to_dict``) loads back to an equal patch.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from rules.engine.basics import CardDataError
from rules.engine.cards import CardDef
from rules.engine.text import card_text
from rules.localized import Sentence, gettext_noop

# The printed fields a patch may change (code, kind, names, faction and race are identity).
PATCH_FIELDS = ("cost", "attack", "hp", "attribute", "rarity", "keywords", "abilities")
NAME_MAX = 100

NOT_OBJECT = gettext_noop("A patch is a JSON object with a \"name\" and a list \"changes\".")
NO_NAME = gettext_noop("name: give the patch a name (at most {limit} characters).")
NO_CHANGES = gettext_noop(
    "changes: list at least one change {{\"card\": code, \"field\": ..., \"value\": ...}}.")
CHANGE_NOT_OBJECT = gettext_noop(
    "changes[{i}]: a change is an object with \"card\", \"field\" and \"value\".")
CHANGE_NO_CARD = gettext_noop("changes[{i}].card: give the card's code (e.g. \"C005\").")
CHANGE_BAD_FIELD = gettext_noop(
    "changes[{i}].field: {field!r} cannot be patched (fields: {fields}).")
CHANGE_NO_VALUE = gettext_noop("changes[{i}].value: give the new value.")
CHANGE_TWICE = gettext_noop("changes[{i}]: {card}.{field} is changed twice.")
UNKNOWN_CARD = gettext_noop("changes[{i}].card: there is no card {card!r} here.")
ABILITY_VALUE = gettext_noop(
    "changes[{i}].value: {card}.{field} takes a whole number, or null to remove an effect or "
    "an ability.")
NO_SUCH_PATH = gettext_noop("changes[{i}].field: {card} has no {field}.")
NOT_A_NUMBER = gettext_noop(
    "changes[{i}].field: {card}.{field} is not a whole number of its abilities.")
NOT_REMOVABLE = gettext_noop(
    "changes[{i}].field: {card}.{field} is neither an ability nor an effect; only those can be "
    "removed (value null).")
OUT_OF_BOUNDS = gettext_noop(
    "changes[{i}].value: {card}.{field} must lie within {low} … {high} (printed {printed}); "
    "got {value}.")
INSIDE_REMOVED = gettext_noop(
    "changes[{i}]: {card}.{field} lies inside {removed}, which the patch removes.")
WHOLE_AND_PART = gettext_noop(
    "changes[{i}]: {card}.{field} changes part of abilities the patch also replaces whole.")
NOT_JSON = gettext_noop("{path}: not valid JSON ({error}).")
NO_FILE = gettext_noop("{path}: no such file.")


# An ability path: "abilities", the ability's index, then keys and list indices.
ABILITY_PATH = re.compile(r"^abilities\.\d+(\.(\d+|[a-z_]+))*$")
NUMBER_CAP = 10                 # no ability number beyond this, or twice its printed size
# Ability numbers that may be 0 (a free active, a filter "cost at most 0"); every other one
# (amounts, counts, thresholds, lower bounds) at 0 would leave its effect doing nothing.
ZERO_ALLOWED = ("cost", "max")


def is_ability_path(field: object) -> bool:
    """Whether ``field`` names a place inside a card's abilities (``abilities.0.cost``)."""
    return isinstance(field, str) and ABILITY_PATH.match(field) is not None


def path_parts(field: str) -> list[str | int]:
    """``abilities.0.effects.1.amount`` → ``["abilities", 0, "effects", 1, "amount"]``."""
    return [int(p) if p.isdigit() else p for p in field.split(".")]


def ability_number_bounds(key: str, printed: int) -> tuple[int, int]:
    """The values a designer accepts for the ability number ``key`` printed ``printed``: its
    sign kept, at least 1 in size (0 allowed for costs and upper bounds: ``ZERO_ALLOWED``),
    at most ``NUMBER_CAP`` or twice the printed size."""
    zero = key == "cost" or key.endswith("_max") or key in ZERO_ALLOWED
    high = max(NUMBER_CAP, 2 * abs(printed))
    if printed < 0:
        return -high, -1
    return (0 if zero else 1), high


def ability_numbers(data: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Every whole number inside a card's abilities (data form) with its path, in order."""
    out: list[tuple[str, int]] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, Mapping):
            for key, item in value.items():
                walk(item, f"{path}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{path}.{index}")
        elif isinstance(value, int) and not isinstance(value, bool):
            out.append((path, value))

    for index, ability in enumerate(data.get("abilities") or ()):
        walk(ability, f"abilities.{index}")
    return out


def ability_removals(data: Mapping[str, Any]) -> list[str]:
    """The paths a patch may remove: each ability, and each effect of an ability that has
    more than one (removing its only effect is removing the ability)."""
    out: list[str] = []
    for index, ability in enumerate(data.get("abilities") or ()):
        out.append(f"abilities.{index}")
        effects = ability.get("effects") or () if isinstance(ability, Mapping) else ()
        if len(effects) > 1:
            out.extend(f"abilities.{index}.effects.{e}" for e in range(len(effects)))
    return out


def ability_changes(old: Any, new: Any) -> list[tuple[str, int | None]] | None:
    """``new`` abilities as changes of ``old``'s: the ability paths whose whole numbers differ
    (same shape otherwise), or one ability or one effect removed; None when it is another
    rewrite (a patch then replaces the abilities whole)."""
    numbers = _number_changes(old, new, "abilities")
    if numbers is not None:
        return numbers
    if not isinstance(old, list) or not isinstance(new, list):
        return None
    for path in ability_removals({"abilities": old}):
        parts = path_parts(path)
        trimmed = copy.deepcopy(old)
        _, parent = _lookup(trimmed, parts[1:-1])
        del parent[parts[-1]]
        if trimmed == new:
            return [(path, None)]
    return None


def _number_changes(old: Any, new: Any, path: str) -> list[tuple[str, int | None]] | None:
    if isinstance(old, bool) or isinstance(new, bool):
        return [] if old == new and type(old) is type(new) else None
    if isinstance(old, int) and isinstance(new, int):
        return [] if old == new else [(path, new)]
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        if set(old) != set(new):
            return None
        out: list[tuple[str, int | None]] = []
        for key in old:
            part = _number_changes(old[key], new[key], f"{path}.{key}")
            if part is None:
                return None
            out += part
        return out
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return None
        out = []
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            part = _number_changes(a, b, f"{path}.{index}")
            if part is None:
                return None
            out += part
        return out
    return [] if old == new else None


def _lookup(data: Any, parts: list[str | int]) -> tuple[bool, Any]:
    for part in parts:
        if isinstance(part, int) and isinstance(data, list) and 0 <= part < len(data):
            data = data[part]
        elif isinstance(part, str) and isinstance(data, Mapping) and part in data:
            data = data[part]
        else:
            return False, None
    return True, data


def _removable(parts: list[str | int]) -> bool:
    return len(parts) == 2 or (len(parts) == 4 and parts[2] == "effects")


class PatchError(ValueError):
    """A patch that is malformed or that the engine refuses, with every problem listed."""

    def __init__(self, problems: list[Sentence]):
        """``problems``: each a ``Sentence`` the site says in the reader's language."""
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


class ChangeData(TypedDict):
    """A change as JSON: the card's code, a printed field or an ability path, and its new
    value (the field's own JSON: a number, a text, a list of keywords or abilities, or null to
    remove an ability or an effect)."""

    card: str
    field: str
    value: Any


class PatchData(TypedDict):
    """A patch as JSON (``Patch.to_dict``; ``Patch.from_dict`` reads it back)."""

    name: str
    changes: list[ChangeData]


class ChangeText(ChangeData):
    """A change with its readable line (``patch_with_text``)."""

    text: str


class PatchText(TypedDict):
    """A patch as a designer downloads it: each change with its readable line."""

    name: str
    changes: list[ChangeText]


class DiffRow(TypedDict):
    """A change as people read it (``patch_diff``): the card's name, the field's value before
    and after, the line, and for a change of the rules text that text before and after."""

    card: str
    name: str
    field: str
    new: Any
    old: Any
    text: str
    before: NotRequired[str]
    after: NotRequired[str]


@dataclass(frozen=True)
class Change:
    card: str
    field: str
    value: Any

    def to_dict(self) -> ChangeData:
        return {"card": self.card, "field": self.field, "value": self.value}


@dataclass(frozen=True)
class Patch:
    name: str
    changes: tuple[Change, ...]

    @classmethod
    def from_dict(cls, data: Any) -> Patch:
        """A well-formed patch (cards not yet checked: see ``patch_apply``)."""
        if not isinstance(data, Mapping):
            raise PatchError([Sentence(NOT_OBJECT)])
        problems: list[Sentence] = []
        name = data.get("name")
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_MAX:
            problems.append(Sentence(NO_NAME, {"limit": NAME_MAX}))
        raw = data.get("changes")
        if not isinstance(raw, list) or not raw:
            problems.append(Sentence(NO_CHANGES))
            raw = []
        changes: list[Change] = []
        seen: set[tuple[str, str]] = set()
        for i, item in enumerate(raw):
            change = _change(i, item, problems)
            if change is None:
                continue
            if (change.card, change.field) in seen:
                problems.append(Sentence(CHANGE_TWICE, {"i": i, "card": change.card,
                                                       "field": change.field}))
            seen.add((change.card, change.field))
            changes.append(change)
        if problems:
            raise PatchError(problems)
        return cls(name=str(name).strip(), changes=tuple(changes))

    def to_dict(self) -> PatchData:
        return {"name": self.name, "changes": [c.to_dict() for c in self.changes]}

    @property
    def cards(self) -> list[str]:
        """The codes of the cards it changes, in first-change order."""
        return list(dict.fromkeys(c.card for c in self.changes))


def _change(i: int, item: Any, problems: list[Sentence]) -> Change | None:
    if not isinstance(item, Mapping):
        problems.append(Sentence(CHANGE_NOT_OBJECT, {"i": i}))
        return None
    card, field = item.get("card"), item.get("field")
    ok = True
    if not isinstance(card, str) or not card.strip():
        problems.append(Sentence(CHANGE_NO_CARD, {"i": i}))
        ok = False
    if field not in PATCH_FIELDS and not is_ability_path(field):
        problems.append(Sentence(CHANGE_BAD_FIELD, {"i": i, "field": field,
                                                 "fields": ", ".join(PATCH_FIELDS)}))
        ok = False
    if "value" not in item:
        problems.append(Sentence(CHANGE_NO_VALUE, {"i": i}))
        ok = False
    if not ok or not isinstance(card, str) or not isinstance(field, str):
        return None
    value = item["value"]
    if is_ability_path(field) and value is not None and (
            not isinstance(value, int) or isinstance(value, bool)):
        problems.append(Sentence(ABILITY_VALUE, {"i": i, "card": card.strip(), "field": field}))
        return None
    return Change(card.strip(), field, value)


def load_patch(path: str | Path) -> Patch:
    """A patch from a JSON file; PatchError says what is wrong with it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PatchError([Sentence(NO_FILE, {"path": str(path)})]) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PatchError([Sentence(NOT_JSON, {"path": str(path), "error": str(exc)})]) from None
    return Patch.from_dict(data)


def patch_apply(cards: Mapping[str, Mapping[str, Any]], patch: Patch
                ) -> dict[str, dict[str, Any]]:
    """The card mapping (data form) with the patch made; PatchError lists unknown cards and
    every problem the engine has with a patched card."""
    out = {code: dict(data) for code, data in cards.items()}
    problems: list[Sentence] = []
    inside: dict[str, list[tuple[int, Change]]] = {}
    for i, change in enumerate(patch.changes):
        if change.card not in out:
            problems.append(Sentence(UNKNOWN_CARD, {"i": i, "card": change.card}))
            continue
        if is_ability_path(change.field):
            inside.setdefault(change.card, []).append((i, change))
            continue
        value = change.value
        if value is None or value == []:
            out[change.card].pop(change.field, None)   # the data form leaves empty fields out
        else:
            out[change.card][change.field] = value
    for code, changes in inside.items():
        _apply_inside(out[code], code, changes, patch, problems)
    for code in patch.cards:
        if code in out and not problems:
            try:
                CardDef.from_dict(out[code])
            except CardDataError as exc:
                problems.extend(exc.problems)
    if problems:
        raise PatchError(problems)
    return out


def _apply_inside(card: dict[str, Any], code: str, changes: list[tuple[int, Change]],
                  patch: Patch, problems: list[Sentence]) -> None:
    """Ability numbers and removals of one card, checked against its printed abilities, made
    on ``card`` (numbers first, then removals from the last position back, so every path names
    a printed position)."""
    if any(c.card == code and c.field == "abilities" for c in patch.changes):
        for i, change in changes:
            problems.append(Sentence(WHOLE_AND_PART, {"i": i, "card": code,
                                                      "field": change.field}))
        return
    printed = card.get("abilities") or []
    removed = [change.field for _, change in changes if change.value is None]
    ok = True
    for i, change in changes:
        parts = path_parts(change.field)
        found, value = _lookup(printed, parts[1:])
        params = {"i": i, "card": code, "field": change.field}
        if not found:
            problems.append(Sentence(NO_SUCH_PATH, params))
            ok = False
            continue
        outer = next((r for r in removed if r != change.field
                      and change.field.startswith(r + ".")), None)
        if outer is not None:
            problems.append(Sentence(INSIDE_REMOVED, {**params, "removed": outer}))
            ok = False
        if change.value is None:
            if not _removable(parts) or not isinstance(value, Mapping):
                problems.append(Sentence(NOT_REMOVABLE, params))
                ok = False
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            problems.append(Sentence(NOT_A_NUMBER, params))
            ok = False
            continue
        low, high = ability_number_bounds(str(parts[-1]), value)
        if not low <= change.value <= high:
            problems.append(Sentence(OUT_OF_BOUNDS, {**params, "low": low, "high": high,
                                                     "printed": value,
                                                     "value": change.value}))
            ok = False
    if not ok:
        return
    abilities = copy.deepcopy(printed)
    for _, change in changes:
        if change.value is not None:
            parts = path_parts(change.field)
            _, parent = _lookup(abilities, parts[1:-1])
            parent[parts[-1]] = change.value
    for field in sorted(removed, key=lambda f: [p for p in path_parts(f) if isinstance(p, int)],
                        reverse=True):
        parts = path_parts(field)
        _, parent = _lookup(abilities, parts[1:-1])
        del parent[parts[-1]]
    if abilities:
        card["abilities"] = abilities
    else:
        card.pop("abilities", None)


def patch_card_defs(cards: Mapping[str, CardDef], patch: Patch) -> dict[str, CardDef]:
    """The same for engine cards: a new ``{code: CardDef}`` with the patched cards rebuilt."""
    data = patch_apply({code: card.to_dict() for code, card in cards.items()
                        if code in patch.cards}, patch)
    return {**cards, **{code: CardDef.from_dict(card) for code, card in data.items()}}


def _shown(value: Any) -> str:
    if value is None or value == []:
        return "none"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return str(value)


# The fields whose change shows in the card's rules text (its keyword line and abilities).
TEXT_FIELDS = ("keywords", "abilities")
NO_TEXT = "—"                     # a side of a change with no rules text left


def reads_as_text(field: str) -> bool:
    """Whether a change of ``field`` reads as the card's rules text before → after."""
    return field in TEXT_FIELDS or is_ability_path(field)


def change_rules_text(cards: Mapping[str, Mapping[str, Any]], change: Change,
                      lang: str = "en", names: Mapping[str, str] | None = None
                      ) -> tuple[str, str]:
    """The card's rules text lines that ``change`` alone rewrites, before and after, in
    ``lang`` (generated from the data, ``rules.engine.text.card_text``): "Aura: … +1 attack." →
    "Aura: … +2 attack."; ``NO_TEXT`` for a side with no such line (an ability removed). Lines
    the change leaves alone are left out; the whole texts when it changes none."""
    data = cards.get(change.card) or {}
    patched = patch_apply({change.card: data}, Patch("one change", (change,)))[change.card]
    before = card_text(data, lang, names).split("\n") if data else []
    after = card_text(patched, lang, names).split("\n")
    gone = [line for line in before if line and line not in after]
    came = [line for line in after if line and line not in before]
    if not gone and not came:
        gone, came = [x for x in before if x], [x for x in after if x]
    return " ".join(gone) or NO_TEXT, " ".join(came) or NO_TEXT


def patch_with_text(cards: Mapping[str, Mapping[str, Any]], patch: Patch | Mapping[str, Any],
                    lang: str = "en", names: Mapping[str, str] | None = None
                    ) -> PatchText:
    """The patch's JSON form with a ``text`` beside each change (``patch_diff``'s line, in
    ``lang``): what a downloaded ``patch.json`` says to a designer; ``Patch.from_dict`` reads it
    back (the ``text`` is ignored)."""
    parsed = patch if isinstance(patch, Patch) else Patch.from_dict(patch)
    rows = patch_diff(cards, parsed, lang, names)
    return {"name": parsed.name,
            "changes": [{**c.to_dict(), "text": row["text"]}
                        for c, row in zip(parsed.changes, rows, strict=True)]}


def patch_diff(cards: Mapping[str, Mapping[str, Any]], patch: Patch, lang: str = "en",
               names: Mapping[str, str] | None = None) -> list[DiffRow]:
    """One readable line per change, from the unpatched data: "Blazing Charger: attack 3 → 4";
    a change of the rules text (keywords, abilities, a number or an effect inside them) reads
    as the card's text before → after in ``lang`` ("Aurelia the Dawn Herald: Aura: … +1 attack.
    → Aura: … +2 attack."), kept as ``before`` and ``after`` beside ``text``."""
    rows: list[DiffRow] = []
    for change in patch.changes:
        data = cards.get(change.card, {})
        name = data.get("name_en") or change.card
        if is_ability_path(change.field):
            found, old = _lookup(data.get("abilities") or [], path_parts(change.field)[1:])
            old = old if found else None
        else:
            old = data.get(change.field)
        if reads_as_text(change.field) and data:
            before, after = change_rules_text(cards, change, lang, names)
            rows.append({"card": change.card, "name": name, "field": change.field,
                         "new": change.value, "old": old, "before": before, "after": after,
                         "text": f"{name}: {before} → {after}"})
        else:
            rows.append({"card": change.card, "name": name, "field": change.field,
                         "new": change.value, "old": old,
                         "text": f"{name}: {change.field} {_shown(old)} → "
                                 f"{_shown(change.value)}"})
    return rows
