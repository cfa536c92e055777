"""The planner's inner loop, compiled with the engine: a rollout and the position evaluation.

A planning agent spends nearly all its time here — thousands of rollouts a game, each a few
actions of its policy for both sides and one evaluation — so these run as native code
(``rules.loader.ENGINE_SOURCES``) while the agents' decision logic stays plain Python.

Invariants: a rollout plays only on the copy it is given, and depends only on that copy, the
action, the policy and its draws; the evaluation reads the position and nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rules.engine.values import current_attack, keyword_count

if TYPE_CHECKING:
    from rules.ai.greedy import GreedyAgent
    from rules.engine.actions import Action
    from rules.engine.agent import Draws
    from rules.engine.core import GameState
    from rules.engine.game import Game

WIN: Final = 1000.0
LOW_HP: Final = 8              # below this a hero's HP counts extra (the danger zone)
ROLLOUT_ACTIONS: Final = 150   # a safety cap on one rollout


def evaluate(game: GameState, player: int, weights: dict[str, float]) -> float:
    """How good the position is for ``player`` (a won game is +WIN, lost -WIN, drawn 0): a
    weighted sum of features, the weights named as in ``rules.ai.planner.WEIGHTS``."""
    if game.result is not None:
        winner = game.result["winner"]
        return 0.0 if winner is None else (WIN if winner == player else -WIN)
    w_minion, w_attack, w_awake = weights["minion"], weights["attack"], weights["awake"]
    w_keyword, w_sleeper = weights["keyword"], weights["sleeper_cost"]
    w_hp, w_low, w_hand = weights["hp"], weights["low_hp"], weights["hand"]
    w_spare, w_empty = weights["hand_minion"], weights["empty_board"]
    score = 0.0
    for side_index in (player, 1 - player):
        side = game.players[side_index]
        value = w_hp * side.hp - w_low * max(0, LOW_HP - side.hp)
        count = 0
        for minion in side.minions:
            if minion is None:
                continue
            count += 1
            value += w_minion + w_attack * current_attack(game, minion) \
                + w_keyword * keyword_count(game, minion)
            value += w_awake if minion.awake else w_sleeper * minion.card.cost
        value += w_hand * min(len(side.hand), 8)
        spare = 0
        for card in side.hand:
            if card.kind == "minion":
                spare += 1
        value += w_spare * min(spare, 3)
        if count + min(spare, 1) <= 1:
            value -= w_empty
        score += value if side_index == player else -value
    return score


def rollout(game: Game, action: Action, player: int, policy: GreedyAgent, rng: Draws,
            horizon: int, weights: dict[str, float]) -> float:
    """Play ``action`` on ``game``, then ``policy`` for both sides until the end of the turn
    ``horizon`` turns after ``player``'s current one ends (1: the opponent's next turn); the
    evaluation of where it stopped, for ``player``."""
    game.apply(action, check=False)
    stop_turn = game.turn + horizon + (1 if game.active == player else 0)
    count = 0
    while game.decision is not None and game.turn < stop_turn and count < ROLLOUT_ACTIONS:
        seat = game.decision.player
        game.apply(policy.choose(game.view(seat), game.legal_actions(), rng), check=False)
        count += 1
    return evaluate(game, player, weights)
