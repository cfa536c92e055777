"""The site's language: the header's switcher (remembered), then the browser's Accept-Language;
an old ``?lang=zh`` link shows that one page in Chinese; card names, rules text and images
follow the page's language."""

from __future__ import annotations

import pytest
from django.conf import settings

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}


def test_english_is_the_default(client):
    html = client.get("/").content.decode()
    assert '<html lang="en">' in html
    assert "Build a deck" in html


@pytest.mark.parametrize("header", ["zh-Hans", "zh-CN", "zh", "zh-Hans-CN,zh;q=0.9,en;q=0.5"])
def test_a_chinese_browser_gets_chinese_pages(client, header):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=header)
    html = response.content.decode()
    assert '<html lang="zh-Hans">' in html
    assert "构建卡组" in html and "Build a deck" not in html
    assert response["Content-Language"] == "zh-hans"


def test_the_switcher_remembers_the_choice_and_returns_to_the_page(client):
    response = client.post("/i18n/setlang/", {"language": "zh-hans",
                                              "next": "/cards/?q=k%3Aminion"})
    assert response.status_code == 302
    assert response["Location"] == "/cards/?q=k%3Aminion"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "zh-hans"
    # The choice beats the browser's own preference from then on.
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "构建卡组" in html
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert "Build a deck" in client.get("/", **ZH).content.decode()


def test_every_page_offers_the_switcher_returning_to_itself(client, db):
    html = client.get("/cards/?q=wolf&lang=zh").content.decode()
    assert 'action="/i18n/setlang/"' in html
    # Back to this page, without the old lang parameter (it would override the choice).
    assert 'name="next" value="/cards/?q=wolf"' in html
    assert 'value="zh-hans"' in html and 'value="en"' in html


def test_an_old_lang_link_shows_that_page_in_chinese_without_storing_it(client, db):
    response = client.get("/?lang=zh")
    assert "构建卡组" in response.content.decode()
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies
    assert "Build a deck" in client.get("/").content.decode()
    assert "Build a deck" in client.get("/?lang=en", **ZH).content.decode()
    assert "构建卡组" in client.get("/?lang=klingon", **ZH).content.decode()


def test_card_names_text_and_images_follow_the_page_language(client, test_set):
    from cards.models import Card

    card = Card.objects.filter(kind="minion").exclude(abilities=[]).first()
    english = client.get(card.get_absolute_url()).content.decode()
    chinese = client.get(card.get_absolute_url(), **ZH).content.decode()
    assert f"<h1>{card.name_en}" in english
    assert f"<h1>{card.name_zh}" in chinese
    assert card.texts["zh-hans"].splitlines()[0] in chinese
    assert f"{card.image_url()}?lang=zh-hans" in chinese
    svg = client.get(card.image_url(), **ZH).content.decode()
    assert card.name_zh in svg and "攻击" in svg
    gallery = client.get("/cards/", **ZH).content.decode()
    assert "&amp;lang=zh" in gallery


@pytest.fixture
def test_set(db):
    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    return card_set_import(source=TEST_SET)
