"""Forgotten and changed passwords: Django's reset by e-mail, throttled; change on the profile."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from decks.passwords import PASSWORD_CHANGED
from decks.throttles import RESET_PER_IP
from tests.decks.conftest import PASSWORD

pytestmark = pytest.mark.django_db
NEW_PASSWORD = "another-Long-passphrase-77"


def test_a_forgotten_password_is_reset_by_the_e_mailed_link(client):
    get_user_model().objects.create_user("erin", "erin@example.com", PASSWORD)
    response = client.post(reverse("accounts:password_reset"), {"email": "erin@example.com"})
    assert response.status_code == 302
    assert response["Location"] == reverse("accounts:password_reset_done")
    (message,) = mail.outbox
    assert message.to == ["erin@example.com"] and "choose a new password" in message.subject
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD,
                                                    "new_password2": NEW_PASSWORD})
    assert done["Location"] == reverse("accounts:password_reset_complete")
    assert client.login(username="erin", password=NEW_PASSWORD)
    again = client.get(link, follow=True).content.decode()
    assert "This link does not work" in again          # a link works once


def test_an_unknown_address_gets_the_same_answer_and_no_mail(client):
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302 and mail.outbox == []


def test_reset_requests_are_throttled(client):
    for _ in range(RESET_PER_IP.count):
        client.post(reverse("accounts:password_reset"), {"email": "x@example.com"})
    response = client.post(reverse("accounts:password_reset"), {"email": "x@example.com"})
    assert response.status_code == 429 and "Too many password reset requests" in \
        response.content.decode()


def test_the_login_page_links_to_the_reset(client):
    assert reverse("accounts:password_reset") in client.get(reverse("accounts:login")) \
        .content.decode()


def test_a_password_is_changed_from_the_profile(client, alice):
    client.force_login(alice)
    bad = client.post(reverse("accounts:password_change"), {
        "old_password": "wrong", "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD})
    assert bad.status_code == 400 and "Your old password was entered incorrectly" in \
        bad.content.decode()
    response = client.post(reverse("accounts:password_change"), {
        "old_password": PASSWORD, "new_password1": NEW_PASSWORD,
        "new_password2": NEW_PASSWORD}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("profile")
    assert str(PASSWORD_CHANGED) in response.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
