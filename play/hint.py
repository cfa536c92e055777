""""What would the planner do?": the planner's choice and how the candidates fare.

The planner (``rules.ai.agents``, by name) picks the move from the seat's view. Beside it each
candidate is rated the same way for every move, from the view alone: the hidden cards are
guessed (``rules.engine.determinize``: the other hand, both decks' order), the move is played,
and greedy players (the registry's default agent) finish the game; the rating is the share of
those games the seat wins (a draw counts half). Every candidate meets the same guessed worlds,
so the differences between moves are not differences of luck. A first round over every legal
move keeps the best few for a longer second round.

Invariant: a hint depends only on the seat's view and the game's seed and step (its random
source is seeded from them), never on the true hidden cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rules.ai.agents import DEFAULT_AGENT, make_agent
from rules.engine import Action, Game
from rules.engine.determinize import determinize
from rules.engine.view import PlayerView

HINT_AGENT = "planner"
FIRST_WORLDS = 4          # every legal move
KEPT = 4                  # moves kept for the second round, besides the planner's pick
SECOND_WORLDS = 12        # more worlds for the kept moves
PLAYOUT_ACTIONS = 2000    # a safety cap on one played-out game


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
          worlds: int) -> None:
    samples = [determinize(view, rng) for _ in range(worlds)]
    seeds = [rng.getrandbits(32) for _ in samples]
    for candidate in candidates:
        for world, seed in zip(samples, seeds, strict=True):
            candidate.wins += _play_out(world.copy(), candidate.action, seat, random.Random(seed))
            candidate.games += 1


def planner_hint(game: Game, seat: int, rng: random.Random) -> list[Candidate]:
    """The planner's pick and the best-rated candidates, best first (empty when ``seat`` has
    nothing to decide)."""
    if game.to_move != seat:
        return []
    legal = game.legal_actions()
    view = game.view(seat)
    pick = make_agent(HINT_AGENT).choose(view, legal, random.Random(rng.getrandbits(32)))
    candidates = [Candidate(action, pick=action == pick) for action in legal]
    if len(candidates) > 1:
        _rate(candidates, game.view(seat), seat, rng, FIRST_WORLDS)
        ranked = sorted(candidates, key=lambda c: -c.rating)
        kept = [c for c in ranked[:KEPT]] + [c for c in ranked[KEPT:] if c.pick]
        _rate(kept, game.view(seat), seat, rng, SECOND_WORLDS)
        candidates = sorted(kept, key=lambda c: (-c.rating, not c.pick))
    return candidates
