"""`python manage.py load_cards [FILE]`: idempotent, updates in place, reports missing cards,
refuses an invalid file whole and leaves the database as it was."""

from __future__ import annotations

import pytest
import yaml
from django.core.management import call_command
from django.core.management.base import CommandError

from cards.management.commands.load_cards import MSG_NO_FILE
from cards.models import ENGINE_GAME, Card, CardSet, Faction, Race
from cards.selectors import card_data_version
from rules.decks.cardset import CORE_SET, TEST_SET


def load(path, capsys) -> str:
    call_command("load_cards", str(path))
    return capsys.readouterr().out


@pytest.mark.django_db
def test_loading_twice_changes_nothing(capsys):
    first = load(TEST_SET, capsys)
    assert "22 new, 0 updated, 0 unchanged" in first
    version = card_data_version()
    stamps = dict(Card.objects.values_list("code", "updated_at"))
    second = load(TEST_SET, capsys)
    assert "0 new, 0 updated, 22 unchanged" in second
    assert Card.objects.count() == 22 and CardSet.objects.count() == 1
    assert (Faction.objects.count(), Race.objects.count()) == (2, 3)
    assert card_data_version() == version
    assert dict(Card.objects.values_list("code", "updated_at")) == stamps


@pytest.mark.django_db
def test_a_changed_card_is_updated_not_duplicated(tmp_path, capsys, test_set_text):
    load(TEST_SET, capsys)
    data = yaml.safe_load(test_set_text)
    pup = next(c for c in data["cards"] if c["code"] == "T-M01")
    pup["attack"] = 3
    pup["name_en"] = "Ember Hound"
    changed = tmp_path / "changed.yaml"
    changed.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    out = load(changed, capsys)
    assert "0 new, 1 updated, 21 unchanged" in out and "Updated: T-M01" in out
    card = Card.objects.get(code="T-M01")
    assert (card.attack, card.name_en) == (3, "Ember Hound")
    assert Card.objects.count() == 22


@pytest.mark.django_db
def test_a_card_missing_from_the_file_is_reported_and_kept(tmp_path, capsys, test_set_text):
    load(TEST_SET, capsys)
    data = yaml.safe_load(test_set_text)
    data["cards"] = [c for c in data["cards"] if c["code"] != "T-I06"]
    data["decks"][1]["cards"].pop("T-I06")
    smaller = tmp_path / "smaller.yaml"
    smaller.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    out = load(smaller, capsys)
    assert "1 card(s) of this set are in the database but not in the file" in out
    assert "T-I06" in out
    assert Card.objects.filter(code="T-I06").exists()


@pytest.mark.django_db
def test_an_invalid_file_is_refused_whole(tmp_path, capsys, test_set_text):
    load(TEST_SET, capsys)
    version = card_data_version()
    data = yaml.safe_load(test_set_text)
    data["cards"][0]["cost"] = 3                                  # a hero with a cost
    data["cards"][2]["attack"] = 9                                # a valid change ...
    data["cards"][3]["abilities"] = [{"trigger": "sunrise", "effects": []}]
    data["cards"][4]["race"] = "golem"                            # undeclared race
    data["cards"].append({"code": "T-X01", "kind": "minion", "name_en": "New",
                          "name_zh": "新", "cost": 1, "attack": 1, "attribute": "fire"})
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(CommandError, match="5 problem"):
        call_command("load_cards", str(bad))
    err = capsys.readouterr().err
    assert "refused, nothing was changed" in err
    assert "T-H01.cost" in err and "sunrise" in err and "golem" in err
    assert "unknown card 'T-H01'" in err                       # decks naming refused cards
    assert card_data_version() == version                          # ... was not applied
    assert not Card.objects.filter(code="T-X01").exists()


@pytest.mark.django_db
def test_not_yaml_and_no_file(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("cards: [unclosed", encoding="utf-8")
    with pytest.raises(CommandError, match="1 problem"):
        call_command("load_cards", str(broken))
    missing = tmp_path / "nope.yaml"
    with pytest.raises(CommandError) as caught:
        call_command("load_cards", str(missing))
    assert str(caught.value) == MSG_NO_FILE.format(path=missing)


@pytest.mark.django_db
def test_dry_run_reports_without_writing(capsys):
    call_command("load_cards", str(TEST_SET), "--dry-run")
    assert "would load 22 new" in capsys.readouterr().out
    assert Card.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.skipif(not CORE_SET.exists(), reason="the core set file is not written yet")
def test_the_default_is_the_core_set(capsys):
    call_command("load_cards")
    out = capsys.readouterr().out
    assert " new, 0 updated, 0 unchanged" in out
    assert Card.objects.count() > 22


@pytest.mark.django_db
def test_a_loaded_set_belongs_to_this_sites_own_game(capsys):
    load(TEST_SET, capsys)
    assert CardSet.objects.get(code="TEST").game.code == ENGINE_GAME
    # A set loaded before games existed (no game) is given it on the next load.
    CardSet.objects.filter(code="TEST").update(game=None)
    load(TEST_SET, capsys)
    assert CardSet.objects.get(code="TEST").game.code == ENGINE_GAME
