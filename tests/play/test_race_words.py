"""A card's rules text on the board names races and factions as the catalogue does, in the
reader's language (亡灵/Undead), never by their codes."""

from __future__ import annotations

import copy

import pytest
from django.utils import translation

from play.seat.board import card_info
from simulations.replays.board import card_names
from simulations.sources import cards_freeze

pytestmark = pytest.mark.django_db


def _cards():
    cards = cards_freeze([{"name": "x", "hero": "T-H01", "cards": {"T-I01": 1}}])
    bolt = copy.deepcopy(cards["T-I01"])
    bolt["code"] = "T-X02"
    bolt["abilities"][0]["effects"][0]["target"]["filter"] = {"race": ["beast"], "cost_max": 4}
    cards["T-X02"] = bolt
    return cards


@pytest.mark.parametrize(("lang", "race"), [("en", "Beast"), ("zh-hans", "野兽")])
def test_the_board_names_a_race_in_the_readers_language(catalogue, lang, race):
    cards = _cards()
    with translation.override(lang):
        text = card_info(cards, card_names(cards), "T-X02")["text"]
    assert race.lower() in text.lower(), text
    assert "beast" not in text.replace("Beast", ""), text
