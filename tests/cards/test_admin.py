"""The admin as a designer's tool: search and filters, ability JSON validated by the engine
with the message on the field, generated text shown, set export and import."""

from __future__ import annotations

import json

import yaml
from django.core.files.uploadedfile import SimpleUploadedFile

from cards.models import Card, CardSet, Race
from rules.decks.cardset import TEST_SET, load_card_set
from rules.engine.ability_language import EFFECTS, MSG_UNKNOWN_EFFECT


def card_form_data(card: Card, **changes) -> dict:
    """The card admin form's fields as they are for ``card``, with ``changes``."""
    data = {
        "code": card.code, "card_set": card.card_set_id, "position": card.position,
        "kind": card.kind, "name_en": card.name_en, "name_zh-hans": card.name_zh,
        "rarity": card.rarity, "cost": card.cost or "", "attack": card.attack or "",
        "hp": card.hp or "", "attribute": card.attribute or "",
        "faction": card.faction_id or "", "race": card.race_id or "",
        "keywords": card.keywords, "abilities": json.dumps(card.abilities),
        "stat_slices-TOTAL_FORMS": 0, "stat_slices-INITIAL_FORMS": 0,
        "stat_slices-MIN_NUM_FORMS": 0,
        "stat_slices-MAX_NUM_FORMS": 0,
    }
    data.update(changes)
    return data


def test_changelist_searches_names_and_rules_text_and_filters(admin_client, test_set):
    page = admin_client.get("/admin/cards/card/", {"q": "余烬"}).content.decode()
    assert "T-M01" in page and "T-M02" not in page
    page = admin_client.get("/admin/cards/card/", {"q": "draw"}).content.decode()
    assert "T-M04" in page and "T-I02" in page and "T-M01" not in page
    page = admin_client.get("/admin/cards/card/", {"kind__exact": "hero"}).content.decode()
    assert "T-H01" in page and "T-M01" not in page
    page = admin_client.get("/admin/cards/card/", {"keyword": "shield"}).content.decode()
    assert "T-M03" in page and "T-M01" not in page


def test_change_form_shows_generated_text_and_image(admin_client, test_set):
    card = Card.objects.get(code="T-M04")
    page = admin_client.get(f"/admin/cards/card/{card.pk}/change/").content.decode()
    assert "Awaken: Draw a card." in page and "唤醒技：抽1张卡。" in page
    assert "<svg" in page and '"trigger": "awaken"' in page


def test_an_invalid_ability_is_refused_with_the_engines_message_on_the_field(admin_client,
                                                                            test_set):
    card = Card.objects.get(code="T-M04")
    bad = [{"trigger": "awaken", "effects": [{"do": "explode", "count": 1}]}]
    response = admin_client.post(f"/admin/cards/card/{card.pk}/change/",
                                 card_form_data(card, abilities=json.dumps(bad)))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    message = MSG_UNKNOWN_EFFECT.format(value="explode", known=", ".join(EFFECTS))
    assert errors["abilities"] == [f"abilities[0].effects[0].do: {message}"]
    card.refresh_from_db()
    assert card.abilities[0]["effects"][0]["do"] == "draw"


def test_a_hero_with_a_cost_is_refused_on_the_cost_field(admin_client, test_set):
    card = Card.objects.get(code="T-H01")
    response = admin_client.post(f"/admin/cards/card/{card.pk}/change/",
                                 card_form_data(card, cost=3))
    assert response.context["adminform"].form.errors["cost"] == ["hero cards have no cost"]


def test_a_chinese_admin_reads_the_engines_problems_in_chinese(admin_client, test_set):
    """The rules library reports a problem as a sentence template and its parameters; the site
    says it in the reader's language (the card kind by its name in that language)."""
    card = Card.objects.get(code="T-H01")
    bad = [{"trigger": "awaken", "effects": [{"do": "draw", "count": 1}]}]
    response = admin_client.post(f"/admin/cards/card/{card.pk}/change/",
                                 card_form_data(card, cost=3, abilities=json.dumps(bad)),
                                 HTTP_ACCEPT_LANGUAGE="zh-Hans")
    errors = response.context["adminform"].form.errors
    assert errors["cost"] == ["英雄没有 cost"]
    assert errors["abilities"] == [
        "abilities[0].trigger: 时机 'awaken' 不能用于英雄（可用于：minion）"]


def test_a_valid_edit_saves_and_regenerates_the_text(admin_client, test_set):
    card = Card.objects.get(code="T-M04")
    good = [{"trigger": "awaken", "effects": [{"do": "draw", "count": 2}]}]
    response = admin_client.post(f"/admin/cards/card/{card.pk}/change/",
                                 card_form_data(card, abilities=json.dumps(good),
                                            keywords=["shield"]))
    assert response.status_code == 302
    card.refresh_from_db()
    assert card.texts["en"] == "Shield.\nAwaken: Draw 2 cards."


def test_renaming_a_race_regenerates_rules_text(admin_client, test_set):
    Card.objects.filter(code="T-I01").update(abilities=[{"trigger": "use", "effects": [
        {"do": "destroy", "target": {"pick": "chosen", "filter": {"race": "dragon"}}}]}])
    Card.objects.get(code="T-I01").save()
    race = Race.objects.get(code="dragon")
    admin_client.get("/cards/T-M12/image.svg")                 # cached with the old name
    stamp = Card.objects.get(code="T-M12").updated_at
    admin_client.post(f"/admin/cards/race/{race.pk}/change/",
                      {"code": "dragon", "name_en": "Wyrm", "name_zh-hans": "龙"})
    assert "Wyrm" in Card.objects.get(code="T-I01").texts["en"]
    # Every dragon's image names the new race, so its cached image (keyed by updated_at) expires.
    night_wyrm = Card.objects.get(code="T-M12")
    assert night_wyrm.updated_at > stamp
    assert "Wyrm" in admin_client.get("/cards/T-M12/image.svg").content.decode()


def test_export_downloads_the_set_in_the_shipped_format(admin_client, test_set):
    card_set = CardSet.objects.get(code="TEST")
    response = admin_client.get(f"/admin/cards/cardset/{card_set.pk}/export/")
    assert response["Content-Disposition"] == 'attachment; filename="test.yaml"'
    exported = load_card_set(response.content.decode())
    original = load_card_set(TEST_SET)
    assert exported.cards == original.cards and exported.decks == original.decks
    assert exported.factions == original.factions and exported.races == original.races
    action = admin_client.post("/admin/cards/cardset/", {
        "action": "export_yaml", "_selected_action": [card_set.pk]})
    assert load_card_set(action.content.decode()).cards == original.cards


def test_import_previews_then_loads(admin_client, db, test_set_text):
    upload = SimpleUploadedFile("test.yaml", test_set_text.encode(), "application/yaml")
    preview = admin_client.post("/admin/cards/cardset/import/", {"file": upload,
                                                                 "preview": "Preview"})
    assert "would load 22 new" in preview.content.decode()
    assert Card.objects.count() == 0
    done = admin_client.post("/admin/cards/cardset/import/", {"yaml_text": test_set_text,
                                                              "import": "Import"})
    assert done.status_code == 302 and Card.objects.count() == 22


def test_import_of_an_invalid_set_lists_every_problem_and_changes_nothing(admin_client,
                                                                          test_set,
                                                                          test_set_text):
    data = yaml.safe_load(test_set_text)
    data["cards"][2]["attack"] = -1
    data["cards"][5]["kind"] = "spell"
    response = admin_client.post("/admin/cards/cardset/import/", {
        "yaml_text": yaml.safe_dump(data, allow_unicode=True), "import": "Import"})
    page = response.content.decode()
    assert "nothing was changed" in page
    assert "T-M01.attack: must not be negative" in page and "spell" in page
    assert Card.objects.get(code="T-M01").attack == 2
