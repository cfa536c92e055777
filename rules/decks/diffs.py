"""What changed between two states of a deck (pure): "+2 Ember Pup, −1 Fire Bolt".

Invariant: applying the changes of ``card_changes(old, new)`` to ``old`` gives ``new``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    code: str
    delta: int
    label: str

    def __str__(self) -> str:
        sign = "+" if self.delta > 0 else "−"
        return f"{sign}{abs(self.delta)} {self.label}"


def card_changes(old: Mapping[str, int], new: Mapping[str, int],
                 label: Callable[[str], str] = str) -> list[Change]:
    """Additions first, then removals, each by card label."""
    out = [Change(code, new.get(code, 0) - old.get(code, 0), label(code))
           for code in set(old) | set(new) if new.get(code, 0) != old.get(code, 0)]
    return sorted(out, key=lambda c: (c.delta < 0, c.label.casefold(), c.code))


@dataclass(frozen=True)
class Comparison:
    """Two decks side by side: rows of (code, count in A, count in B), both heroes."""

    rows: list[tuple[str, int, int]]
    only_a: int
    only_b: int
    shared: int


def compare_counts(a: Mapping[str, int], b: Mapping[str, int]) -> Comparison:
    codes = sorted(set(a) | set(b))
    rows = [(code, a.get(code, 0), b.get(code, 0)) for code in codes]
    shared = sum(min(x, y) for _, x, y in rows)
    return Comparison(rows=rows, only_a=sum(a.values()) - shared,
                      only_b=sum(b.values()) - shared, shared=shared)
