"""Card models: what each kind must and must not have (R1.4), enforced by the database and by
clean() with the engine's messages; the adapter to the engine; the data version."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from cards.models import NAMES_NEED_ENGLISH, Card
from cards.selectors import card_data_version, card_defs
from rules.decks.cardset import TEST_SET, load_card_set
from rules.engine.ability_language import MSG_CARD_FIELD, MSG_CARD_FORBIDDEN, MSG_TRIGGER_KIND


def _minion(test_set, **changes) -> Card:
    card = Card.objects.get(code="T-M01")
    for key, value in changes.items():
        setattr(card, key, value)
    return card


@pytest.mark.parametrize("code, changes", [
    ("T-H01", {"cost": 2}),          # a hero has no cost
    ("T-H01", {"attack": 2}),        # nor attack
    ("T-H01", {"hp": None}),         # but needs HP
    ("T-H01", {"attribute": None}),  # and an attribute
    ("T-M01", {"hp": 5}),            # a minion has no HP
    ("T-M01", {"cost": None}),       # but a cost,
    ("T-M01", {"attack": None}),     # an attack
    ("T-M01", {"attribute": None}),  # and an attribute
    ("T-I01", {"attack": 1}),        # an item only has a cost
    ("T-I01", {"attribute": "fire"}),
    ("T-I01", {"cost": None}),
    ("T-M01", {"kind": "spell"}),
    ("T-M01", {"rarity": "XR"}),
    ("T-M01", {"attribute": "metal"}),
])
def test_the_database_refuses_a_card_of_the_wrong_shape(test_set, code, changes):
    """Rule: R1.4 — even a write that skips clean() (a bulk update) cannot break it."""
    with pytest.raises(IntegrityError), transaction.atomic():
        Card.objects.filter(code=code).update(**changes)


def test_clean_reports_the_engines_message_on_the_field(test_set):
    card = Card.objects.get(code="T-H01")
    card.cost = 3
    card.hp = None
    with pytest.raises(ValidationError) as caught:
        card.full_clean()
    errors = caught.value.message_dict
    assert errors["cost"] == [MSG_CARD_FORBIDDEN.format(kind="hero", field="cost")]
    assert errors["hp"] == [MSG_CARD_FIELD.format(field="hp", kind="hero")]


def test_clean_puts_an_invalid_ability_on_the_abilities_field(test_set):
    card = Card.objects.get(code="T-I02")
    card.abilities = [{"trigger": "awaken", "effects": [{"do": "draw", "count": 1}]}]
    with pytest.raises(ValidationError) as caught:
        card.full_clean()
    message = MSG_TRIGGER_KIND.format(trigger="awaken", kind="item", kinds="minion")
    assert caught.value.message_dict == {"abilities": [f"abilities[0].trigger: {message}"]}


def test_rows_become_the_same_card_defs_as_the_file(test_set):
    assert card_defs() == load_card_set(TEST_SET).cards
    card = Card.objects.get(code="T-M08")
    assert card.to_def() == load_card_set(TEST_SET).cards["T-M08"]


def test_rules_text_is_generated_and_refreshed_on_save(test_set):
    card = Card.objects.get(code="T-M04")
    assert card.texts == {"en": "Awaken: Draw a card.", "zh-hans": "唤醒技：抽1张卡。"}
    card.abilities = [{"trigger": "awaken", "effects": [{"do": "draw", "count": 2}]}]
    card.keywords = ["shield"]
    card.save()
    card.refresh_from_db()
    assert card.texts["en"] == "Shield.\nAwaken: Draw 2 cards."
    assert card.keyword_tags == "|shield|"


def test_data_version_is_stable_and_follows_the_data(test_set):
    version = card_data_version()
    assert len(version) == 64 and version == card_data_version()
    Card.objects.get(code="T-M01").save()             # a re-save is not a data change
    assert card_data_version() == version
    Card.objects.filter(code="T-M01").update(attack=3)
    assert card_data_version() != version


@pytest.mark.parametrize("names", [
    {"zh-hans": "余烬幼犬"},                  # English is the one language every row has
    {"en": "  "},
])
def test_a_card_is_named_in_english_at_least(test_set, names):
    card = _minion(test_set, names=names)
    with pytest.raises(ValidationError) as refused:
        card.full_clean()
    assert str(NAMES_NEED_ENGLISH) in refused.value.message_dict["names"]


@pytest.mark.parametrize("names", [{"en": "Ember Pup", "zh-hans": 3}, ["Ember Pup"]])
def test_names_are_text_by_language_code(test_set, names):
    card = _minion(test_set, names=names)
    with pytest.raises(ValidationError) as refused:
        card.full_clean()
    assert "names" in refused.value.message_dict
