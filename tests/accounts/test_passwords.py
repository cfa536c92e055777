"""Forgotten and changed passwords: Django's reset by e-mail, throttled per client and per
recipient; change on the profile, throttled on wrong current passwords."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from accounts.passwords import PASSWORD_CHANGED
from accounts.throttles import (
    PASSWORD_CHANGE_FAILURES_PER_IP,
    PASSWORD_CHANGE_FAILURES_PER_USER,
    RESET_PER_IP,
    RESET_PER_RECIPIENT,
)
from common.throttles import TOO_MANY
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


def test_one_inbox_gets_a_few_reset_mails_however_many_addresses_ask(client):
    get_user_model().objects.create_user("erin", "erin@example.com", PASSWORD)
    answers = set()
    for n in range(15):   # 15 requests from 11 addresses, some spelling the address otherwise
        email = "Erin@Example.com " if n % 2 else "erin@example.com"
        response = client.post(reverse("accounts:password_reset"), {"email": email},
                               REMOTE_ADDR=f"198.51.100.{n % 11}")
        answers.add((response.status_code, response["Location"]))
    assert len(mail.outbox) == RESET_PER_RECIPIENT.count
    # Every request got the same answer: nothing says the mails stopped, or that erin exists.
    assert answers == {(302, reverse("accounts:password_reset_done"))}


def change(client, old: str, **extra):
    return client.post(reverse("accounts:password_change"), {
        "old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        **extra)


def test_wrong_current_passwords_are_throttled_per_user(client, alice):
    client.force_login(alice)
    for _ in range(PASSWORD_CHANGE_FAILURES_PER_USER.count):
        assert change(client, "wrong").status_code == 400
    for _ in range(25):
        assert change(client, "wrong").status_code == 429
    refused = change(client, PASSWORD)          # the right one, after 30 wrong ones
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    message = TOO_MANY.format(what=PASSWORD_CHANGE_FAILURES_PER_USER.what,
                              wait=refused["Retry-After"])
    assert message in refused.content.decode()
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD) and not alice.check_password(NEW_PASSWORD)
    # From another address too: the budget is the user's.
    assert change(client, PASSWORD, REMOTE_ADDR="198.51.100.4").status_code == 429


def test_the_refusal_is_in_the_readers_language(client, alice):
    client.force_login(alice)
    for _ in range(PASSWORD_CHANGE_FAILURES_PER_USER.count):
        change(client, "wrong")
    page = change(client, PASSWORD, HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "当前密码" in page and "Too many" not in page


def test_wrong_current_passwords_are_throttled_per_address(client, settings):
    settings.THROTTLE_RATES = {PASSWORD_CHANGE_FAILURES_PER_IP.scope: "3/10min"}
    users = [get_user_model().objects.create_user(f"user{n}", password=PASSWORD)
             for n in range(4)]
    for user in users[:-1]:   # each user wrong once, all from one address
        client.force_login(user)
        assert change(client, "wrong").status_code == 400
    client.force_login(users[-1])
    assert change(client, PASSWORD).status_code == 429
    assert change(client, PASSWORD, REMOTE_ADDR="198.51.100.4").status_code == 302
