"""Filters: does a card, or the minion showing it, pass a normalised vocabulary filter?

Invariant: a pure function of its arguments — callers decide what the matcher may know (the
effect interpreter passes a minion's current attack and keywords, auras included, only when
the filter asks about them; chosen targets never match a face-down enemy on more than
``PUBLIC_FILTER_KEYS``).
"""

from __future__ import annotations

from typing import Any, Final

from rules.engine.cards import CardDef
from rules.engine.state import Minion

# The only filter key a face-down enemy minion can be matched on by the player choosing it.
PUBLIC_FILTER_KEYS: Final = frozenset({"awake"})


def card_matches(card: CardDef, flt: dict[str, Any] | None, minion: Minion | None = None,
                 attack: int | None = None, keywords: Any = None) -> bool:
    """Does a card (or the minion showing it) pass a normalised filter?"""
    if flt is None:
        return True
    for key, value in flt.items():
        if key == "attribute":
            ok = card.attribute in value
        elif key == "rarity":
            ok = card.rarity in value
        elif key == "kind":
            ok = card.kind in value
        elif key == "faction":
            ok = card.faction in value
        elif key == "race":
            ok = card.race in value
        elif key == "keyword":
            have = keywords if keywords is not None else card.keywords
            ok = any(k in have for k in value)
        elif key == "cost_min":
            ok = card.cost >= value
        elif key == "cost_max":
            ok = card.cost <= value
        elif key == "attack_min":
            ok = (card.attack if attack is None else attack) >= value
        elif key == "attack_max":
            ok = (card.attack if attack is None else attack) <= value
        elif key == "awake":
            ok = minion is not None and minion.awake == value
        else:  # pragma: no cover - the validator admits no other key
            raise KeyError(key)
        if not ok:
            return False
    return True
