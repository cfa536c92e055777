"""Fixtures for the simulation tests: the 22-card test set, users, decks, and helpers that play a
run's chunks in this process (the service a worker calls, without a broker).

Runs here are tiny (tens of games with the greedy and random agents): the suite shares two
cores with everything else.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:   # helpers are imported as tests.simulations.helpers
    sys.path.insert(0, ROOT)

from decks.drafts import Draft  # noqa: E402
from decks.services import deck_create  # noqa: E402
from tests.fixtures import (  # noqa: E402, F401  (fixtures used by the tests here)
    LEGAL_CARDS,
    _empty_cache,
    alice,
    bob,
    catalogue,
    unique_queue,
)


@pytest.fixture
def make_deck(catalogue):  # noqa: F811  (the imported fixture, requested by name)
    def make(owner, visibility="private", name="Ember Test", hero="T-H01", cards=None):
        draft = Draft(name=name, hero=hero, cards=dict(cards or LEGAL_CARDS),
                      visibility=visibility)
        return deck_create(owner=owner, draft=draft)

    return make
