"""Fixtures for the balance search tests: the test set's catalogue and users (shared with the
simulation tests), and a tiny search that plays in this process in seconds."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tests.fixtures import (  # noqa: E402, F401  (fixtures used by the tests here)
    _empty_cache,
    alice,
    bob,
    catalogue,
)

DAWN = "starter:Dawn Test"
DUSK = "starter:Dusk Test"
# Two decks (one matchup), their heroes and three most-copied cards, a budget that affords one
# rung of 50 games: a whole search and its re-verification in a few thousand games.
TINY = {"deck_specs": [DAWN, DUSK], "agent": "greedy", "max_changes": 2,
        "budget_games": 2_000, "verify_games": 100, "seed": 5,
        "allowed_cards": ["T-H01", "T-H02", "T-M01", "T-M03"]}


@pytest.fixture
def tiny(settings):
    settings.BALANCE_PIECE_BLOCKS = 2
    return dict(TINY)
