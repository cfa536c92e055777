"""The profile page: your decks, your runs with agents and win rates, your e-mail address."""

from __future__ import annotations

import pytest
from django.urls import reverse

from config.profile import EMAIL_REMOVED, EMAIL_SAVED, SETTINGS_SAVED
from simulations.services import simulation_request
from tests.fixtures import LEGAL_CARDS, alice, bob, catalogue  # noqa: F401
from tests.simulations.helpers import DUSK, play_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def alices_deck(alice, catalogue):  # noqa: F811
    from decks.drafts import Draft
    from decks.services import deck_create

    return deck_create(owner=alice, draft=Draft(name="Alice's Dawn", hero="T-H01",
                                                cards=dict(LEGAL_CARDS)))


def test_the_profile_needs_an_account(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_profile_lists_your_decks_and_runs_only(client, alice, bob, alices_deck):  # noqa: F811
    run = simulation_request(user=alice, deck_specs=[alices_deck.uid, DUSK], kind="match",
                             games=4, agent_a="greedy", agent_b="random", seed=1,
                             chunk_size=4)
    play_all(run)
    client.force_login(alice)
    page = client.get(reverse("profile")).content.decode()
    assert "Alice&#x27;s Dawn" in page and run.label.replace("'", "&#x27;") in page
    assert "greedy vs random" in page and "deck A wins" in page
    assert reverse("accounts:password_change") in page
    client.force_login(bob)
    other = client.get(reverse("profile")).content.decode()
    assert "Alice&#x27;s Dawn" not in other and "No decks yet" in other


def test_the_e_mail_address_is_set_and_checked(client, alice):  # noqa: F811
    client.force_login(alice)
    bad = client.post(reverse("profile"), {"email": "not-an-address"})
    assert bad.status_code == 400 and "Enter a valid email address" in bad.content.decode()
    response = client.post(reverse("profile"), {"email": "alice@example.com"}, follow=True)
    assert EMAIL_SAVED.format(email="alice@example.com") in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_saving_only_the_spectator_setting_says_so_and_not_that_the_address_went(
        client, alice):  # noqa: F811
    alice.email = ""
    alice.save(update_fields=["email"])
    client.force_login(alice)
    response = client.post(reverse("profile"), {"email": "", "allow_spectators": "on"},
                           follow=True)
    page = response.content.decode()
    assert str(SETTINGS_SAVED) in page and str(EMAIL_REMOVED) not in page
    assert "Save changes" in page and "Save the address" not in page
    alice.refresh_from_db()
    assert alice.email == ""


def test_the_header_links_to_the_profile(client, alice):  # noqa: F811
    client.force_login(alice)
    assert 'href="/accounts/profile/"' in client.get("/").content.decode()
