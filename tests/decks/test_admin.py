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


def test_the_import_page_shows_field_errors(client, catalogue):
    response = client.post("/decks/import/", {"text": "1x Ember Pup\x00", "format": "auto"})
    assert response.status_code == 400
    assert "Line 1, column 13" in response.content.decode()     # where the NUL is
