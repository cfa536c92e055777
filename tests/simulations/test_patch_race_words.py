"""A patch's rules text before → after names races and factions as the catalogue does, in the
reader's language (Beast / 野兽), never by their codes — on every page that writes a change
(``simulations.patches.text.change_line``), in a search's ``patch.json`` download and in the
diff a patched run keeps — with the play board's lookup (``cards.models.text_names``)."""

from __future__ import annotations

import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import translation

from balance.search.views import patch_file
from rules.decks.cardset import CORE_SET, load_card_set
from rules.lab.patches import patch_with_text
from simulations.cli.input import card_set_words
from simulations.patches.text import change_line
from simulations.services import patch_freeze
from simulations.sources import cards_freeze

pytestmark = pytest.mark.django_db

FIELD = "abilities.0.effects.0.target.filter.cost_max"


def _cards():
    cards = cards_freeze([{"name": "x", "hero": "T-H01", "cards": {"T-I01": 1}}])
    bolt = copy.deepcopy(cards["T-I01"])
    bolt["code"] = "T-X02"
    bolt["abilities"][0]["effects"][0]["target"]["filter"] = {"race": ["beast"], "cost_max": 4}
    cards["T-X02"] = bolt
    return cards


def _says_race(text: str, race: str) -> None:
    assert race in text, text
    assert "beast" not in text, text          # the code, lower case, is never shown


@pytest.mark.parametrize(("lang", "race"), [("en", "Beast"), ("zh-hans", "野兽")])
def test_a_changed_filter_reads_with_the_catalogues_race_word(catalogue, lang, race):
    cards = _cards()
    with translation.override(lang):
        line = change_line(cards, "T-X02", FIELD, 2)
    before, after = line.split(" → ", 1) if lang == "en" else (line, line)
    _says_race(before, race)
    _says_race(after, race)
    assert "4" in line and "2" in line


@pytest.mark.parametrize(("lang", "race"), [("en", "Beast"), ("zh-hans", "野兽")])
def test_a_searchs_patch_download_says_the_race_in_the_readers_language(catalogue, lang, race):
    cards = _cards()
    with translation.override(lang):
        data = patch_file(cards, {"name": "x", "changes": [
            {"card": "T-X02", "field": FIELD, "value": 2}]})
    _says_race(data["changes"][0]["text"], race)


def test_a_patched_runs_diff_says_the_race_in_english(catalogue):
    _cards_patched, record = patch_freeze(_cards(), {"name": "x", "changes": [
        {"card": "T-X02", "field": FIELD, "value": 2}]})
    _says_race(record["diff"][0]["text"], "Beast")


def test_the_command_line_names_the_race_as_its_card_set_file_does(tmp_path):
    """``simulate --patch`` and ``balance_search``'s report and ``--out`` file: the card set
    file is the command line's catalogue (``card_set_words``)."""
    path = tmp_path / "beasts.json"
    path.write_text(json.dumps({"name": "Fewer beasts", "changes": [
        {"card": "C097", "field": "abilities.0.effects.0.filter.cost_max", "value": 2}]}),
        encoding="utf-8")
    out = StringIO()
    call_command("simulate", "--deck-a", "Ember Rush", "--deck-b", "Wild Growth", "--set",
                 str(CORE_SET), "--games", "2", "--seed", "1", "--patch", str(path), "--json",
                 stdout=out)
    text = json.loads(out.getvalue())["patch"]["diff"][0]["text"]
    _says_race(text, "Beast")
    assert "cost 3 or less" in text and "cost 2 or less" in text
    words = card_set_words(load_card_set(CORE_SET))
    assert words["beast"] == "Beast" and words["dawn"] == "Order of Dawn"
    unpatched = {"C097": load_card_set(CORE_SET).cards["C097"].to_dict()}
    written = patch_with_text(unpatched, json.loads(path.read_text(encoding="utf-8")), "en",
                              words)
    _says_race(written["changes"][0]["text"], "Beast")
