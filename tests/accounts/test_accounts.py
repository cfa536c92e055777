"""Sign up, log in, log out (Django's auth; password validators on sign-up)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.decks.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_sign_up_logs_in_and_returns_to_next(client):
    response = client.post(reverse("accounts:signup"), {
        "username": "carol", "email": "", "password1": PASSWORD, "password2": PASSWORD,
        "next": "/decks/build/"})
    assert response.status_code == 302 and response["Location"] == "/decks/build/"
    assert client.get(reverse("decks:list")).context["user"].username == "carol"


@pytest.mark.parametrize("password, message", [
    ("short", "This password is too short"),
    ("password123", "This password is too common"),
    ("84720193847261", "This password is entirely numeric"),
    ("carol1234", "The password is too similar to the username"),
])
def test_sign_up_enforces_the_password_validators(client, password, message):
    response = client.post(reverse("accounts:signup"), {
        "username": "carol", "password1": password, "password2": password})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not get_user_model().objects.filter(username="carol").exists()


@pytest.mark.parametrize("password, message", [
    ("short", "密码长度太短。密码必须包含至少 8 个字符。"),
    ("password123", "这个密码太常见了。"),
    ("84720193847261", "密码只包含数字。"),
    ("carol1234", "密码跟 用户名 太相似了。"),
])
def test_sign_up_says_what_is_wrong_with_a_password_in_chinese(client, password, message):
    response = client.post(reverse("accounts:signup"), {
        "username": "carol", "password1": password, "password2": password},
        HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.status_code == 400
    assert message in response.content.decode()


def test_sign_up_does_not_redirect_off_site(client):
    response = client.post(reverse("accounts:signup"), {
        "username": "dave", "password1": PASSWORD, "password2": PASSWORD,
        "next": "https://evil.example/"})
    assert response["Location"] == "/decks/"


def test_log_in_and_log_out(client, alice):
    page = client.get(reverse("accounts:login"))
    assert page.status_code == 200 and "Log in" in page.content.decode()
    bad = client.post(reverse("accounts:login"), {"username": "alice", "password": "nope"})
    assert bad.status_code == 400 and "Please enter a correct username and password" in (
        bad.content.decode())
    good = client.post(reverse("accounts:login"), {"username": "alice", "password": PASSWORD,
                                                   "next": "/decks/?mine=true"})
    assert good["Location"] == "/decks/?mine=true"
    assert 'Signed in as <a href="/accounts/profile/"><strong>alice</strong></a>' in \
        client.get("/decks/").content.decode()
    assert client.post(reverse("accounts:logout"))["Location"] == "/decks/"
    assert "Log in" in client.get("/decks/").content.decode()


def test_sign_ups_are_throttled(client):
    for i in range(10):
        client.post(reverse("accounts:signup"), {"username": f"u{i}", "password1": "x",
                                                 "password2": "y"})
    response = client.post(reverse("accounts:signup"), {
        "username": "late", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 429 and "Too many sign-ups" in response.content.decode()


def test_an_empty_log_in_says_under_each_field_what_is_missing(client):
    """With the browser's checks off (novalidate), an empty name or password is said under the
    field, at the id its aria-describedby names, not left for a screen reader to find nowhere."""
    page = client.post(reverse("accounts:login"), {"username": "", "password": ""})
    html = page.content.decode()
    assert page.status_code == 400
    for field in ("username", "password"):
        assert f'aria-describedby="id_{field}_error"' in html
        assert f'id="id_{field}_error"' in html
    assert html.count("This field is required.") == 2
