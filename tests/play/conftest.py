"""Fixtures for the play tests: the 22-card test set, users, and an API client per user.

Agents move inside the request here (``PLAY_AI_INLINE``): a unit test's transaction is not
visible to another thread. The browser tests (tests/e2e/test_play.py) use the thread pool.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.fixtures import _empty_cache, alice, bob, catalogue  # noqa: E402, F401

DAWN, DUSK = "starter:Dawn Test", "starter:Dusk Test"


@pytest.fixture(autouse=True)
def _agents_inline(settings):
    settings.PLAY_AI_INLINE = True


@pytest.fixture
def client_for(catalogue):  # noqa: F811
    from rest_framework.test import APIClient

    def make(user):
        client = APIClient()
        client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def start(client_for):
    def make(user, **fields):
        body = {"deck": DAWN, "opponent_deck": DUSK, "opponent": "greedy", "seed": 7,
                "first": "me", **fields}
        response = client_for(user).post("/api/play/", body, format="json")
        assert response.status_code == 201, response.json()
        return response.json()

    return make
