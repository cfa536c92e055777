"""R1.5, the attribute advantage cycle: fire > grass > water > fire; light and dark beat nothing
and lose to nothing. A module of its own so the compiled engine calls it natively (see
rules/compiled.py); ``rules.engine.cards`` re-exports it."""

from __future__ import annotations

from typing import Final

BEATS: Final[dict[str, str]] = {"fire": "grass", "grass": "water", "water": "fire"}


def has_advantage(attribute: str | None, other: str | None) -> bool:
    """True when ``attribute`` beats ``other`` in the advantage cycle (R1.5): ``BEATS`` as
    comparisons (agents ask for every attack they score; a dictionary lookup cost more)."""
    if attribute is None:
        return False
    if attribute == "fire":
        return other == "grass"
    if attribute == "grass":
        return other == "water"
    if attribute == "water":
        return other == "fire"
    return other is None          # as BEATS.get(attribute) == other: light or dark vs none
