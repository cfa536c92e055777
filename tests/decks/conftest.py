"""Fixtures for the deck tests: the 22-card test set in the catalogue, users, decks.

Every deck test starts with an empty cache, so the log-in and import throttles never carry
over from one test to the next.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:   # shared fixtures are imported as tests.fixtures
    sys.path.insert(0, ROOT)

from decks.drafts import Draft  # noqa: E402
from decks.services import deck_create  # noqa: E402
from tests.fixtures import (  # noqa: E402, F401  (fixtures used by the tests here)
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
def make_deck(catalogue):  # noqa: F811  (the imported fixture, requested by name)
    def make(owner, visibility="private", **changes):
        return deck_create(owner=owner, draft=legal_draft(visibility=visibility, **changes))

    return make
