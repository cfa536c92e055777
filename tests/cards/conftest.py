"""Fixtures for the catalogue tests: the small test set loaded through the real service."""

from __future__ import annotations

import pytest

from cards.services import card_set_import
from rules.decks.cardset import TEST_SET


@pytest.fixture
def test_set(db):
    """The 22-card test set, loaded into the catalogue; returns the import report."""
    return card_set_import(source=TEST_SET)


@pytest.fixture
def test_set_text() -> str:
    return TEST_SET.read_text(encoding="utf-8")
