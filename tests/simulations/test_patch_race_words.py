"""A patch's rules text before → after names races and factions as the catalogue does, in the
reader's language (Beast / 野兽), never by their codes — on every page that writes a change
(``simulations.patches.text.change_line``), in a search's ``patch.json`` download and in the
diff a patched run keeps — with the play board's lookup (``cards.models.text_names``)."""

from __future__ import annotations

import copy

import pytest
from django.utils import translation

from balance.search.views import patch_file
from simulations.patches.text import change_line
from simulations.services import _patched
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
    _cards_patched, record = _patched(_cards(), {"name": "x", "changes": [
        {"card": "T-X02", "field": FIELD, "value": 2}]})
    _says_race(record["diff"][0]["text"], "Beast")
