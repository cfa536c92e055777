""""What would the planner do?": the planner's choice and how the candidates fare.

The planner (``rules.ai.agents``, by name) picks the move from the seat's view. Beside it each
candidate is rated the same way for every move, from the view alone: the hidden cards are
guessed (``rules.engine.determinize``: the other hand, both decks' order), the move is played,
and greedy players (the registry's default agent) finish the game; the rating is the share of
those games the seat wins (a draw counts half). Every candidate meets the same guessed worlds,
so the differences between moves are not differences of luck. A first round over every legal
move keeps the best few for a longer second round.

A hint has a cost cap: at most ``PLAYOUT_BUDGET`` played-out games in all (a first round of
fewer worlds a move when there are many moves, the moves past the budget unrated) and, as a
safety, ``HINT_SECONDS`` of wall time; a hint cut short says so (``complete`` false, ``note``).

The planner's pick is its own choice (its look-ahead over its turn, from its view), not the
best rating: where it is not the best-rated move the hint says so (``pick_note``).

Invariant: a hint depends only on the seat's view and the game's seed and step (its random
source is seeded from them), never on the true hidden cards.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy

from rules.ai.agents import DEFAULT_AGENT, make_agent
from rules.engine import Action, Game
from rules.engine.determinize import determinize
from rules.engine.view import PlayerView

HINT_AGENT = "planner"
FIRST_WORLDS = 4          # every legal move
KEPT = 4                  # moves kept for the second round, besides the planner's pick
SECOND_WORLDS = 12        # more worlds for the kept moves
PLAYOUT_ACTIONS = 2000    # a safety cap on one played-out game
PLAYOUT_BUDGET = 240      # played-out games of one hint, both rounds (a usual hint plays 60-150)
HINT_SECONDS = 6.0        # a safety cap on one hint's wall time

CUT_SHORT = gettext_lazy("This position has {moves} moves: to answer in seconds the hint rated "
                         "{rated} of them on fewer guessed games than usual.")
PICK_NOTE = gettext_lazy("The planner's pick is not the best-rated move here: the planner "
                         "chooses by its own look-ahead (each promising move played in a few "
                         "guessed games to the end of the opponent's next turn, the position "
                         "then scored by its evaluation), while a rating plays the whole game "
                         "out with two greedy players. The two measure different things; on a "
                         "few games each, small differences are luck.")


class Budget:
    """What a hint may still spend: played-out games and wall time."""

    def __init__(self, games: int, seconds: float):
        self.games = games
        self.deadline = time.monotonic() + seconds
        self.cut = False

    def spend(self) -> bool:
        """One more played-out game, if the budget allows it."""
        if self.games <= 0 or time.monotonic() > self.deadline:
            self.cut = True
            return False
        self.games -= 1
        return True


@dataclass
class Candidate:
    action: Action
    wins: float = 0.0
    games: int = 0
    pick: bool = False

    @property
    def rating(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action.to_dict(), "rating": round(self.rating, 4),
                "games": self.games, "planner_pick": self.pick}


def _play_out(world: Game, action: Action, seat: int, rng: random.Random) -> float:
    world.apply(action, check=False)
    agents = (make_agent(DEFAULT_AGENT), make_agent(DEFAULT_AGENT))
    world.play_out(agents, (random.Random(rng.getrandbits(32)),
                            random.Random(rng.getrandbits(32))), PLAYOUT_ACTIONS)
    if world.result is None or world.result["winner"] is None:
        return 0.5
    return 1.0 if world.result["winner"] == seat else 0.0


def _rate(candidates: list[Candidate], view: PlayerView, seat: int, rng: random.Random,
          worlds: int, budget: Budget) -> None:
    samples = [determinize(view, rng) for _ in range(worlds)]
    seeds = [rng.getrandbits(32) for _ in samples]
    for candidate in candidates:
        for world, seed in zip(samples, seeds, strict=True):
            if not budget.spend():
                return
            candidate.wins += _play_out(world.copy(), candidate.action, seat, random.Random(seed))
            candidate.games += 1


@dataclass
class Hint:
    candidates: list[Candidate] = field(default_factory=list)
    moves: int = 0                 # legal moves
    complete: bool = True          # every round played in full (not cut by the cost cap)

    @property
    def pick_differs(self) -> bool:
        """The planner's pick is not (one of) the best-rated candidates."""
        rated = [c for c in self.candidates if c.games]
        pick = next((c for c in rated if c.pick), None)
        return pick is not None and pick.rating < max(c.rating for c in rated)


def hint_of(game: Game, seat: int, rng: random.Random, budget: int | None = None) -> Hint:
    """The hint for ``seat``, within the cost cap."""
    if game.to_move != seat:
        return Hint()
    spend = Budget(PLAYOUT_BUDGET if budget is None else budget, HINT_SECONDS)
    legal = game.legal_actions()
    view = game.view(seat)
    pick = make_agent(HINT_AGENT).choose(view, legal, random.Random(rng.getrandbits(32)))
    candidates = [Candidate(action, pick=action == pick) for action in legal]
    first, second, kept = FIRST_WORLDS, SECOND_WORLDS, candidates
    if len(candidates) > 1:
        # The first round takes at most half the budget: fewer worlds a move when there are many.
        first = max(1, min(FIRST_WORLDS, spend.games // 2 // len(candidates)))
        # The pick is rated first, so it has a rating even when the budget runs out.
        order = sorted(candidates, key=lambda c: not c.pick)
        _rate(order, game.view(seat), seat, rng, first, spend)
        ranked = sorted((c for c in candidates if c.games), key=lambda c: -c.rating)
        kept = [c for c in ranked[:KEPT]] + [c for c in ranked[KEPT:] if c.pick]
        second = SECOND_WORLDS
        if kept:
            second = max(1, min(SECOND_WORLDS, spend.games // len(kept)))
            _rate(kept, game.view(seat), seat, rng, second, spend)
        candidates = sorted(kept, key=lambda c: (-c.rating, not c.pick))
    reduced = len(legal) > 1 and (first < FIRST_WORLDS or not kept or second < SECOND_WORLDS)
    return Hint(candidates=candidates, moves=len(legal), complete=not (spend.cut or reduced))


def hint_words(hint: Hint) -> dict[str, str]:
    """What the hint says of itself: ``note`` when the cost cap cut it short, ``pick_note`` when
    the planner's pick is not the best-rated move (how the pick is chosen)."""
    note = "" if hint.complete else str(CUT_SHORT).format(
        rated=sum(1 for c in hint.candidates if c.games), moves=hint.moves)
    return {"note": note, "pick_note": str(PICK_NOTE) if hint.pick_differs else ""}
