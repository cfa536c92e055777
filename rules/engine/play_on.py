"""Play on from a position: a new game's start, built from one seat's knowledge of a snapshot.

``play_on_snapshot(snapshot, cards=…, seats=…, rng=…)`` takes the true state of a game at a
main-phase decision (``rules.engine.snapshot``) and returns a snapshot of the same position as a
person could know it, with every card they could not see dealt anew from ``rng``:

- every deck is shuffled anew: nobody knew its order (R2.1.3, R1.1);
- a seat the person saw (``SeatKnowledge.hidden`` false: their own seat) keeps its hand, its
  face-down minions and its remaining deck's contents (a player knows their list: the view's
  ``deck_contents``);
- a seat the person did not see gets its hand, its deck and its face-down minions (R2.1.5: never
  revealed, so unknown) dealt without replacement from its deck list less the cards it has shown
  (graveyard, display, face-up minions), face-down minions from that list's minions; when the
  list is not known (a game between people keeps it hidden), from the cards the seat has shown
  up to this step, with replacement, as ``rules.engine.determinize`` guesses unknown cards.

What everyone sees stays as it was: heroes, life, energy, face-up minions with their buffs,
displays, graveyards, the turn and whose decision it is — so the new game's view of either seat
equals the old game's except for what that seat could not see. A position inside an effect or
the setup is refused (``PlayOnRefused``): a snapshot holds only a main-phase decision's state.

Invariant: the result never depends on a hidden seat's true hand, deck or face-down minions —
only on their sizes, the seat's slots and what the person could see. Nothing here imports Django.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

from rules.engine.cards import CardDef

# Why a position cannot be played on, as codes (the site words them).
NOT_MAIN = "not_main"           # inside an effect, a choice or the setup
GAME_OVER = "game_over"         # the game has ended at this step
NOTHING_SHOWN = "nothing_shown"  # a hidden seat whose list is unknown has shown no card to deal


class PlayOnRefused(ValueError):
    """A position a new game cannot start from; ``code`` is one of the codes above."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class SeatKnowledge:
    """What the person knows of one seat: ``hidden`` — its hand and face-down minions were not
    seen (they are dealt anew); ``deck_list`` — its deck list as {code: copies} when known;
    ``shown`` — the codes of the cards it has shown up to the step (for an unknown list)."""

    hidden: bool
    deck_list: Mapping[str, int] | None = None
    shown: Sequence[str] = ()


def refusal(snapshot: Mapping[str, Any]) -> str | None:
    """Why ``snapshot`` cannot be played on (a code), or None when it can."""
    if snapshot.get("result") is not None:
        return GAME_OVER
    decision = snapshot.get("decision") or {}
    if snapshot.get("phase") != "main" or decision.get("kind") != "main":
        return NOT_MAIN
    return None


def play_on_snapshot(snapshot: Mapping[str, Any], *, cards: Mapping[str, CardDef],
                     seats: Sequence[SeatKnowledge], rng: random.Random) -> dict[str, Any]:
    """The position of ``snapshot`` as the person knows it (see the module docstring)."""
    why = refusal(snapshot)
    if why is not None:
        raise PlayOnRefused(why)
    out = deepcopy(dict(snapshot))
    for index, known in enumerate(seats):
        player = out["players"][index]
        player["mulligan_marked"] = []
        if known.hidden:
            _deal_hidden(player, known, cards, rng)
        deck = list(player["deck"])
        rng.shuffle(deck)
        player["deck"] = deck
    return out


def shown_cards(player: Mapping[str, Any]) -> list[str]:
    """The codes a seat shows in a snapshot: its graveyard, display and face-up minions."""
    shown = [*player.get("graveyard", []), *player.get("display", [])]
    shown += [m["card"] for m in player.get("minions", []) if m is not None and m.get("public")]
    return shown


def _face_down(player: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [m for m in player.get("minions", []) if m is not None and not m.get("public")]


def _deal_hidden(player: dict[str, Any], known: SeatKnowledge, cards: Mapping[str, CardDef],
                 rng: random.Random) -> None:
    """Replace the seat's hand, deck and face-down minions by cards dealt from what is known."""
    face_down = _face_down(player)
    sizes = (len(player["hand"]), len(player["deck"]))
    if known.deck_list is not None:
        minions, rest = _from_list(known.deck_list, shown_cards(player), len(face_down),
                                   sum(sizes), cards, rng)
    else:
        minions, rest = _from_shown(known.shown, len(face_down), sum(sizes), cards, rng)
    for minion, code in zip(face_down, minions, strict=True):
        minion["card"] = code
        minion["keywords"] = sorted(cards[code].keyword_set)
    player["hand"], player["deck"] = rest[:sizes[0]], rest[sizes[0]:]


def _from_list(deck_list: Mapping[str, int], shown: Sequence[str], minion_count: int,
               other_count: int, cards: Mapping[str, CardDef], rng: random.Random
               ) -> tuple[list[str], list[str]]:
    """Face-down minions and the other hidden cards, without replacement from the list less
    what was shown. A list that has run short (a card an effect made, a minion taken by mind
    control, R6.5) is topped up from the whole list, with replacement."""
    left = Counter({code: n for code, n in deck_list.items() if code in cards})
    left.subtract(Counter(shown))
    remaining = sorted(left.elements())        # a fixed order: only ``rng`` decides the deal
    rng.shuffle(remaining)
    whole = sorted(Counter({c: n for c, n in deck_list.items() if c in cards}).elements())
    minions = [c for c in remaining if cards[c].kind == "minion"][:minion_count]
    for code in minions:
        remaining.remove(code)
    minions += _topped_up(whole, minion_count - len(minions), cards, rng, minion=True)
    others = remaining[:other_count]
    others += _topped_up(whole, other_count - len(others), cards, rng, minion=False)
    return minions, others


def _from_shown(shown: Sequence[str], minion_count: int, other_count: int,
                cards: Mapping[str, CardDef], rng: random.Random) -> tuple[list[str], list[str]]:
    """Guesses from the cards the seat has shown, with replacement (its list is unknown)."""
    pool = sorted({code for code in shown if code in cards})
    return (_topped_up(pool, minion_count, cards, rng, minion=True),
            _topped_up(pool, other_count, cards, rng, minion=False))


def _topped_up(pool: Sequence[str], count: int, cards: Mapping[str, CardDef],
               rng: random.Random, *, minion: bool) -> list[str]:
    if count <= 0:
        return []
    choices = [c for c in pool if cards[c].kind == "minion"] if minion else list(pool)
    if not choices:
        raise PlayOnRefused(NOTHING_SHOWN)
    return [choices[rng.randrange(len(choices))] for _ in range(count)]
