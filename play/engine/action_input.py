"""An action as a client sends it, read strictly into the engine's ``Action``.

``Action.from_dict`` is the engine's own reader, lenient for its own logs: it took ``0.9``,
``"0"`` and ``true`` as card 0, ignored unknown keys, read ``-1`` as the hero and raised
``OverflowError`` (a 500) on ``1e400``. A person's action is read here instead: ``kind`` one of
the engine's action kinds, exactly that kind's fields, each a whole number (a JSON integer, not
a boolean) from 0 to ``MAX_INDEX``, an attack's ``target`` a slot or ``"hero"``. Every problem
is reported by field, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from play.errors import (
    NEEDED,
    NO_FIELDS,
    NOT_AN_OBJECT,
    NOT_TAKEN,
    SLOT_OR_HERO,
    UNKNOWN_KIND,
    WHOLE_NUMBER,
    PlayError,
)
from rules.engine import Action
from rules.engine.actions import ARGUMENTS, HERO

MAX_INDEX = 999     # a position in a hand, a slot row, options, abilities: far above any game's
HERO_NAME = "hero"


class ActionInputError(PlayError):
    """What is wrong with a sent action, by field (``problems``)."""

    def __init__(self, problems: Mapping[str, str]):
        self.problems = dict(problems)
        super().__init__(" ".join(f"{name}: {text}" for name, text in self.problems.items()),
                         "action")


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, float) else f"{value:g}"
    return text if len(text) <= 40 else text[:37] + "..."


def _number(kind: str, name: str, value: Any) -> tuple[int | None, str | None]:
    if name == "target" and kind == "attack" and value == HERO_NAME:
        return HERO, None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_INDEX:
        return value, None
    template = SLOT_OR_HERO if name == "target" and kind == "attack" else WHOLE_NUMBER
    return None, str(template).format(max=MAX_INDEX, value=_shown(value))


def action_read(data: Any) -> Action:
    """The engine's action for ``data`` (a parsed JSON object), or ``ActionInputError``."""
    if isinstance(data, Action):
        return data
    if not isinstance(data, Mapping):
        raise ActionInputError({"action": str(NOT_AN_OBJECT)})
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in ARGUMENTS:
        raise ActionInputError({"kind": str(UNKNOWN_KIND).format(known=", ".join(ARGUMENTS),
                                                                 value=_shown(kind))})
    fields = ARGUMENTS[kind]
    problems: dict[str, str] = {}
    values: list[int] = []
    for name in fields:
        if name not in data:
            problems[name] = str(NEEDED).format(kind=kind)
            continue
        value, problem = _number(kind, name, data[name])
        if problem is not None:
            problems[name] = problem
        elif value is not None:
            values.append(value)
    taken = ", ".join(fields) if fields else str(NO_FIELDS)
    for name in data:
        if name != "kind" and name not in fields:
            problems[str(name)[:40]] = str(NOT_TAKEN).format(kind=kind, field=str(name)[:40],
                                                             fields=taken)
    if problems:
        raise ActionInputError(problems)
    return Action(kind, *values)


def action_schema() -> dict[str, Any]:
    """The OpenAPI schema of an action (every kind's fields; an attack's target may be
    "hero")."""
    index = {"type": "integer", "minimum": 0, "maximum": MAX_INDEX}
    names = sorted({name for fields in ARGUMENTS.values() for name in fields})
    properties: dict[str, Any] = {"kind": {"type": "string", "enum": list(ARGUMENTS)}}
    for name in names:
        properties[name] = dict(index)
    properties["target"] = {"oneOf": [dict(index), {"type": "string", "enum": [HERO_NAME]}],
                            "description": 'An attack\'s target: an enemy slot or "hero".'}
    kinds = "; ".join(f"{kind}: {', '.join(fields) or '-'}" for kind, fields in ARGUMENTS.items())
    return {"type": "object", "required": ["kind"], "additionalProperties": False,
            "properties": properties,
            "description": ("One of the legal actions (the state's `actions`), exactly the "
                            f"fields of its kind: {kinds}.")}
