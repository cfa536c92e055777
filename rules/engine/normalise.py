"""Normalisation: valid ability data with every default filled in and shorthands expanded.

Invariant: only called on data the validator accepted; idempotent (normalising normalised data
changes nothing), and the result is the engine's working form (plain dicts and tuples).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engine.effect_definitions import EFFECTS
from rules.engine.term_registry import FILTER_FIELDS, TRIGGERS

_DEFAULT_SIDE = {"self": "ally", "adjacent": "ally"}


def normalise_target(value: Any) -> dict[str, Any]:
    target = {"pick": value} if isinstance(value, str) else dict(value)
    target.setdefault("side", _DEFAULT_SIDE.get(target["pick"], "enemy"))
    target["filter"] = normalise_filter(target.get("filter"))
    target.setdefault("count", 1)
    target.setdefault("other", False)
    return target


def normalise_filter(value: Any) -> dict[str, Any] | None:
    if not value:
        return None
    out: dict[str, Any] = {}
    for key, item in value.items():
        if FILTER_FIELDS[key].type == "values":
            out[key] = tuple(item) if isinstance(item, (list, tuple)) else (item,)
        else:
            out[key] = item
    return out


def _normalise_amount(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {"count": _normalise_count(value["count"]), "times": value.get("times", 1),
                "plus": value.get("plus", 0), "max": value.get("max")}
    return value


def _normalise_count(value: Mapping[str, Any]) -> dict[str, Any]:
    return {"zone": value["zone"], "side": value.get("side", "ally"),
            "filter": normalise_filter(value.get("filter"))}


def _normalise_condition(value: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if value is None:
        return None
    out = dict(value)
    if "count" in out:
        out["count"] = _normalise_count(out["count"])
    return out


def normalise_effects(effects: list[Any]) -> tuple[dict[str, Any], ...]:
    out = []
    for effect in effects:
        spec = EFFECTS[effect["do"]].fields
        item: dict[str, Any] = {"do": effect["do"]}
        for key, fspec in spec.items():
            value = effect.get(key, fspec.default)
            if fspec.type == "target":
                value = normalise_target(value)
            elif fspec.type == "amount":
                value = _normalise_amount(value)
            elif fspec.type == "filter":
                value = normalise_filter(value)
            elif fspec.type == "effects":
                value = normalise_effects(value)
            elif fspec.type == "options":
                value = tuple(normalise_effects(option) for option in value)
            item[key] = value
        out.append(item)
    return tuple(out)


def normalise_abilities(abilities: list[Any]) -> list[dict[str, Any]]:
    """Valid ability data with every default filled in (the engine's working form)."""
    out = []
    for ability in abilities:
        term = TRIGGERS[ability["trigger"]]
        item: dict[str, Any] = {"trigger": ability["trigger"],
                "effects": normalise_effects(ability["effects"]),
                "if": _normalise_condition(ability.get("if")),
                "sleeping": ability.get("sleeping", False)}
        for key, fspec in term.fields.items():
            item[key] = ability.get(key, fspec.default)
        out.append(item)
    return out
