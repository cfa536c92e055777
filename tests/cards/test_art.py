"""Card art is painted from the card's data: every card of one attribute looks different, the
same data always paints the same picture, and the picture shows race, faction, cost and
keywords."""

from __future__ import annotations

import re

import pytest

from cards.art import card_art
from cards.art_shapes import FIGURES, ITEM_OBJECTS, KEYWORD_MARKS
from cards.models import Card
from cards.services import card_set_import
from rules.decks.cardset import CORE_SET

pytestmark = pytest.mark.django_db


def scene_of(code: str) -> str:
    card = Card.objects.select_related("faction", "race", "card_set").get(code=code)
    return str(card_art(card)["scene"])


@pytest.mark.skipif(not CORE_SET.exists(), reason="no core set")
def test_no_two_cards_of_the_core_set_share_a_picture():
    card_set_import(source=CORE_SET)
    cards = Card.objects.select_related("faction", "race", "card_set")
    scenes = {}
    for card in cards:
        # the uid only names the card's own clip path: compare the pictures without it
        scene = re.sub(r"url\(#[^)]*\)", "", str(card_art(card)["scene"]))
        assert scene not in scenes, (card.code, scenes.get(scene))
        scenes[scene] = card.code
    assert len(scenes) == cards.count() == 179


def test_the_same_data_paints_the_same_picture(test_set):
    assert scene_of("T-M01") == scene_of("T-M01")


def test_race_cost_faction_and_keywords_show(test_set):
    card = Card.objects.get(code="T-M05")          # a dark beast of Dusk with re-act, cost 3
    scene = scene_of(card.code)
    assert FIGURES["beast"] in scene and KEYWORD_MARKS["react"] in scene
    assert scene.count('stroke="#fff" stroke-width="1.2"') == card.cost        # cost pips
    assert re.search(r'class="crest".*>D</text>', scene)                        # Dusk's crest
    shield = scene_of("T-M03")                     # Reef Guard: shield
    assert KEYWORD_MARKS["shield"] in shield and 'stroke-dasharray="10 5"' in shield


def test_heroes_wear_a_crown_and_items_show_what_they_do(test_set):
    assert "L50 30 L58 58" in scene_of("T-H01")
    bolt = Card.objects.get(code="T-I01")          # Fire Bolt deals damage: a blade
    assert ITEM_OBJECTS["blade"] in scene_of(bolt.code)


def test_the_image_page_serves_the_picture(client, test_set):
    svg = client.get("/cards/T-M05/image.svg").content.decode()
    assert FIGURES["beast"] in svg and "clipPath" in svg
