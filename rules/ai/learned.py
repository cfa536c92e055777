"""The learned agents: the planner's policy and search, judged by the learned evaluator.

- ``LearnedAgent`` (``learned``, cheap): at a main-phase decision where the policy (the
  planner's tuned greedy heuristic) is unsure — its two best actions within ``MARGIN`` — it
  keeps the policy's ``CANDIDATES`` best actions (plus "end"), samples one world consistent
  with its view (``rules.engine.determinize``, the planner's faction prior), plays each kept
  action in a copy of that world, lets the policy finish the turn (``finish_turn``: every
  candidate is judged at the same moment, the turn just over) and takes the one after which
  ``rules.ai.value_model`` gives its seat the best chance of winning. A lethal attack the policy
  sees, a clear favourite and every other kind of decision are the policy's.
- ``LearnedPlannerAgent`` (``learned_planner``, strong): the planner's search (``rules.ai.planner``)
  on ``WORLDS`` worlds and ``PLANNER_CANDIDATES`` actions, where the policy is unsure, judged
  by both evaluators on the same rollouts: the learned chance of winning where its own turn ends
  (from its seat's view) and the planner's material after the opponent's reply, each brought to
  one scale over the shortlist and mixed ``LEARNED_SHARE`` to the learned value.

Both read the shipped model (``rules/ai/data/learned_value.json``) unless given one, and refuse
a card set it was not trained on (``ModelMismatch``, at the first decision).

Invariant: as the planner's — a world is drawn from the view and the agent's own RNG, and the
evaluator reads only its seat's view of a world — so the choice depends only on the view and
the RNG, and the same seed plays the same game.
"""

from __future__ import annotations

import heapq
import random
from typing import TYPE_CHECKING, Final

import numpy as np

from rules.ai.greedy import GreedyAgent, ReplayedDraws
from rules.ai.lean import POLICY_KINDS
from rules.ai.planner import (
    DECLINE_KINDS,
    POLICY,
    SURE_WIN,
    PlannerAgent,
    _DeferredRandom,
    _faction_pools,
    _start,
)
from rules.ai.rollout import ROLLOUT_ACTIONS
from rules.ai.rollout import evaluate as material
from rules.ai.value_model import ValueModel, shipped_model
from rules.engine.actions import Action
from rules.engine.agent import NEEDS_VIEW, Draws
from rules.engine.determinize import Pools, determinize
from rules.engine.values import work_out_auras

if TYPE_CHECKING:
    from rules.engine.game import Game
    from rules.engine.view import PlayerView

CANDIDATES: Final = 3          # the cheap agent's look-ahead: the policy's best few, plus "end"
MARGIN: Final = 1.0           # the policy's best is played without a look-ahead this far ahead
WORLDS: Final = 2              # the strong agent's sampled worlds per decision
PLANNER_CANDIDATES: Final = 4  # and the actions it plays in each
SCALE: Final = 100.0           # a chance of winning in the planner's units (points of 1 %)
LEARNED_SHARE: Final = 0.5     # the learned value's share of the strong agent's judgement


class LearnedAgent:
    name = "learned"
    needs_view = True

    def __init__(self, model: ValueModel | None = None, candidates: int = CANDIDATES,
                 margin: float = MARGIN) -> None:
        self._model = model
        self.candidates = candidates
        self.margin = margin
        self.policy = GreedyAgent(POLICY)
        self._pools: dict[str, Pools] = {}     # the enemy's likely cards, by its hero
        self._pool_owner: object = None         # for one card set

    @property
    def model(self) -> ValueModel:
        if self._model is None:
            self._model = shipped_model()
        return self._model

    def _enemy_pools(self, view: PlayerView) -> Pools:
        cards, hero = view._game.cards, view.enemy_hero      # the card set and a face-up hero
        if self._pool_owner is not cards:
            self._pools, self._pool_owner = {}, cards
        if hero.code not in self._pools:
            self._pools[hero.code] = _faction_pools(cards, hero)
        return self._pools[hero.code]

    def choose(self, view: PlayerView | None, legal: list[Action],
               rng: random.Random) -> Action:
        if view is None:
            raise ValueError(NEEDS_VIEW.format(name=self.name))
        model = self.model
        model.check_cards(view._game.cards)     # the card set only, never a hidden card
        if len(legal) == 1 or view.decision in POLICY_KINDS:
            return self.policy.choose(view, legal, rng)
        values = self.policy.score(view, legal)
        order = sorted(range(len(legal)), key=lambda i: -values[i])
        if values[order[0]] >= SURE_WIN or values[order[0]] - values[order[1]] >= self.margin:
            return legal[order[0]]
        shortlist = [legal[i] for i in order[: self.candidates]]
        shortlist += [a for a in legal if a.kind in DECLINE_KINDS and a not in shortlist]
        if len(shortlist) == 1:
            return shortlist[0]
        world = determinize(view, rng, self._enemy_pools(view), _DeferredRandom)
        work_out_auras(world)
        start = _start(world.rng)
        after = []
        for action in shortlist:
            copy = world.copy(_DeferredRandom(start))
            finish_turn(copy, action, view.player, self.policy, rng)
            after.append(copy.view(view.player))
        chances = model.values(after)
        return shortlist[max(range(len(shortlist)), key=lambda i: (chances[i], -i))]


def finish_turn(game: Game, action: Action, player: int, policy: GreedyAgent,
                rng: Draws, horizon: int = 0) -> None:
    """Play ``action``, then ``policy`` for both sides until ``player``'s turn is over (if
    it is ``player``'s turn), so that every candidate is judged at the same moment."""
    game.apply(action, check=False)
    stop_turn = game.turn + horizon + (1 if game.active == player else 0)
    count = 0
    while game.decision is not None and game.turn < stop_turn and count < ROLLOUT_ACTIONS:
        seat = game.decision.player
        game.apply(policy.choose(game.view(seat), game.legal_actions(), rng), check=False)
        count += 1


def play_on(game: Game, stop_turn: int, policy: GreedyAgent, rng: Draws) -> None:
    """``policy`` for both sides until turn ``stop_turn`` begins (or the game ends, or
    ``ROLLOUT_ACTIONS`` actions are played)."""
    count = 0
    while game.decision is not None and game.turn < stop_turn and count < ROLLOUT_ACTIONS:
        seat = game.decision.player
        game.apply(policy.choose(game.view(seat), game.legal_actions(), rng), check=False)
        count += 1


def standardised(values: np.ndarray) -> np.ndarray:
    """``values`` less their mean, over their spread (all zero where they are all equal)."""
    spread = values.std()
    return (values - values.mean()) / spread if spread > 1e-9 else np.zeros_like(values)


class LearnedPlannerAgent(PlannerAgent):
    name = "learned_planner"

    def __init__(self, model: ValueModel | None = None, worlds: int = WORLDS,
                 candidates: int = PLANNER_CANDIDATES, horizon: int = 0,
                 margin: float = MARGIN, learned_share: float = LEARNED_SHARE) -> None:
        super().__init__(worlds=worlds, candidates=candidates, greedy_kinds=POLICY_KINDS,
                         horizon=horizon)
        self._model = model
        self.margin = margin
        self.learned_share = learned_share      # 1: the learned value alone (``_rollout``)
        self.reply_turns = 1        # turns the rollout plays on before the material judges

    @property
    def model(self) -> ValueModel:
        if self._model is None:
            self._model = shipped_model()
        return self._model

    def choose(self, view: PlayerView | None, legal: list[Action],
               rng: random.Random) -> Action:
        if view is None:
            raise ValueError(NEEDS_VIEW.format(name=self.name))
        self.model.check_cards(view._game.cards)
        if len(legal) > 1 and view.decision not in self.greedy_kinds:
            values = self.policy.score(view, legal)
            best, second = heapq.nlargest(2, values)
            if best - second >= self.margin:      # the policy is sure enough: no search
                return legal[values.index(best)]
        return super().choose(view, legal, rng)

    def _search(self, view: PlayerView, shortlist: list[Action],
                rng: random.Random) -> list[float]:
        """Each shortlisted action judged by both evaluators on the same rollouts.

        Why both: each evaluator is good at one horizon only. The learned value judges the
        position where its own turn ends as well as the planner's material judges it after
        the opponent's reply, and each is poor at the other's horizon (the learned value after
        the reply, the material at the turn's end: docs/learned-agent.md). Alone, either
        plays about as well as the planner; they err in different places, so their sum, each
        standardised over the shortlist (a chance of winning and a material count have no
        common unit), errs less. One rollout serves both: played to the end of its own turn
        (``horizon`` turns later), judged by the model, then on through the reply and
        judged by material. Each world's scores are summed per action, as the planner's."""
        if self.learned_share >= 1.0:
            return super()._search(view, shortlist, rng)
        player, model = view.player, self.model
        learned, after_reply = np.zeros(len(shortlist)), np.zeros(len(shortlist))
        for world, world_start, draws in self._worlds(view, rng):
            work_out_auras(world)                # once for all its copies
            drawn: list[float] = []
            for i, action in enumerate(shortlist):
                game = world.copy(_DeferredRandom(world_start))
                replay = ReplayedDraws(draws, drawn)
                finish_turn(game, action, player, self.policy, replay, self.horizon)
                learned[i] += model.value(game.view(player))
                play_on(game, game.turn + self.reply_turns, self.policy, replay)
                after_reply[i] += material(game, player, self.weights)
        share = self.learned_share
        scores = share * standardised(learned) + (1 - share) * standardised(after_reply)
        return [float(score) for score in scores]

    def _rollout(self, game: Game, action: Action, player: int, rng: Draws) -> float:
        """The learned value alone (``learned_share`` 1): play ``action``, then the policy for
        both sides to the end of ``player``'s turn; the learned chance of winning from there,
        as ``player`` sees it."""
        finish_turn(game, action, player, self.policy, rng, self.horizon)
        return SCALE * self.model.value(game.view(player))
