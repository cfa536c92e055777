"""A card's generated rules text moves from a column per language into one keyed field (cards
0009): ``text_en`` and ``text_zh`` become ``texts`` (``{"en": …, "zh-hans": …}``); an empty
column leaves no key; and going back restores the columns."""

from __future__ import annotations

import pytest

from tests.migration_steps import latest, migrate

BEFORE = [("cards", "0008_keyed_names")]
AFTER = [("cards", "0009_keyed_rules_text")]

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_rules_text_of_every_card_moves_into_the_keyed_field_and_back():
    old = migrate(BEFORE)
    card_set = old.get_model("cards", "CardSet").objects.create(code="MIG", names={"en": "M"})
    cards = old.get_model("cards", "Card").objects
    cards.create(code="MIG-1", card_set=card_set, position=1, kind="minion",
                 names={"en": "Old Guard"}, rarity="N", cost=1, attack=1, attribute="fire",
                 text_en="Awaken: Draw a card.", text_zh="唤醒技：抽1张卡。")
    cards.create(code="MIG-2", card_set=card_set, position=2, kind="minion",
                 names={"en": "Plain"}, rarity="N", cost=1, attack=1, attribute="fire",
                 text_en="", text_zh="")

    new = migrate(AFTER)
    moved = new.get_model("cards", "Card").objects
    assert moved.get(code="MIG-1").texts == {"en": "Awaken: Draw a card.",
                                             "zh-hans": "唤醒技：抽1张卡。"}
    assert moved.get(code="MIG-2").texts == {}            # no rules text: no key

    back = migrate(BEFORE)
    card = back.get_model("cards", "Card").objects.get(code="MIG-1")
    assert (card.text_en, card.text_zh) == ("Awaken: Draw a card.", "唤醒技：抽1张卡。")
    assert back.get_model("cards", "Card").objects.get(code="MIG-2").text_zh == ""
    latest()
