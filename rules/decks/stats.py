"""Deck statistics for the builder (pure): cost curve, attribute and kind breakdown,
opening-hand odds (hypergeometric) and a sample opening hand.

Invariants: nothing here touches Django or the module-level ``random``; a sample hand comes from
a ``random.Random(seed)``, so the same seed shows the same hand.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from math import comb
from typing import Any

OPENING_HAND = 10  # R2.1.3
CURVE_TOP = 7      # costs of 7 and more share the last bar
ATTRIBUTES = ("fire", "grass", "water", "light", "dark")


def p_at_least_one(deck_size: int, copies: int, hand: int = OPENING_HAND) -> float:
    """P(at least one of ``copies`` cards in a ``hand``-card draw from ``deck_size``)."""
    if deck_size <= 0 or copies <= 0:
        return 0.0
    copies = min(copies, deck_size)
    hand = min(hand, deck_size)
    return 1.0 - comb(deck_size - copies, hand) / comb(deck_size, hand)


@dataclass(frozen=True)
class DeckStats:
    size: int
    curve: list[tuple[str, int]]          # ("0", n) … ("7+", n)
    kinds: list[tuple[str, int]]          # ("minion", n), ("item", n), ...
    attributes: list[tuple[str, int]]     # minions by attribute
    odds: list[tuple[str, int, float]]    # (code, copies, P(≥1 in the opening hand))
    average_cost: float | None

    @property
    def curve_max(self) -> int:
        return max((n for _, n in self.curve), default=0)


def deck_stats(counts: Mapping[str, int], cards: Mapping[str, Any]) -> DeckStats:
    """Statistics of ``counts`` ({code: copies}); ``cards`` maps codes to objects with
    ``kind``, ``cost`` and ``attribute`` (unknown codes count in the size only)."""
    size = sum(counts.values())
    curve = [0] * (CURVE_TOP + 1)
    kinds: dict[str, int] = {}
    attributes = dict.fromkeys(ATTRIBUTES, 0)
    cost_total = cost_cards = 0
    for code, n in counts.items():
        card = cards.get(code)
        if card is None:
            continue
        kinds[card.kind] = kinds.get(card.kind, 0) + n
        if card.kind in ("minion", "item"):
            cost = card.cost or 0
            curve[min(cost, CURVE_TOP)] += n
            cost_total += cost * n
            cost_cards += n
        if card.kind == "minion" and card.attribute in attributes:
            attributes[card.attribute] += n
    labels = [str(c) for c in range(CURVE_TOP)] + [f"{CURVE_TOP}+"]
    odds = sorted(((code, n, p_at_least_one(size, n)) for code, n in counts.items()),
                  key=lambda row: (-row[2], row[0]))
    return DeckStats(size=size, curve=list(zip(labels, curve, strict=True)),
                     kinds=sorted(kinds.items(), key=lambda kv: ("minion", "item",
                                                                 "hero").index(kv[0])
                                  if kv[0] in ("minion", "item", "hero") else 9),
                     attributes=[(a, n) for a, n in attributes.items() if n],
                     odds=odds,
                     average_cost=round(cost_total / cost_cards, 2) if cost_cards else None)


def sample_hand(counts: Mapping[str, int], seed: int, hand: int = OPENING_HAND) -> list[str]:
    """A shuffled deck's first ``hand`` cards (codes), reproducible from ``seed``."""
    pile = [code for code, n in sorted(counts.items()) for _ in range(n)]
    rng = random.Random(seed)
    rng.shuffle(pile)
    return pile[:hand]
