"""Examples for the vocabulary reference of the terms whose registry entry has none.

Triggers and effects carry their own example in ``ability_language.py``; fields, target picks and
filters do not, so they are given here, each as a whole ability (the field only means something
in context). Invariant: every example here is valid for the card kind of its trigger (a test
runs the validator over them) and uses the field it illustrates.
"""

from __future__ import annotations

from typing import Any


def _use(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"trigger": "use", "effects": list(effects)}


def _awaken(*effects: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"trigger": "awaken", **fields, "effects": list(effects)}


_DRAW = {"do": "draw", "count": 1}
_DRAGONS = {"zone": "minions", "filter": {"race": "dragon"}}

PICK_EXAMPLES: dict[str, dict[str, Any]] = {
    "self": _awaken({"do": "grant_keyword", "keyword": "shield", "target": "self"}),
    "chosen": _use({"do": "return_to_hand", "target": "chosen"}),
    "random": {"trigger": "last_words", "effects": [
        {"do": "attack", "amount": -1, "target": {"pick": "random", "count": 2}}]},
    "all": _awaken({"do": "destroy", "target": {"pick": "all", "side": "any",
                                                "filter": {"attack_max": 1}}}),
    "leftmost": _use({"do": "destroy", "target": "leftmost"}),
    "rightmost": _awaken({"do": "awaken", "target": {"pick": "rightmost", "side": "ally",
                                                     "filter": {"awake": False}}}),
    "adjacent": {"trigger": "aura", "effects": [
        {"do": "grant_keyword", "keyword": "shield", "target": "adjacent"}]},
    "combat_enemy": {"trigger": "combat_start", "effects": [
        {"do": "attack", "amount": -2, "target": "combat_enemy", "duration": "turn"}]},
}

FIELD_EXAMPLES: dict[tuple[str, str], dict[str, Any]] = {
    # ability fields (and the fields of one trigger: cost, whose)
    ("ability_field", "effects"): _awaken(_DRAW, {"do": "energy", "amount": 1}),
    ("ability_field", "if"): _awaken({"do": "draw", "count": 2}, **{"if": {
        "count": _DRAGONS, "min": 2}}),
    ("ability_field", "sleeping"): {"trigger": "turn_start", "sleeping": True,
                                    "effects": [{"do": "heal_hero", "amount": 1}]},
    ("ability_field", "cost"): {"trigger": "active", "cost": 2, "effects": [
        {"do": "destroy", "target": {"pick": "chosen", "filter": {"attack_max": 2}}}]},
    ("ability_field", "whose"): {"trigger": "turn_end", "whose": "enemy",
                                 "effects": [{"do": "damage_hero", "amount": 1}]},
    # target fields
    ("target_field", "pick"): _use({"do": "destroy", "target": {"pick": "chosen"}}),
    ("target_field", "side"): _use({"do": "return_to_hand", "target": {"pick": "chosen",
                                                                       "side": "any"}}),
    ("target_field", "filter"): _use({"do": "destroy", "target": {
        "pick": "chosen", "filter": {"attribute": "water", "attack_max": 4}}}),
    ("target_field", "count"): _use({"do": "attack", "amount": -1, "duration": "turn",
                                     "target": {"pick": "random", "count": 3}}),
    ("target_field", "other"): _awaken({"do": "grant_keyword", "keyword": "react", "target": {
        "pick": "chosen", "side": "ally", "other": True}}),
    # filter fields
    ("filter_field", "attribute"): _use({"do": "destroy", "target": {
        "pick": "all", "filter": {"attribute": ["fire", "grass"]}}}),
    ("filter_field", "rarity"): _use({"do": "return_to_hand", "target": {
        "pick": "chosen", "filter": {"rarity": ["SSR", "UR"]}}}),
    ("filter_field", "kind"): _awaken({"do": "display", "count": 2, "filter": {"kind": "item"}}),
    ("filter_field", "keyword"): _use({"do": "destroy", "target": {
        "pick": "chosen", "filter": {"keyword": "shield"}}}),
    ("filter_field", "faction"): _awaken({"do": "attack", "amount": 1, "target": {
        "pick": "all", "side": "ally", "filter": {"faction": "dawn"}}}),
    ("filter_field", "race"): _awaken({"do": "summon", "from": "hand", "filter": {
        "race": "dragon"}}),
    ("filter_field", "cost_min"): _awaken({"do": "summon", "from": "deck", "filter": {
        "cost_min": 4}, "awake": True}),
    ("filter_field", "cost_max"): _awaken({"do": "display", "count": 1, "filter": {
        "cost_max": 2}, "pick": "random"}),
    ("filter_field", "attack_min"): _use({"do": "destroy", "target": {
        "pick": "all", "side": "any", "filter": {"attack_min": 5}}}),
    ("filter_field", "attack_max"): _use({"do": "mind_control", "target": {
        "pick": "chosen", "filter": {"attack_max": 2}}}),
    ("filter_field", "awake"): _use({"do": "destroy", "target": {
        "pick": "chosen", "filter": {"awake": False}}}),
    # count fields, shown in amounts and conditions
    ("count_field", "zone"): _awaken({"do": "damage_hero", "amount": {
        "count": {"zone": "graveyard"}}}),
    ("count_field", "side"): _awaken({"do": "draw", "count": {
        "count": {"zone": "minions", "side": "enemy"}}}),
    ("count_field", "filter"): _awaken({"do": "attack", "target": "self", "amount": {
        "count": {"zone": "hand", "filter": {"kind": "item"}}}}),
    # amount fields
    ("amount_field", "count"): {"trigger": "last_words", "effects": [
        {"do": "damage_hero", "amount": {"count": {"zone": "minions"}}}]},
    ("amount_field", "times"): _awaken({"do": "heal_hero", "amount": {
        "count": _DRAGONS, "times": 2}}),
    ("amount_field", "plus"): {"trigger": "combat_start", "effects": [
        {"do": "attack", "target": "self", "duration": "turn", "amount": {
            "count": {"zone": "minions", "side": "enemy"}, "plus": 1}}]},
    ("amount_field", "max"): _awaken({"do": "draw", "count": {
        "count": {"zone": "graveyard", "filter": {"race": "dragon"}}, "max": 3}}),
    # condition fields
    ("condition_field", "count"): _awaken({"do": "energy", "amount": 1}, **{"if": {
        "count": {"zone": "hand"}, "max": 2}}),
    ("condition_field", "hero_hp"): {"trigger": "aura", "if": {"hero_hp": "own", "max": 10},
                                     "effects": [{"do": "attack", "amount": 2,
                                                  "target": "self"}]},
    ("condition_field", "min"): _awaken(_DRAW, **{"if": {
        "count": {"zone": "minions", "side": "enemy"}, "min": 3}}),
    ("condition_field", "max"): {"trigger": "aura", "if": {
        "count": {"zone": "minions", "side": "ally"}, "max": 1}, "effects": [
        {"do": "grant_keyword", "keyword": "shield", "target": "self"}]},
}
