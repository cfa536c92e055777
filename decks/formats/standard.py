"""The ``standard`` format (RULES.md R5): the one format the site cannot work without.

A data migration creates it; if something deleted it (a flushed test database, an admin), the
services and the selectors make it again from the same figures.
"""

from __future__ import annotations

from decks.models import Format

# RULES.md R5, as the data migration 0002_standard_format writes it (that copy is frozen).
STANDARD_FORMAT = {
    "name": "Standard",
    "description": ("The format of the rule book (R5): 1 hero; exactly 30 minion and item "
                    "cards; at most 1 copy of a UR card and 3 of any other; no ban list."),
    "hero_count": 1, "deck_min": 30, "deck_max": 30,
    "minions_allowed": True, "items_allowed": True, "heroes_allowed_in_deck": False,
    "limit_n": 3, "limit_r": 3, "limit_sr": 3, "limit_ssr": 3, "limit_ur": 1,
    "is_active": True,
}


def format_standard_create() -> Format:
    """The ``standard`` format, made again if it was deleted."""
    fmt, _ = Format.objects.get_or_create(code="standard", defaults=STANDARD_FORMAT)
    return fmt
