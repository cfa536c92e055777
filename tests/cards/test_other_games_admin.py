"""The card admin for other games: a Sorcery sample card is edited with its game's kinds and
rarity tiers (not the engine's, whose shapes and validator do not apply to it, as loading
does), and a kind its game does not declare is refused on the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from cards.models import Card
from tests.cards.test_admin import card_form_data

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"


@pytest.fixture
def sorcery(test_set):
    call_command("load_formats", str(GAMES / "sorcery.yaml"), stdout=None)


def test_the_admin_edits_another_games_card_with_its_kinds_and_tiers(admin_client, sorcery):
    card = Card.objects.get(code="SC-T01")
    url = f"/admin/cards/card/{card.pk}/change/"
    form = admin_client.get(url).context["adminform"].form
    assert [c for c, _ in form.fields["kind"].choices] == [
        "avatar", "minion", "magic", "artifact", "aura", "site"]
    assert "elite" in [c for c, _ in form.fields["rarity"].choices]
    response = admin_client.post(url, card_form_data(card, name_en="Windier Hill",
                                                 rarity="elite"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    card.refresh_from_db()
    assert (card.name_en, card.rarity, card.engine) == ("Windier Hill", "elite", False)


def test_the_admin_refuses_a_kind_the_cards_game_does_not_declare(admin_client, sorcery):
    card = Card.objects.get(code="SC-T01")
    response = admin_client.post(f"/admin/cards/card/{card.pk}/change/",
                                 card_form_data(card, kind="hero"))
    assert response.status_code == 200
    assert "kind" in response.context["adminform"].form.errors
    # This game's card still offers this game's kinds only.
    engine_card = Card.objects.get(code="T-M01")
    form = admin_client.get(f"/admin/cards/card/{engine_card.pk}/change/").context[
        "adminform"].form
    assert [c for c, _ in form.fields["kind"].choices] == ["hero", "minion", "item"]


def test_the_admin_adds_a_card_to_another_games_set(admin_client, sorcery):
    sample = Card.objects.get(code="SC-T01").card_set
    form = admin_client.get("/admin/cards/card/add/").context["adminform"].form
    kinds = [c for c, _ in form.fields["kind"].choices]
    assert kinds[:3] == ["hero", "minion", "item"] and "site" in kinds
    data = card_form_data(Card(code="SC-T07", card_set=sample, position=99, kind="site",
                           names={"en": "Grey Marsh", "zh-hans": "灰沼"}, rarity="ordinary"))
    response = admin_client.post("/admin/cards/card/add/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    card = Card.objects.get(code="SC-T07")
    assert (card.kind, card.rarity, card.engine) == ("site", "ordinary", False)
