"""A request the API refuses for want of credentials is a 401 with the WWW-Authenticate
challenge HTTP requires: Basic for a script, the log-in form and session cookie for a browser
that has the site's cookies (no password dialog). A signed-in user refused is still a 403."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

WRITES = [("post", "/api/decks/", {"cards": {}}),
          ("put", "/api/collection/cards/T-M01/", {"count": 1}),
          ("post", "/api/collection/import/", {"text": "1x Ember Pup"}),
          ("post", "/api/simulations/", {})]


@pytest.mark.parametrize("method, path, body", WRITES)
def test_a_signed_out_write_is_a_401_with_a_basic_challenge(catalogue, method, path, body):
    answer = getattr(APIClient(), method)(path, body, format="json")
    assert answer.status_code == 401, (path, answer.status_code)
    assert answer["WWW-Authenticate"] == 'Basic realm="api"'
    assert answer.json()["detail"]


def test_a_browser_with_the_sites_cookies_is_told_to_log_in_not_asked_for_a_password(catalogue):
    browser = APIClient()
    browser.cookies["csrftoken"] = "x" * 32
    answer = browser.post("/api/decks/", {"cards": {}}, format="json")
    assert answer.status_code == 401
    challenge = answer["WWW-Authenticate"]
    assert challenge.startswith("Cookie ") and 'form-action="/accounts/login/"' in challenge


def test_a_signed_out_read_of_your_own_data_is_a_401_too(catalogue):
    answer = APIClient().get("/api/collection/")
    assert answer.status_code == 401 and answer.has_header("WWW-Authenticate")


def test_a_signed_in_user_refused_is_still_a_403(alice, bob, catalogue):
    from decks.drafts import Draft
    from decks.services import deck_create
    from tests.fixtures import LEGAL_CARDS

    deck = deck_create(owner=alice, draft=Draft(name="x", hero="T-H01", cards=dict(LEGAL_CARDS),
                                                visibility="public"))
    api = APIClient()
    api.force_authenticate(bob)
    answer = api.put(f"/api/decks/{deck.uid}/tags/", {"tags": ["x"]}, format="json")
    assert answer.status_code == 403
