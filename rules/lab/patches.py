"""Balance patches: changes to cards' printed fields that a simulation plays with.

A patch is data::

    {"name": "Charger +1", "changes": [{"card": "C005", "field": "attack", "value": 4}]}

one entry per changed field of a card. ``patch_apply`` returns a new card mapping (data form,
``{code: {...}}``) with the changes made; every changed card is validated by the engine exactly
as a card edit is (``CardDef.from_dict``), so a patch the engine cannot play is refused with
every problem listed. Applying a patch to the card mapping of a run means every deck on both
sides plays the patched card.

Invariants: nothing here mutates its inputs or touches a catalogue; ``Patch.from_dict`` either
returns a well-formed patch or raises ``PatchError`` listing every problem; a patch's JSON form
(``to_dict``) loads back to an equal patch.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rules.engine.basics import CardDataError
from rules.engine.cards import CardDef
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
NOT_JSON = gettext_noop("{path}: not valid JSON ({error}).")
NO_FILE = gettext_noop("{path}: no such file.")


class PatchError(ValueError):
    """A patch that is malformed or that the engine refuses, with every problem listed."""

    def __init__(self, problems: list[Sentence]):
        """``problems``: each a ``Sentence`` the site says in the reader's language."""
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))


@dataclass(frozen=True)
class Change:
    card: str
    field: str
    value: Any

    def to_dict(self) -> dict[str, Any]:
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

    def to_dict(self) -> dict[str, Any]:
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
    if field not in PATCH_FIELDS:
        problems.append(Sentence(CHANGE_BAD_FIELD, {"i": i, "field": field,
                                                 "fields": ", ".join(PATCH_FIELDS)}))
        ok = False
    if "value" not in item:
        problems.append(Sentence(CHANGE_NO_VALUE, {"i": i}))
        ok = False
    if not ok or not isinstance(card, str) or not isinstance(field, str):
        return None
    return Change(card.strip(), field, item["value"])


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
    for i, change in enumerate(patch.changes):
        if change.card not in out:
            problems.append(Sentence(UNKNOWN_CARD, {"i": i, "card": change.card}))
            continue
        value = change.value
        if value is None or value == []:
            out[change.card].pop(change.field, None)   # the data form leaves empty fields out
        else:
            out[change.card][change.field] = value
    for code in patch.cards:
        if code in out and not problems:
            try:
                CardDef.from_dict(out[code])
            except CardDataError as exc:
                problems.extend(exc.problems)
    if problems:
        raise PatchError(problems)
    return out


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


def patch_diff(cards: Mapping[str, Mapping[str, Any]], patch: Patch) -> list[dict[str, Any]]:
    """One readable line per change, from the unpatched data: "Blazing Charger: attack 3 → 4"."""
    rows = []
    for change in patch.changes:
        data = cards.get(change.card, {})
        name = data.get("name_en") or change.card
        old = data.get(change.field)
        rows.append({"card": change.card, "name": name, "field": change.field, "old": old,
                     "new": change.value,
                     "text": f"{name}: {change.field} {_shown(old)} → {_shown(change.value)}"})
    return rows
