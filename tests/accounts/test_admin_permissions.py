"""The admin's user and group forms name each permission Django made in the reader's language:
the model's translated name and a translated action, not the English name Django stored."""

from __future__ import annotations

from django.contrib.auth.models import Permission, User
from django.utils import translation

from accounts.admin import permission_label
from cards.models import Card


def _permission(codename: str) -> Permission:
    return Permission.objects.get(codename=codename, content_type__app_label="cards")


def test_a_default_permission_reads_in_the_reader_s_language(db):
    add_card = _permission("add_card")
    assert add_card.name == "Can add card"          # as Django stored it
    with translation.override("zh-hans"):
        chinese = permission_label(add_card)
        card = str(Card._meta.verbose_name)
    assert chinese.endswith(f"可以添加{card}") and "Can" not in chinese
    with translation.override("en"):
        assert permission_label(add_card).endswith("| Can add card")


def test_the_group_form_lists_the_translated_permissions(client, db):
    staff = User.objects.create_superuser("ada", "ada@example.com", "a-Long-passphrase-42")
    client.force_login(staff)
    page = client.get("/admin/auth/group/add/", HTTP_ACCEPT_LANGUAGE="zh-Hans")
    text = page.content.decode()
    assert page.status_code == 200
    assert "可以查看" in text and "Can view card" not in text
