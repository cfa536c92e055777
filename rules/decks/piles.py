"""Pile codes every format shares (kept apart from ``rules/decks/legality.py``, whose upper-case
constants are all messages)."""

from __future__ import annotations

MAIN_PILE = "deck"
"""The pile of a deck's plain card list (every entry saved before piles existed)."""
