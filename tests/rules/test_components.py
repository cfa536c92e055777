"""R1 Components: zones, the graveyard, card kinds and fields, attributes, rarities."""

from __future__ import annotations

import itertools

import pytest

from rules.engine import (
    ATTRIBUTES,
    RARITIES,
    Action,
    CardDataError,
    CardDef,
    Game,
    has_advantage,
)
from tests.rules.helpers import TEST, act, attack, awake, board, cards, item, make, view


def test_r1_1_each_player_has_every_zone_and_five_minion_slots():
    game = Game(TEST.cards, list(TEST.decks.values()), seed=3)
    seen = view(game, 0)
    for zone in ("hero", "hp", "energy", "hand", "deck_size", "display", "graveyard", "minions"):
        assert zone in seen["me"]
    for zone in ("hero", "hp", "hand_size", "deck_size", "display", "graveyard", "minions"):
        assert zone in seen["enemy"]
    assert len(seen["me"]["minions"]) == 5 and len(seen["enemy"]["minions"]) == 5


def test_r1_1_slots_are_numbered_left_to_right_from_zero():
    game = make({"hand": ["F3"], "minions": [awake("W2")]}, {"minions": [awake("G2")]})
    places = {a.b for a in game.legal_actions() if a.kind == "place"}
    assert places == {1, 2, 3, 4}                      # slot 0 holds W2
    act(game, Action("place", 0, 4))
    assert board(game, 0) == ["W2", None, None, None, "F3"]


def test_r1_3_destroyed_discarded_and_used_cards_go_to_the_graveyard():
    bolt = item("BOLT", [{"do": "destroy", "target": "chosen"}])
    toss = item("TOSS", [{"do": "discard", "count": 1, "player": "own"}])
    game = make({"hand": ["BOLT", "TOSS", "F3"], "minions": [awake("W2")]},
                {"minions": [awake("G2"), awake("G3")]}, bolt, toss)
    act(game, Action("item", 0), Action("target", 1, 1))      # BOLT destroys G3
    assert view(game, 1)["me"]["graveyard"] == ["G3"]
    assert view(game, 0)["me"]["graveyard"] == ["BOLT"]        # a used item
    act(game, Action("item", 0))                              # TOSS discards F3 (the only card)
    assert view(game, 0)["me"]["graveyard"] == ["BOLT", "F3", "TOSS"]


def test_r1_4_each_card_kind_has_its_fields():
    hero = CardDef.from_dict({"code": "H", "kind": "hero", "hp": 18, "attribute": "water",
                              "rarity": "SR", "faction": "dusk", "race": "spirit"})
    assert (hero.hp, hero.attribute, hero.rarity, hero.faction, hero.race) == \
        (18, "water", "SR", "dusk", "spirit")
    minion = CardDef.from_dict({"code": "M", "kind": "minion", "cost": 2, "attack": 3,
                                "attribute": "fire", "rarity": "R", "faction": "dawn",
                                "race": "beast"})
    assert (minion.cost, minion.attack, minion.attribute) == (2, 3, "fire")
    thing = CardDef.from_dict({"code": "I", "kind": "item", "cost": 1, "rarity": "N",
                               "abilities": [{"trigger": "use",
                                              "effects": [{"do": "draw", "count": 1}]}]})
    assert (thing.cost, thing.kind) == (1, "item")


@pytest.mark.parametrize("data", [
    {"code": "H", "kind": "hero", "attribute": "fire"},                    # no HP
    {"code": "H", "kind": "hero", "hp": 20},                               # no attribute
    {"code": "H", "kind": "hero", "hp": 20, "attribute": "fire", "cost": 2},
    {"code": "M", "kind": "minion", "attack": 1, "attribute": "fire"},     # no cost
    {"code": "M", "kind": "minion", "cost": 1, "attribute": "fire"},       # no attack
    {"code": "M", "kind": "minion", "cost": 1, "attack": 1, "attribute": "fire", "hp": 3},
    {"code": "I", "kind": "item", "cost": 1, "attack": 2},
    {"code": "I", "kind": "item", "cost": 1, "attribute": "fire"},
    {"code": "X", "kind": "spell", "cost": 1},
])
def test_r1_4_a_card_missing_or_misusing_a_field_is_refused(data):
    with pytest.raises(CardDataError):
        CardDef.from_dict(data)


def test_r1_5_the_advantage_cycle_is_fire_grass_water():
    beats = {(a, b) for a, b in itertools.product(ATTRIBUTES, repeat=2) if has_advantage(a, b)}
    assert beats == {("fire", "grass"), ("grass", "water"), ("water", "fire")}


def test_r1_5_light_and_dark_have_no_advantage_relation():
    for other in ATTRIBUTES:
        for neutral in ("light", "dark"):
            assert not has_advantage(neutral, other) and not has_advantage(other, neutral)


@pytest.mark.parametrize(("attacker", "defender", "survivor"), [
    ("F2", "G3", "F2"),       # fire beats grass: 4 > 3
    ("G2", "W3", "G2"),       # grass beats water
    ("W2", "F3", "W2"),       # water beats fire
    ("F2", "W3", "W3"),       # fire is beaten by water: 2 < 6
    ("L2", "D3", "D3"),       # no relation: 2 < 3
    ("D2", "F3", "F3"),
])
def test_r1_5_the_cycle_decides_combats(attacker, defender, survivor):
    game = make({"minions": [awake(attacker)]}, {"minions": [awake(defender), awake("L0")]})
    attack(game, 0, 0)
    survivors = [m for m in board(game, 0) + board(game, 1) if m not in (None, "L0")]
    assert survivors == [survivor]


def test_r1_6_rarities_run_from_n_to_ur():
    assert RARITIES == ("N", "R", "SR", "SSR", "UR")
    for rarity in RARITIES:
        assert CardDef.from_dict({"code": "M", "kind": "minion", "cost": 1, "attack": 1,
                                  "attribute": "fire", "rarity": rarity}).rarity == rarity
    with pytest.raises(CardDataError):
        CardDef.from_dict({"code": "M", "kind": "minion", "cost": 1, "attack": 1,
                           "attribute": "fire", "rarity": "LR"})


def test_r1_4_the_test_set_cards_have_their_kinds_fields():
    for card in cards().values():
        if card.kind == "hero":
            assert card.hp > 0 and card.attribute in ATTRIBUTES
        elif card.kind == "minion":
            assert card.attribute in ATTRIBUTES and card.cost >= 0
        else:
            assert card.attribute is None and card.attack == 0
