"""The catalogue's names move from a column per language into one keyed field (cards 0008,
decks 0007): every row's English and Chinese names become ``names`` (``{"en": …, "zh-hans":
…}``), a game's descriptions ``descriptions``, a format's Chinese name its ``names``; an empty
Chinese column leaves no key; and going back restores the columns."""

from __future__ import annotations

import pytest

from tests.migration_steps import latest, migrate

BEFORE = [("cards", "0007_translated_field_labels"), ("decks", "0006_translated_field_labels")]
AFTER = [("cards", "0008_keyed_names"), ("decks", "0007_keyed_names")]

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_name_moves_into_the_keyed_field_and_back():
    old = migrate(BEFORE)
    game = old.get_model("cards", "Game").objects.create(
        code="mig", name_en="Migration Game", name_zh="迁移游戏", description_en="Moves.",
        description_zh="")
    old.get_model("cards", "CardKind").objects.create(game=game, code="spell",
                                                       name_en="Spell", name_zh="法术")
    card_set = old.get_model("cards", "CardSet").objects.create(
        code="MIG", name_en="Migration", name_zh="", game=game)
    faction = old.get_model("cards", "Faction").objects.create(code="mig", name_en="Movers",
                                                               name_zh="迁徙者")
    old.get_model("cards", "Card").objects.create(
        code="MIG-1", card_set=card_set, position=1, kind="minion", name_en="Old Guard",
        name_zh="老卫兵", rarity="N", cost=1, attack=1, attribute="fire", faction=faction)
    old.get_model("decks", "Format").objects.create(code="mig", name="Migrated",
                                                    name_zh="迁移赛制")

    new = migrate(AFTER)
    assert new.get_model("cards", "Game").objects.get(code="mig").names == {
        "en": "Migration Game", "zh-hans": "迁移游戏"}
    assert new.get_model("cards", "Game").objects.get(code="mig").descriptions == {
        "en": "Moves."}
    assert new.get_model("cards", "CardKind").objects.get(code="spell").names == {
        "en": "Spell", "zh-hans": "法术"}
    assert new.get_model("cards", "CardSet").objects.get(code="MIG").names == {
        "en": "Migration"}                                    # no Chinese name: no key
    assert new.get_model("cards", "Faction").objects.get(code="mig").names == {
        "en": "Movers", "zh-hans": "迁徙者"}
    assert new.get_model("cards", "Card").objects.get(code="MIG-1").names == {
        "en": "Old Guard", "zh-hans": "老卫兵"}
    assert new.get_model("decks", "Format").objects.get(code="mig").names == {
        "zh-hans": "迁移赛制"}

    back = migrate(BEFORE)
    card = back.get_model("cards", "Card").objects.get(code="MIG-1")
    assert (card.name_en, card.name_zh) == ("Old Guard", "老卫兵")
    game = back.get_model("cards", "Game").objects.get(code="mig")
    assert (game.name_en, game.name_zh, game.description_en, game.description_zh) == (
        "Migration Game", "迁移游戏", "Moves.", "")
    assert back.get_model("cards", "CardSet").objects.get(code="MIG").name_zh == ""
    assert back.get_model("decks", "Format").objects.get(code="mig").name_zh == "迁移赛制"
    latest()
