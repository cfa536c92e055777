"""The effect vocabulary's validator, normaliser and reference page.

A card designer's mistake must be caught when the card is saved, with a message that names the
exact place and what is wrong, every mistake at once. The messages are the constants of
``ability_language.py``, imported here rather than retyped, so rewording one cannot break a test.
"""

from __future__ import annotations

import json

import pytest

from rules.engine import reference
from rules.engine.ability_language import (
    ABILITY_FIELDS,
    AMOUNT_FIELDS,
    AURA_EFFECTS,
    AURA_PICKS,
    CONDITION_FIELDS,
    COUNT_FIELDS,
    EFFECTS,
    FILTER_FIELDS,
    HEROES,
    KEYWORDS,
    MSG_AURA_EFFECT,
    MSG_AURA_PICK,
    MSG_BOOL,
    MSG_CARD_FIELD,
    MSG_CARD_FORBIDDEN,
    MSG_CHOICE,
    MSG_COMBAT_ENEMY,
    MSG_CONDITION,
    MSG_EMPTY,
    MSG_INT,
    MSG_MIN_OVER_MAX,
    MSG_NEGATIVE,
    MSG_NESTED_SKIP,
    MSG_NO_SOURCE_MINION,
    MSG_NOT_LIST,
    MSG_NOT_OBJECT,
    MSG_REQUIRED,
    MSG_SIDE_FOR_PICK,
    MSG_SKIP_COMBAT_CONTEXT,
    MSG_SLEEPING,
    MSG_STRING,
    MSG_SUMMON_KIND,
    MSG_TRIGGER_KIND,
    MSG_UNKNOWN_EFFECT,
    MSG_UNKNOWN_FIELD,
    MSG_UNKNOWN_TRIGGER,
    PASSIVE_TRIGGERS,
    TARGET_DOCS,
    TARGET_FIELDS,
    TRIGGERS,
    WHOSE,
    Problem,
    normalise_abilities,
    validate_abilities,
    validate_card,
)
from rules.engine.reference_examples import FIELD_EXAMPLES, PICK_EXAMPLES


def missing_docs(lang: str) -> list[str]:
    """'section name' of every reference entry (or 'section name.field' of its fields) that
    has an English description and none in ``lang``'s catalogue (should be none)."""
    missing = []
    for e in reference.reference_entries():
        if e["doc"] and lang not in e["docs"]:
            missing.append(f"{e['section']} {e['name']}")
        missing += [f"{e['section']} {e['name']}.{f['name']}" for f in e.get("fields") or []
                    if lang not in f["docs"]]
    return missing


def missing_examples() -> list[str]:
    """'section name' of every reference entry without an example (should be none)."""
    return [f"{e['section']} {e['name']}" for e in reference.reference_entries()
            if e["example"] is None]

DRAW = {"do": "draw", "count": 1}


def _ability(*effects: dict, trigger: str = "awaken", **fields: object) -> dict:
    return {"trigger": trigger, **fields, "effects": list(effects)}


def _problems(abilities: list, kind: str = "minion") -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in validate_abilities(abilities, kind)]


def _combat_triggers(effect: dict) -> tuple[str, ...]:
    """The minion triggers an effect example may sit in: skip_combat only in combat_start,
    a combat_enemy pick only in combat_start, anything else in awaken."""
    dumped = json.dumps(effect)
    if "skip_combat" in dumped:
        return ("combat_start",)
    if "combat_enemy" in dumped:
        return ("combat_start",)
    return ("awaken",)


# ---------------------------------------------------------------- the examples are valid


@pytest.mark.parametrize("name", list(TRIGGERS))
def test_every_trigger_example_is_valid(name: str) -> None:
    """Rule: R4.4, R4.5, R4.6, R4.7 (each skill kind on the card kinds that have it)"""
    term = TRIGGERS[name]
    assert term.kinds, f"trigger {name} allows no card kind"
    # The first kind is the one examples are written for: the examples of active and ally_dies
    # target "self", which a hero (also allowed) does not have.
    assert validate_abilities([term.example], term.kinds[0]) == [], (name, term.kinds[0])


@pytest.mark.parametrize("name", list(EFFECTS))
def test_every_effect_example_is_valid(name: str) -> None:
    example = EFFECTS[name].example
    assert example["do"] == name
    for trigger in _combat_triggers(example):
        assert validate_abilities([_ability(example, trigger=trigger)]) == [], trigger


def test_every_reference_example_is_valid() -> None:
    for key, example in [*FIELD_EXAMPLES.items(), *PICK_EXAMPLES.items()]:
        kind = TRIGGERS[example["trigger"]].kinds[0]
        assert validate_abilities([example], kind) == [], key


# ---------------------------------------------------------------- one mistake, one message


def test_unknown_trigger() -> None:
    assert _problems([_ability(DRAW, trigger="on_play")]) == [
        ("abilities[0].trigger", MSG_UNKNOWN_TRIGGER.format(value="on_play",
                                                            known=", ".join(TRIGGERS)))]


def test_unknown_effect() -> None:
    assert _problems([_ability({"do": "freeze", "target": "chosen"})]) == [
        ("abilities[0].effects[0].do", MSG_UNKNOWN_EFFECT.format(value="freeze",
                                                                 known=", ".join(EFFECTS)))]


def test_missing_required_fields() -> None:
    assert _problems([{"trigger": "awaken"}]) == [("abilities[0].effects", MSG_REQUIRED)]
    assert _problems([_ability({"do": "damage_hero"})]) == [
        ("abilities[0].effects[0].amount", MSG_REQUIRED)]
    assert _problems([_ability({"do": "summon"})]) == [
        ("abilities[0].effects[0].from", MSG_REQUIRED)]


def test_wrong_types() -> None:
    assert _problems([_ability(DRAW, trigger="active", cost="1")]) == [
        ("abilities[0].cost", MSG_INT)]
    assert _problems([_ability(DRAW, sleeping="yes")]) == [("abilities[0].sleeping", MSG_BOOL)]
    assert _problems([{"trigger": "awaken", "effects": DRAW}]) == [
        ("abilities[0].effects", MSG_NOT_LIST)]
    assert _problems([_ability("draw")]) == [("abilities[0].effects[0]", MSG_NOT_OBJECT)]
    assert _problems("awaken") == [("abilities", MSG_NOT_LIST)]
    destroy = {"do": "destroy", "target": {"pick": "all", "filter": {"race": 3}}}
    assert _problems([_ability(destroy)]) == [
        ("abilities[0].effects[0].target.filter.race", MSG_STRING)]
    assert _problems([_ability({"do": "draw", "count": True})])[0][0] == \
        "abilities[0].effects[0].count"


def test_bad_enum_values() -> None:
    assert _problems([_ability({"do": "damage_hero", "amount": 1, "hero": "neither"})]) == [
        ("abilities[0].effects[0].hero",
         MSG_CHOICE.format(choices=", ".join(HEROES), value="neither"))]
    assert _problems([_ability(DRAW, trigger="turn_end", whose="mine")]) == [
        ("abilities[0].whose", MSG_CHOICE.format(choices=", ".join(WHOSE), value="mine"))]
    grant = {"do": "grant_keyword", "keyword": "taunt", "target": "self"}
    assert _problems([_ability(grant)]) == [
        ("abilities[0].effects[0].keyword",
         MSG_CHOICE.format(choices=", ".join(KEYWORDS), value="taunt"))]
    empty = {"do": "destroy", "target": {"pick": "all", "filter": {"attribute": []}}}
    assert _problems([_ability(empty)]) == [
        ("abilities[0].effects[0].target.filter.attribute", MSG_EMPTY)]


def test_unknown_field() -> None:
    assert _problems([_ability({"do": "draw", "count": 1, "cards": 2})]) == [
        ("abilities[0].effects[0].cards",
         "is not a field of the effect 'draw' (allowed: count, player)")]
    allowed = ", ".join(sorted(ABILITY_FIELDS))
    assert _problems([_ability(DRAW, cost=1)]) == [
        ("abilities[0].cost",
         MSG_UNKNOWN_FIELD["ability"].format(name="awaken", allowed=allowed))]


def test_aura_only_changes_attack_and_keywords() -> None:
    """Rule: R4.7"""
    assert _problems([_ability(DRAW, trigger="aura")]) == [
        ("abilities[0].effects[0].do",
         MSG_AURA_EFFECT.format(allowed=", ".join(AURA_EFFECTS), value="draw"))]


def test_skip_combat_only_at_combat_start() -> None:
    """Rule: R2.3.6, R2.3.5"""
    skip = {"do": "skip_combat", "effects": [DRAW]}
    assert _problems([_ability(skip, trigger="after_win")]) == [
        ("abilities[0].effects[0].do", MSG_SKIP_COMBAT_CONTEXT)]
    assert _problems([_ability(skip, trigger="combat_start")]) == []


def test_combat_enemy_only_in_combat() -> None:
    """Rule: R2.3.5, R2.3.9"""
    bounce = {"do": "return_to_hand", "target": "combat_enemy"}
    assert _problems([_ability(bounce)]) == [
        ("abilities[0].effects[0].target.pick", MSG_COMBAT_ENEMY)]
    assert _problems([_ability(bounce, trigger="after_win")]) == [
        ("abilities[0].effects[0].target.pick", MSG_COMBAT_ENEMY)]


def test_trigger_not_allowed_for_the_card_kind() -> None:
    """Rule: R1.4, R2.2.3 (items are used; heroes have no awaken or last words)"""
    assert _problems([_ability(DRAW, trigger="use")], "minion") == [
        ("abilities[0].trigger", MSG_TRIGGER_KIND.format(trigger="use", kind="minion",
                                                          kinds="item"))]
    assert _problems([_ability(DRAW, trigger="awaken")], "hero") == [
        ("abilities[0].trigger", MSG_TRIGGER_KIND.format(trigger="awaken", kind="hero",
                                                          kinds="minion"))]


def test_choose_needs_two_options() -> None:
    """Rule: R4.11"""
    problems = _problems([_ability({"do": "choose", "options": [[DRAW]]})])
    assert [path for path, _ in problems] == ["abilities[0].effects[0].options"]
    assert "at least two" in problems[0][1]   # no constant for this one in ability_language.py


def test_an_item_has_no_self() -> None:
    """Rule: R1.4 (an item is not on the board, so 'self' and 'adjacent' mean nothing)"""
    grant = {"do": "grant_keyword", "keyword": "shield", "target": "self"}
    assert _problems([_ability(grant, trigger="use")], "item") == [
        ("abilities[0].effects[0].target.pick",
         MSG_NO_SOURCE_MINION.format(pick="self", kind="item"))]


def test_condition_names_one_subject_and_a_bound() -> None:
    both = {"hero_hp": "own", "count": {"zone": "hand"}, "max": 3}
    assert _problems([_ability(DRAW, **{"if": both})]) == [("abilities[0].if", MSG_CONDITION)]
    unbounded = {"hero_hp": "own"}
    assert _problems([_ability(DRAW, **{"if": unbounded})]) == [
        ("abilities[0].if", MSG_CONDITION)]


def test_nested_paths_are_exact() -> None:
    """Mistakes inside choose options and skip_combat effects name their full path."""
    choose = {"do": "choose", "options": [[DRAW], [{"do": "draw", "count": "x"}]]}
    assert _problems([_ability(choose)])[0][0] == "abilities[0].effects[0].options[1][0].count"
    skip = {"do": "skip_combat", "effects": [{"do": "energy"}]}
    assert _problems([_ability(skip, trigger="combat_start")]) == [
        ("abilities[0].effects[0].effects[0].amount", MSG_REQUIRED)]


def test_every_problem_is_reported_at_once() -> None:
    abilities = [
        _ability(DRAW, trigger="on_play"),
        _ability({"do": "freeze"}, {"do": "draw"}, trigger="aura", sleeping=1),
        _ability({"do": "skip_combat", "effects": [DRAW]}),
    ]
    paths = [path for path, _ in _problems(abilities)]
    assert paths == ["abilities[0].trigger", "abilities[1].effects[0].do",
                     "abilities[1].effects[1].do", "abilities[1].effects[1].count",
                     "abilities[1].sleeping", "abilities[2].effects[0].do"]


def test_problems_print_as_path_and_message() -> None:
    assert str(Problem("abilities[0].trigger", "x")) == "abilities[0].trigger: x"


# ---------------------------------------------------------------- card fields (R1.4)

MINION = {"code": "m1", "kind": "minion", "cost": 2, "attack": 3, "attribute": "fire"}
HERO = {"code": "h1", "kind": "hero", "hp": 20, "attribute": "water"}
ITEM = {"code": "i1", "kind": "item", "cost": 1}


def _card_problems(card: dict) -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in validate_card(card)]


def test_well_formed_cards_pass() -> None:
    """Rule: R1.4"""
    for card in (MINION, HERO, ITEM):
        assert validate_card(card) == [], card["code"]


def test_a_minion_needs_attack() -> None:
    """Rule: R1.4"""
    card = {k: v for k, v in MINION.items() if k != "attack"}
    assert _card_problems(card) == [
        ("card m1.attack", MSG_CARD_FIELD.format(field="attack", kind="minion"))]


def test_an_item_has_no_attack() -> None:
    """Rule: R1.4"""
    assert _card_problems({**ITEM, "attack": 2}) == [
        ("card i1.attack", MSG_CARD_FORBIDDEN.format(field="attack", kind="item"))]


def test_a_hero_has_no_cost_and_needs_hp() -> None:
    """Rule: R1.4"""
    assert _card_problems({**HERO, "cost": 2}) == [
        ("card h1.cost", MSG_CARD_FORBIDDEN.format(field="cost", kind="hero"))]
    card = {k: v for k, v in HERO.items() if k != "hp"}
    assert _card_problems(card) == [("card h1.hp", MSG_CARD_FIELD.format(field="hp",
                                                                           kind="hero"))]


def test_card_values_and_abilities_are_checked_together() -> None:
    """Rule: R1.4, R1.5, R1.6"""
    card = {**MINION, "cost": -1, "attribute": "metal", "rarity": "LR",
            "abilities": [_ability(DRAW, trigger="use")]}
    assert [path for path, _ in _card_problems(card)] == [
        "card m1.cost", "card m1.attribute", "card m1.rarity", "card m1.abilities[0].trigger"]
    assert _card_problems(card)[0][1] == MSG_NEGATIVE


# ---------------------------------------------------------------- normalisation


def test_normalise_fills_defaults_and_expands_targets() -> None:
    raw = [_ability({"do": "attack", "amount": 1, "target": "self"},
                    {"do": "destroy", "target": "chosen"}, {"do": "discard", "count": 1})]
    ability = normalise_abilities(raw)[0]
    assert ability["if"] is None and ability["sleeping"] is False
    attack, destroy, discard = ability["effects"]
    assert attack["target"] == {"pick": "self", "side": "ally", "filter": None, "count": 1,
                                "other": False}
    assert attack["duration"] == "permanent"
    assert destroy["target"]["side"] == "enemy"
    assert discard == {"do": "discard", "count": 1, "player": "enemy", "pick": "random"}


def test_unhashable_trigger_is_a_problem_not_a_crash() -> None:
    assert _problems([{"trigger": ["awaken"], "effects": [DRAW]}])


def test_null_cost_is_refused() -> None:
    assert _problems([_ability(DRAW, trigger="active", cost=None)]) == [
        ("abilities[0].cost", MSG_INT)]


# ---------------------------------------------------------------- the reference page


def test_reference_covers_every_term() -> None:
    entries = reference.reference_entries()
    names = {(e["section"], e["name"]) for e in entries}
    expected = {("trigger", n) for n in TRIGGERS} | {("effect", n) for n in EFFECTS}
    expected |= {("ability_field", n) for n in ABILITY_FIELDS}
    expected |= {("ability_field", n) for t in TRIGGERS.values() for n in t.fields}
    expected |= {("target_pick", n) for n in TARGET_DOCS}
    for section, registry in (("target_field", TARGET_FIELDS), ("filter_field", FILTER_FIELDS),
                              ("count_field", COUNT_FIELDS), ("amount_field", AMOUNT_FIELDS),
                              ("condition_field", CONDITION_FIELDS)):
        expected |= {(section, n) for n in registry}
    assert expected <= names
    assert missing_examples() == []
    json.dumps(entries)   # the website can serve them as they are
    for entry in entries:
        assert entry["texts"]["en"] and entry["texts"]["zh-hans"], entry["name"]


def test_every_term_and_field_is_described_in_chinese_too() -> None:
    """The reference page reads in the reader's language: each English description of a term
    or a field has its Chinese one (the catalogue rules/locale/zh-hans.json)."""
    assert missing_docs("zh-hans") == []
    first = next(e for e in reference.reference_entries() if e["name"] == "active")
    assert first["docs"]["zh-hans"].startswith("控制者每回合可使用一次")
    assert [f["docs"]["zh-hans"] for f in first["fields"]] == ["使用它需支付的能量"]


def test_reference_names_rule_ids() -> None:
    """Rule: R4.4, R2.3.6, R4.11"""
    rules = {(e["section"], e["name"]): e["rule"] for e in reference.reference_entries()}
    assert rules[("trigger", "awaken")] == "R4.4"
    assert rules[("effect", "skip_combat")] == "R2.3.6"
    assert rules[("effect", "choose")] == "R4.11"
    assert rules[("ability_field", "sleeping")] == "R4.1"


def test_committed_vocabulary_page_is_up_to_date() -> None:
    committed = reference.PAGE.read_text(encoding="utf-8")
    assert committed == reference.reference_markdown(), (
        f"{reference.PAGE.name} is out of date: run `{reference.REGENERATE}` and commit it")


@pytest.mark.parametrize("ability, path, message", [
    ({"effects": [DRAW]}, "abilities[0].trigger", MSG_REQUIRED),
    ({"trigger": "awaken", "effects": [{"count": 1}]}, "abilities[0].effects[0].do",
     MSG_REQUIRED),
    ({"trigger": "awaken", "effects": [{"do": "draw", "count": -2}]},
     "abilities[0].effects[0].count", MSG_NEGATIVE),
    ({"trigger": "active", "cost": -1, "effects": [DRAW]}, "abilities[0].cost", MSG_NEGATIVE),
    ({"trigger": "awaken", "sleeping": True, "effects": [DRAW]}, "abilities[0].sleeping",
     MSG_SLEEPING.format(allowed=", ".join(PASSIVE_TRIGGERS))),
    ({"trigger": "aura", "effects": [{"do": "attack", "amount": 1, "target": "chosen"}]},
     "abilities[0].effects[0].target.pick",
     MSG_AURA_PICK.format(allowed=", ".join(AURA_PICKS), value="chosen")),
    ({"trigger": "awaken", "effects": [{"do": "attack", "amount": 1,
                                        "target": {"pick": "self", "side": "enemy"}}]},
     "abilities[0].effects[0].target.side", MSG_SIDE_FOR_PICK.format(pick="self")),
    ({"trigger": "combat_start", "effects": [{"do": "skip_combat", "effects": [
        {"do": "skip_combat", "effects": [DRAW]}]}]},
     "abilities[0].effects[0].effects[0].do", MSG_NESTED_SKIP),
    ({"trigger": "awaken", "effects": [{"do": "summon", "from": "deck",
                                        "filter": {"kind": "item"}}]},
     "abilities[0].effects[0].filter.kind", MSG_SUMMON_KIND),
    ({"trigger": "awaken", "if": {"hero_hp": "own", "min": 5, "max": 2}, "effects": [DRAW]},
     "abilities[0].if", MSG_MIN_OVER_MAX),
])
def test_meaningless_values_are_refused(ability, path, message) -> None:
    assert (path, message) in _problems([ability])


def test_normalising_twice_changes_nothing() -> None:
    from rules.engine.ability_language import normalise_abilities, normalise_filter

    flt = normalise_filter({"race": ["dragon", "beast"], "cost_max": 3})
    assert normalise_filter(flt) == flt
    once = normalise_abilities([{"trigger": "awaken", "effects": [
        {"do": "destroy", "target": {"pick": "chosen", "filter": {"race": "dragon"}}}]}])
    assert once[0]["effects"][0]["target"]["filter"] == {"race": ("dragon",)}
