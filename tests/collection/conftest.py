"""Fixtures for the collection tests: the test set, two users, decks made through the deck
services, and a client signed in as alice."""

from __future__ import annotations

import pytest

from decks.drafts import Draft
from decks.services import deck_create
from tests.fixtures import (  # noqa: F401  (fixtures used by the tests here)
    LEGAL_CARDS,
    PASSWORD,
    UserFactory,
    _empty_cache,
    alice,
    bob,
    catalogue,
)


def legal_draft(**changes) -> Draft:
    fields = {"name": "Ember Rush", "hero": "T-H01", "cards": dict(LEGAL_CARDS)}
    fields.update(changes)
    return Draft(**fields)


@pytest.fixture
def make_deck(catalogue):  # noqa: F811
    def make(owner, visibility="private", **changes):
        return deck_create(owner=owner, draft=legal_draft(visibility=visibility, **changes))

    return make


@pytest.fixture
def alice_client(client, alice):  # noqa: F811
    client.force_login(alice)
    return client
