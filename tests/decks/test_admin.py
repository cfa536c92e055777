"""The admin for formats (with the ban list inline) and decks (read-only content)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from decks.models import Format

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, catalogue):
    user = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-42!")
    client.force_login(user)
    return client


def test_formats_and_their_ban_list_are_edited_in_the_admin(admin_client):
    fmt = Format.objects.get(code="standard")
    assert admin_client.get("/admin/decks/format/").status_code == 200
    page = admin_client.get(f"/admin/decks/format/{fmt.pk}/change/").content.decode()
    assert "ban / limited list" in page.lower() and "Copies per card name, by rarity" in page


def test_decks_show_entries_and_versions(admin_client, alice, make_deck):
    deck = make_deck(alice)
    assert admin_client.get("/admin/decks/deck/").status_code == 200
    page = admin_client.get(f"/admin/decks/deck/{deck.pk}/change/").content.decode()
    assert "T-M01" in page and "Created" in page
    chinese = admin_client.get(f"/admin/decks/deck/{deck.pk}/change/",
                               HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert ">创建<" in chinese and "Created" not in chinese   # the site's note, translated


def test_the_import_page_shows_field_errors(client, catalogue):
    response = client.post("/decks/import/", {"text": "1x Ember Pup\x00", "format": "auto"})
    assert response.status_code == 400
    assert "Line 1, column 13" in response.content.decode()     # where the NUL is


def test_a_format_in_piles_is_edited_in_the_admin_and_its_rules_checked(admin_client):
    """The rules field is read by the engine's schema on save; a mistake is shown with its
    path and nothing is saved."""
    import json

    from cards.models import Game

    game = Game.objects.create(code="mini", names={"en": "Mini", "zh-hans": "迷你"}, engine=False)
    game.kinds.create(code="spell", names={"en": "Spell", "zh-hans": "法术"})
    assert admin_client.get(f"/admin/cards/game/{game.pk}/change/").status_code == 200
    form = {"name": "Mini", "name_zh-hans": "迷你", "code": "mini", "game": game.pk,
            "description": "", "is_active": "on", "hero_count": 1, "deck_min": 30,
            "deck_max": 30, "minions_allowed": "on", "items_allowed": "on", "limit_n": 3,
            "limit_r": 3, "limit_sr": 3, "limit_ssr": 3, "limit_ur": 1,
            "card_limits-TOTAL_FORMS": 0, "card_limits-INITIAL_FORMS": 0,
            "card_limits-MIN_NUM_FORMS": 0, "card_limits-MAX_NUM_FORMS": 1000}
    bad = {"piles": [{"code": "deck", "name_en": "Deck", "name_zh": "牌组",
                      "kinds": ["dragon"]}]}
    response = admin_client.post("/admin/decks/format/add/",
                                 {**form, "rules": json.dumps(bad)})
    assert response.status_code == 200
    assert "rules.piles[0].kinds[0]" in response.content.decode()
    assert not Format.objects.filter(code="mini").exists()
    good = {"piles": [{"code": "deck", "name_en": "Deck", "name_zh": "牌组", "min": 10,
                       "kinds": ["spell"]}], "copies": {"default": 2}}
    response = admin_client.post("/admin/decks/format/add/",
                                 {**form, "rules": json.dumps(good)})
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert Format.objects.get(code="mini").has_piles
