"""The planner agent: determinized Monte Carlo with a tuned policy and evaluation, on a budget.

At every decision with more than one legal action (any kind — main phase, targets, replenish,
choices, and kinds added later — except the mulligan and setup placement, which its policy
answers), it

1. keeps the most promising actions by its policy's scores (``candidates``, plus "end",
   "pass" or "decline" when legal);
2. samples ``worlds`` games consistent with its view (``rules.engine.determinize``: hidden cards
   drawn from its own RNG, the enemy's from the cards it has shown and the cards of its hero's
   faction, mostly minions as decks are — ``ENEMY_MINION_SHARE``);
3. plays each kept action in every world, then lets its policy play both sides until the end
   of the opponent's next turn (the same worlds for every action: common random numbers);
4. scores the outcome with ``evaluate`` — a weighted sum of features (``WEIGHTS``) — and plays
   the action with the best total.

Its policy (``POLICY``) is the greedy agent's heuristic with constants tuned by self-play; the
evaluation weights were tuned by self-play too (``python -m rules.lab.planner_tuning`` does both).
A decision where the policy sees a sure win (a lethal hero attack) is taken at once.

Invariant: it never reads the true game — every world comes from ``determinize(view, rng)``, so
its choice depends only on the view and its own RNG (seeded by the match runner): the same seed
plays the same game. Its budget is counted in rollouts, not time, so results do not depend on
the machine's load.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Final

from rules.ai.greedy import GreedyAgent, ReplayedDraws
from rules.ai.rollout import evaluate as evaluate_position
from rules.ai.rollout import rollout
from rules.engine.actions import Action
from rules.engine.agent import NEEDS_VIEW, Draws
from rules.engine.determinize import Pools, determinize
from rules.engine.values import work_out_auras

if TYPE_CHECKING:
    from rules.engine.cards import CardDef
    from rules.engine.core import GameState
    from rules.engine.game import Game
    from rules.engine.view import PlayerView

WORLDS: Final = 3              # sampled worlds per decision
CANDIDATES: Final = 5          # actions kept after greedy pre-scoring (plus end / pass)
HORIZON: Final = 1              # rollouts run to the end of the opponent's next turn
GREEDY_KINDS: Final = frozenset({"mulligan", "setup"})
DECLINE_KINDS: Final = frozenset({"end", "pass", "decline"})   # always compared
SURE_WIN: Final = 100.0        # the greedy score of a lethal attack
_DROPPED: Final = 1e9          # below any total of rollouts (each is within ±1000)

# Evaluation weights (see ``evaluate``), adjusted one at a time against greedy on common random
# numbers (240 games a trial; a card in hand 0.6 → 1.2 was the one change that held on two seed
# sets). ``python -m rules.lab.planner_tuning evaluation`` tunes them by CMA-ES against greedy and
# search; three generations of ten candidates at 240 games each found nothing that beat these
# by more than the noise of picking the best of ten.
WEIGHTS: Final[dict[str, float]] = {
    "hp": 1.5,            # hero HP difference
    "low_hp": 1.0,        # extra for each HP below rollout.LOW_HP (danger zone)
    "minion": 2.0,        # a minion on the board
    "attack": 1.0,        # its current attack
    "awake": 1.5,         # awakened (can act now)
    "keyword": 1.0,       # each keyword it has
    "sleeper_cost": 0.0,  # a sleeping minion's cost (what it will cost to wake)
    "hand": 1.2,          # a card in hand (up to 8)
    "hand_minion": 0.0,   # a minion card in hand (replenish material, up to 3)
    "empty_board": 0.0,   # penalty for an empty or single-minion board (R3.2)
}


# The policy the planner pre-scores actions with, answers the mulligan and setup with, and plays
# both sides of every rollout with: the greedy agent's heuristic (rules.ai.greedy.HEURISTIC) with
# its constants tuned by CMA-ES in self-play against greedy (``python -m rules.lab.planner_tuning
# policy``: 25 generations of 600 games a candidate from greedy's constants, then 10 more of
# 900 from their mean at σ 0.2; this is the last mean). Alone it beats greedy 60.5 % of the
# time at greedy's speed (the ladder's seeds, 1,020 games); it never mulligans, keeps a minion
# in hand at setup, and prefers awakening its big minions.
POLICY: Final[dict[str, float]] = {
    "mulligan_keep": -0.83,
    "mulligan_cost": 6.55,
    "setup_fill": -2.93,
    "place_thin": 15.33,
    "place_busy": 1.03,
    "place_fill": 1.72,
    "place_spare": 0,
    "place_attack": 1.67,
    "awaken": 8.83,
    "awaken_attack": 2.57,
    "awaken_cost": -0.73,
    "item": 0.49,
    "item_cost": -0.19,
    "face": 2.14,
    "face_damage": 0.55,
    "face_share": 16.89,
    "risk": 4.29,
    "risk_thin": 29.22,
    "urgency": 0.16,
    "urgency_hp": 26.18,
    "kill": 0.73,
    "kill_cost": 2.12,
    "trade": 0.56,
    "hidden": 0.03,
    "end": -0.26,
    "hero_skill": -0.12,
    "skill": -0.79,
}


def evaluate(game: GameState, player: int, weights: dict[str, float] = WEIGHTS) -> float:
    """How good the position is for ``player`` (a won game is +WIN, lost -WIN, drawn 0): the
    weighted sum of features of ``rules.ai.rollout.evaluate`` (compiled with the engine)."""
    return evaluate_position(game, player, weights)


# The share of minions among the enemy's unseen cards. A deck lives on its minions (an empty
# board loses, R3.2): the starter decks run 24–28 of them in 30 cards, while a faction's pool is
# about 22 minions to 35 faction-free items, so drawing from the pool as it is fills the
# enemy's guessed hand with items. Against search this prior won 55.4 % of 1,200 games where
# the unweighted pool won 52.9 % (57.2 % against 54.0 % on 600 other games); 0.65 and 0.93
# played alike.
ENEMY_MINION_SHARE: Final = 0.85


def _faction_pools(cards: Mapping[str, CardDef], hero: CardDef) -> Pools:
    """(cards, minions) an enemy deck built around ``hero`` is likely to hold: its faction's
    minions and the faction-free items, every card when the faction has none; each minion
    repeated so that a card drawn from the first list is a minion with about
    ``ENEMY_MINION_SHARE`` probability (a uniform draw from a list is a weighted draw)."""
    pool = [c for c in cards.values() if c.kind != "hero"
            and (c.faction == hero.faction or (c.kind == "item" and c.faction is None))]
    if not any(c.kind == "minion" for c in pool):
        pool = [c for c in cards.values() if c.kind != "hero"]
    pool.sort(key=lambda c: c.code)              # mapping order must not matter
    minions = [c for c in pool if c.kind == "minion"]
    items = len(pool) - len(minions)
    copies = max(1, round(ENEMY_MINION_SHARE / (1 - ENEMY_MINION_SHARE) * items
                          / max(1, len(minions))))
    weighted = [c for c in pool for _ in range(copies if c.kind == "minion" else 1)]
    return weighted, minions


# Where a world's generator starts: the seed it was made from (an int), or its saved state.
Start = int | tuple[Any, ...]


class _DeferredRandom(random.Random):
    """A generator that becomes ``random.Random(start)`` (a seed) or a generator restored to
    ``start`` (a state) at its first draw: a world's, and each rollout's copy of it. Most
    rollouts draw nothing from it (the decks are shuffled already), and seeding a Mersenne
    Twister, or saving and restoring its state, costs as much as a few of the rollout's
    decisions. Every method of ``random.Random`` the engine uses draws through ``random`` or
    ``getrandbits``."""

    def __init__(self, start: Start) -> None:   # unseeded: seeded or restored when first used
        self._start: Start | None = start

    def _set_up(self) -> None:
        start = self._start
        if start is not None:
            self._start = None
            if isinstance(start, int):
                super().seed(start)             # as random.Random(start) seeds itself
            else:
                super().setstate(start)

    def start(self) -> Start:
        """Where a generator in this one's state starts: the seed while nothing was drawn."""
        return self._start if self._start is not None else super().getstate()

    def random(self) -> float:
        self._set_up()
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self._set_up()
        return super().getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        self._set_up()
        return super().getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._start = None
        super().setstate(state)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._start = None
        super().seed(a, version)


def _start(rng: random.Random) -> Start:
    """Where a copy of ``rng`` starts (a world's generator is deferred unless a subclass's
    worlds made their own)."""
    return rng.start() if isinstance(rng, _DeferredRandom) else rng.getstate()


class PlannerAgent:
    name = "planner"
    needs_view = True

    def __init__(self, worlds: int = WORLDS, candidates: int = CANDIDATES,
                 weights: dict[str, float] | None = None, horizon: int = HORIZON,
                 faction_prior: bool = True, greedy_kinds: frozenset[str] = GREEDY_KINDS,
                 policy: dict[str, float] | None = None, keep: int = 0,
                 settle: float = 0.0) -> None:
        self.horizon = horizon
        self.keep = keep
        self.settle = settle
        self.faction_prior = faction_prior
        self.greedy_kinds = greedy_kinds
        self.worlds = worlds
        self.candidates = candidates
        self.weights = dict(WEIGHTS if weights is None else weights)
        self.policy = GreedyAgent(POLICY if policy is None else policy)
        self._pools: dict[str, Pools] = {}     # by enemy hero, for one card pool
        self._pool_owner: object = None

    def _enemy_pools(self, view: PlayerView) -> Pools:
        cards, hero = view._game.cards, view.enemy_hero      # the card set and a face-up hero
        if self._pool_owner is not cards:       # a new card pool: forget the old answers
            self._pools, self._pool_owner = {}, cards
        if hero.code not in self._pools:
            self._pools[hero.code] = _faction_pools(cards, hero)
        return self._pools[hero.code]

    def choose(self, view: PlayerView | None, legal: list[Action],
               rng: random.Random) -> Action:
        if view is None:
            raise ValueError(NEEDS_VIEW.format(name=self.name))
        if len(legal) == 1 or view.decision in self.greedy_kinds:
            return self.policy.choose(view, legal, rng)
        values = self.policy.score(view, legal)
        order = sorted(range(len(legal)), key=lambda i: -values[i])
        if values[order[0]] >= SURE_WIN:
            return legal[order[0]]
        shortlist = [legal[i] for i in order[: self.candidates]]
        shortlist += [a for a in legal if a.kind in DECLINE_KINDS and a not in shortlist]
        if len(shortlist) == 1:
            return shortlist[0]
        scores = self._search(view, shortlist, rng)
        return shortlist[max(range(len(shortlist)), key=lambda i: (scores[i], -i))]

    def _search(self, view: PlayerView, shortlist: list[Action],
                rng: random.Random) -> list[float]:
        """Each shortlisted action's total over the worlds it was played in (an action
        dropped after the first world keeps that world's score, below every survivor's)."""
        player = view.player
        scores = [0.0] * len(shortlist)
        alive = list(range(len(shortlist)))
        for world, world_start, draws in self._worlds(view, rng):
            work_out_auras(world)                # once for all its copies
            drawn: list[float] = []
            for i in alive:
                scores[i] += self._rollout(world.copy(_DeferredRandom(world_start)),
                                           shortlist[i], player, ReplayedDraws(draws, drawn))
            if self.keep and len(alive) > self.keep:
                alive = sorted(sorted(alive, key=lambda i: -scores[i])[: self.keep])
                scores = [s if i in alive else s - _DROPPED for i, s in enumerate(scores)]
            if self.settle and len(alive) > 1:
                best, second = sorted((scores[i] for i in alive), reverse=True)[:2]
                if best - second >= self.settle:
                    break
        return scores

    def _worlds(self, view: PlayerView,
                rng: random.Random) -> Iterator[tuple[Game, Start, random.Random]]:
        """Each world with where its RNG starts and its own generator of the policy's
        tie-breaks (seeded from ``rng``). Common random numbers: every action's rollout in a
        world starts from that RNG's start (seeded or restored only if the rollout draws from
        it) and replays that generator's draws from the start. All worlds are sampled first,
        unless a decision may settle before its last world (``settle``): then each is sampled
        when it is needed."""
        if self.settle:
            pools = self._enemy_pools(view) if self.faction_prior else None
            for _ in range(self.worlds):
                world = determinize(view, rng, pools, _DeferredRandom)
                yield world, _start(world.rng), random.Random(rng.getrandbits(32))
            return
        worlds = self._sample_worlds(view, rng)
        starts = [_start(world.rng) for world in worlds]
        yield from zip(worlds, starts, [random.Random(rng.getrandbits(32)) for _ in worlds],
                       strict=True)

    def _sample_worlds(self, view: PlayerView, rng: random.Random) -> list[Game]:
        """``worlds`` games consistent with the view: hidden cards drawn from ``rng``; each
        world's generator made from its seed at its first draw."""
        pools = self._enemy_pools(view) if self.faction_prior else None
        return [determinize(view, rng, pools, _DeferredRandom) for _ in range(self.worlds)]

    def _rollout(self, game: Game, action: Action, player: int, rng: Draws) -> float:
        return rollout(game, action, player, self.policy, rng, self.horizon, self.weights)
