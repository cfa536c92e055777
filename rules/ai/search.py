"""The search agent: determinized Monte Carlo over what its player can see.

At each main-phase decision it samples a few worlds consistent with its view (hidden cards
resampled, see ``rules.engine.determinize``), tries each promising legal action in every world,
plays on with the greedy policy for both sides until the end of the opponent's next turn, and
scores the outcome with a position evaluation. The action with the best mean score is played.
Other decisions (mulligan, setup, targets, replenish, whether to use an awaken skill or last
words …) are answered by the greedy policy.

Invariant: it never reads the true game — every world comes from ``determinize(view, rng)``, so
its choice depends only on the view and its own RNG.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rules.ai.greedy import GreedyAgent
from rules.engine.actions import Action
from rules.engine.agent import NEEDS_VIEW
from rules.engine.determinize import determinize
from rules.engine.values import current_attack, keywords

if TYPE_CHECKING:
    from rules.engine.core import GameState
    from rules.engine.game import Game
    from rules.engine.view import PlayerView

WORLDS = 4               # sampled worlds per decision
CANDIDATES = 6           # actions kept after greedy pre-scoring (plus "end")
ROLLOUT_ACTIONS = 120    # a safety cap on one rollout
WIN = 1000.0


def evaluate(game: GameState, player: int) -> float:
    """How good the position is for ``player``: HP, board strength, cards in hand."""
    if game.result is not None:
        winner = game.result["winner"]
        return 0.0 if winner is None else (WIN if winner == player else -WIN)
    me, foe = game.players[player], game.players[1 - player]
    score = 1.5 * (me.hp - foe.hp)
    for sign, side in ((1, me), (-1, foe)):
        for minion in side.minions:
            if minion is not None:
                value = 2.0 + current_attack(game, minion) + (1.5 if minion.awake else 0)
                value += 1.0 * len(keywords(game, minion))
                score += sign * value
        score += sign * 0.6 * min(len(side.hand), 8)
    return score


class SearchAgent:
    name = "search"
    needs_view = True

    def __init__(self, worlds: int = WORLDS, candidates: int = CANDIDATES) -> None:
        self.worlds = worlds
        self.candidates = candidates
        self.policy = GreedyAgent()

    def choose(self, view: PlayerView | None, legal: list[Action],
               rng: random.Random) -> Action:
        if view is None:
            raise ValueError(NEEDS_VIEW.format(name=self.name))
        if view.decision != "main" or len(legal) == 1:
            return self.policy.choose(view, legal, rng)
        shortlist = self._shortlist(view, legal)
        worlds = [determinize(view, rng) for _ in range(self.worlds)]
        best, best_score = shortlist[0], float("-inf")
        for action in shortlist:
            total = 0.0
            for world in worlds:
                total += self._rollout(world.copy(), action, view.player,
                                       random.Random(rng.getrandbits(32)))
            if total > best_score:
                best, best_score = action, total
        return best

    def _shortlist(self, view: PlayerView, legal: list[Action]) -> list[Action]:
        values = self.policy.score(view, legal)
        order = sorted(range(len(legal)), key=lambda i: -values[i])
        picks = [legal[i] for i in order[: self.candidates]]
        end = [a for a in legal if a.kind == "end"]
        return picks + [a for a in end if a not in picks]

    def _rollout(self, game: Game, action: Action, player: int, rng: random.Random) -> float:
        game.apply(action, check=False)
        stop_turn = game.turn + 2 if game.active == player else game.turn + 1
        count = 0
        while game.decision is not None and game.turn < stop_turn and count < ROLLOUT_ACTIONS:
            seat = game.decision.player
            legal = game.legal_actions()
            game.apply(self.policy.choose(game.view(seat), legal, rng), check=False)
            count += 1
        return evaluate(game, player)

