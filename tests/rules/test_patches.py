"""Balance patches as data: what a patch file may say, how it changes cards, how it reads."""

from __future__ import annotations

import json

import pytest

from rules.decks.cardset import TEST_SET, load_card_set
from rules.lab import patches
from rules.lab.match import run_match
from rules.lab.patches import (
    Patch,
    PatchError,
    load_patch,
    patch_apply,
    patch_card_defs,
    patch_diff,
)

CARDS = load_card_set(TEST_SET)
DATA = {code: card.to_dict() for code, card in CARDS.cards.items()}
PUP_PLUS_ONE = {"name": "Pup +1", "changes": [{"card": "T-M01", "field": "attack", "value": 3}]}


def test_a_patch_changes_the_card_everywhere_and_leaves_the_input_alone():
    patched = patch_apply(DATA, Patch.from_dict(PUP_PLUS_ONE))
    assert patched["T-M01"]["attack"] == 3
    assert DATA["T-M01"]["attack"] == 2          # the unpatched mapping is untouched
    assert patched["T-M02"] == DATA["T-M02"]


def test_the_diff_reads_like_a_card_change():
    patch = Patch.from_dict({"name": "Mixed", "changes": [
        {"card": "T-M01", "field": "attack", "value": 3},
        {"card": "T-M01", "field": "keywords", "value": ["shield", "react"]},
        {"card": "T-M05", "field": "rarity", "value": "SR"}]})
    texts = [row["text"] for row in patch_diff(DATA, patch)]
    assert texts == ["Ember Pup: attack 2 → 3", "Ember Pup: — → Shield. Re-act.",
                     "Dusk Stalker: rarity R → SR"]


def test_the_json_form_round_trips_and_loads_from_a_file(tmp_path):
    patch = Patch.from_dict(PUP_PLUS_ONE)
    assert Patch.from_dict(json.loads(json.dumps(patch.to_dict()))) == patch
    path = tmp_path / "pup.json"
    path.write_text(json.dumps(PUP_PLUS_ONE), encoding="utf-8")
    assert load_patch(path) == patch


@pytest.mark.parametrize("data, message", [
    ([], patches.NOT_OBJECT),
    ({"changes": PUP_PLUS_ONE["changes"]}, patches.NO_NAME.format(limit=patches.NAME_MAX)),
    ({"name": "x", "changes": []}, patches.NO_CHANGES.format()),
    ({"name": "x", "changes": [3]}, patches.CHANGE_NOT_OBJECT.format(i=0)),
    ({"name": "x", "changes": [{"field": "attack", "value": 1}]},
     patches.CHANGE_NO_CARD.format(i=0)),
    ({"name": "x", "changes": [{"card": "T-M01", "field": "name_en", "value": "Big Pup"}]},
     patches.CHANGE_BAD_FIELD.format(i=0, field="name_en",
                                     fields=", ".join(patches.PATCH_FIELDS))),
    ({"name": "x", "changes": [{"card": "T-M01", "field": "attack"}]},
     patches.CHANGE_NO_VALUE.format(i=0)),
    ({"name": "x", "changes": [{"card": "T-M01", "field": "attack", "value": 3},
                               {"card": "T-M01", "field": "attack", "value": 4}]},
     patches.CHANGE_TWICE.format(i=1, card="T-M01", field="attack")),
])
def test_malformed_patches_say_what_to_fix(data, message):
    with pytest.raises(PatchError) as caught:
        Patch.from_dict(data)
    assert message in [str(problem) for problem in caught.value.problems]


@pytest.mark.parametrize("change, fragment", [
    ({"card": "T-M01", "field": "attack", "value": -1}, "T-M01.attack"),
    ({"card": "T-M01", "field": "attack", "value": "4"}, "T-M01.attack"),
    ({"card": "T-M01", "field": "attribute", "value": "metal"}, "metal"),
    ({"card": "T-M01", "field": "keywords", "value": ["flying"]}, "flying"),
    ({"card": "T-M01", "field": "hp", "value": 3}, "T-M01.hp"),          # minions have no HP
    ({"card": "T-M01", "field": "abilities", "value": [{"trigger": "never"}]}, "T-M01"),
])
def test_the_engine_refuses_a_patched_card_it_could_not_play(change, fragment):
    with pytest.raises(PatchError) as caught:
        patch_apply(DATA, Patch.from_dict({"name": "bad", "changes": [change]}))
    assert any(fragment in str(problem) for problem in caught.value.problems)


def test_a_card_that_is_not_there_is_named():
    patch = Patch.from_dict({"name": "x", "changes": [{"card": "Z-99", "field": "cost",
                                                       "value": 1}]})
    with pytest.raises(PatchError) as caught:
        patch_apply(DATA, patch)
    assert [str(problem) for problem in caught.value.problems] == [
        patches.UNKNOWN_CARD.format(i=0, card="Z-99")]


def test_both_decks_play_the_patched_card():
    """Ember Pup is in both test decks: with 0 attack neither side wins with it as before."""
    cards = patch_card_defs(CARDS.cards, Patch.from_dict(
        {"name": "Pup 9", "changes": [{"card": "T-M01", "field": "attack", "value": 9}]}))
    assert cards["T-M01"].attack == 9 and CARDS.cards["T-M01"].attack == 2
    dawn, dusk = CARDS.deck("Dawn Test"), CARDS.deck("Dusk Test")
    before = run_match(CARDS.cards, dawn, dusk, games=20, seed=3, agent_a="greedy",
                       agent_b="greedy")
    after = run_match(cards, dawn, dusk, games=20, seed=3, agent_a="greedy", agent_b="greedy")
    assert before.counts() != after.counts()
    assert after.cards["b"]["T-M01"][0] > 0    # the opponent played the patched Pup too


# R1.4: a card's skills are part of its printed fields; a patch may change the numbers inside
# them or remove one effect or skill, and the card's rules text is generated from the result.
def test_r1_4_a_patch_moves_a_number_inside_an_ability_and_the_text_follows():
    patch = Patch.from_dict({"name": "Squire", "changes": [
        {"card": "T-M04", "field": "abilities.0.effects.0.count", "value": 2},
        {"card": "T-H01", "field": "abilities.0.cost", "value": 0}]})
    patched = patch_apply(DATA, patch)
    assert patched["T-M04"]["abilities"][0]["effects"][0]["count"] == 2
    assert patched["T-H01"]["abilities"][0]["cost"] == 0          # a free active is allowed
    assert DATA["T-M04"]["abilities"][0]["effects"][0]["count"] == 1
    rows = patch_diff(DATA, patch)
    assert rows[0]["old"] == 1 and rows[0]["new"] == 2
    assert rows[0]["text"] == "Dawn Squire: Awaken: Draw a card. → Awaken: Draw 2 cards."
    zh = patch_diff(DATA, patch, "zh-hans")[0]
    assert zh["before"] != rows[0]["before"] and "2" in zh["after"]


def test_r1_4_removing_an_ability_leaves_the_card_without_it():
    patch = Patch.from_dict({"name": "Quiet", "changes": [
        {"card": "T-M07", "field": "abilities.0", "value": None}]})
    patched = patch_apply(DATA, patch)
    assert "abilities" not in patched["T-M07"]
    row = patch_diff(DATA, patch)[0]
    assert row["after"] == patches.NO_TEXT and row["before"].startswith("Last words")


def test_r1_4_an_effect_of_several_is_removed_alone():
    data = {**DATA, "T-M04": {**DATA["T-M04"], "abilities": [{"trigger": "awaken", "effects": [
        {"do": "draw", "count": 1}, {"do": "heal_hero", "amount": 2}]}]}}
    patched = patch_apply(data, Patch.from_dict({"name": "x", "changes": [
        {"card": "T-M04", "field": "abilities.0.effects.0", "value": None},
        {"card": "T-M04", "field": "abilities.0.effects.1.amount", "value": 3}]}))
    assert patched["T-M04"]["abilities"] == [
        {"trigger": "awaken", "effects": [{"do": "heal_hero", "amount": 3}]}]


def test_r1_4_a_malformed_ability_change_is_refused_with_every_problem():
    with pytest.raises(PatchError) as caught:
        patch_apply(DATA, Patch.from_dict({"name": "x", "changes": [
            {"card": "T-M04", "field": "abilities.0.effects.0.count", "value": 0},
            {"card": "T-M04", "field": "abilities.3.cost", "value": 1},
            {"card": "T-H01", "field": "abilities.0.cost", "value": -1},
            {"card": "T-H02", "field": "abilities.0.effects.0.amount", "value": 100},
            {"card": "T-M07", "field": "abilities.0.trigger", "value": 2},
            {"card": "T-M08", "field": "abilities.0.effects.0.target", "value": None},
            {"card": "T-M09", "field": "abilities.0", "value": None},
            {"card": "T-M09", "field": "abilities.0.effects.0.amount", "value": 3}]}))
    said = [str(p) for p in caught.value.problems]
    assert said == [
        "changes[0].value: T-M04.abilities.0.effects.0.count must lie within 1 … 10 "
        "(printed 1); got 0.",
        "changes[1].field: T-M04 has no abilities.3.cost.",
        "changes[2].value: T-H01.abilities.0.cost must lie within 0 … 10 (printed 2); got -1.",
        "changes[3].value: T-H02.abilities.0.effects.0.amount must lie within 1 … 10 "
        "(printed 1); got 100.",
        "changes[4].field: T-M07.abilities.0.trigger is not a whole number of its abilities.",
        "changes[5].field: T-M08.abilities.0.effects.0.target is neither an ability nor an "
        "effect; only those can be removed (value null).",
        "changes[7]: T-M09.abilities.0.effects.0.amount lies inside abilities.0, which the "
        "patch removes."]
    with pytest.raises(PatchError) as caught:
        Patch.from_dict({"name": "x", "changes": [
            {"card": "T-M04", "field": "abilities.0.effects.0.count", "value": "2"}]})
    assert "takes a whole number" in str(caught.value)


def test_r1_4_a_negative_amount_keeps_its_sign():
    assert patches.ability_number_bounds("amount", -2) == (-10, -1)
    assert patches.ability_number_bounds("cost_max", 3) == (0, 10)
    assert patches.ability_number_bounds("min", 6) == (1, 12)
