"""Evaluating candidate patches: games in blocks, with common random numbers, remembered.

Every candidate plays matchup ``(a, b)`` on the same seeds (``matchup_seed``): game ``g`` of
the matchup is game ``g`` of a run with that seed, whatever the patch (common random numbers),
so two candidates differ only by what their changes do. Games are played in *blocks* of
``BLOCK`` games (whole seat-swapped pairs); a candidate evaluated to ``n`` games owns the first
``n / BLOCK`` blocks of each matchup, and racing it further plays only the next blocks.

A matchup's games depend only on the moves touching a card of its two decks (a card in no deck
— a token — touches every matchup), so results are remembered under that *relevant* part of a
candidate: "Charger +1" and "Charger +1, Tidecaller −1" share every matchup without Tidewall.

An *evaluator* plays a batch of ``EvalTask`` and returns one ``Tally`` per block of each task,
in order. ``LocalEvaluator`` uses a process pool; the site's evaluator sends the same tasks to
Celery workers. Invariant: a task's tallies depend only on the task, never on who plays it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from rules.ai.agents import DEFAULT_AGENT, make_agent
from rules.engine.cards import STANDARD, CardDef, DeckList, Ruleset
from rules.lab.balance_search.space import Candidate, Move, candidate_cards
from rules.lab.intervals import Moments
from rules.lab.match import game_seed, play_game
from rules.lab.piece_pool import PiecePool

BLOCK = 50          # games per block (25 seat-swapped pairs)
_MASK = (1 << 63) - 1


def matchup_seed(search_seed: int, a: int, b: int, *, fresh: int = 0) -> int:
    """The run seed every candidate plays matchup (a, b) with; ``fresh`` > 0 gives the
    independent seeds a re-verification plays."""
    return random.Random(f"{search_seed}/{a}/{b}/{fresh}").getrandbits(62) & _MASK


@dataclass(frozen=True)
class Tally:
    """One block's outcome from deck ``a``'s side, with its seat-swapped pairs counted apart
    (``pairs[k]``: pairs with both games completed in which ``a`` won ``k`` games)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    errors: int = 0
    pairs: tuple[int, int, int] = (0, 0, 0)

    @property
    def completed(self) -> int:
        return self.wins + self.losses + self.draws

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.wins + other.wins, self.losses + other.losses,
                     self.draws + other.draws, self.errors + other.errors,
                     (self.pairs[0] + other.pairs[0], self.pairs[1] + other.pairs[1],
                      self.pairs[2] + other.pairs[2]))

    def moments(self) -> Moments:
        """The tally as clusters for a pair-aware interval: each complete pair one cluster of
        two games, and each game whose partner errored a cluster of its own."""
        out = Moments()
        for won, count in enumerate(self.pairs):   # ``count`` clusters of ``won`` wins in 2
            out = out.merge(Moments(count, won * count, 2 * count, won * won * count,
                                    2 * won * count, 4 * count))
        paired_wins = self.pairs[1] + 2 * self.pairs[2]
        single_games = self.completed - 2 * sum(self.pairs)
        single_wins = self.wins - paired_wins
        return out.merge(Moments.singletons(single_wins, single_games))

    def to_list(self) -> list[int]:
        return [self.wins, self.losses, self.draws, self.errors, *self.pairs]

    @classmethod
    def from_list(cls, data: Sequence[int]) -> Tally:
        return cls(data[0], data[1], data[2], data[3], (data[4], data[5], data[6]))


@dataclass(frozen=True)
class EvalTask:
    """Blocks ``first … first+blocks−1`` of matchup (a, b) under the candidate's moves, played
    by ``agent`` on both sides (empty: the field's agent)."""

    moves: Candidate
    a: int
    b: int
    seed: int
    first: int
    blocks: int
    agent: str = ""

    @property
    def games(self) -> int:
        return self.blocks * BLOCK


class Evaluator(Protocol):
    def evaluate(self, tasks: Sequence[EvalTask]) -> list[list[Tally]]:
        """One list of per-block tallies for each task, in order."""


@dataclass(frozen=True)
class Field:
    """What every task of a search plays: cards, decks, agent and ruleset."""

    cards: Mapping[str, CardDef]
    decks: tuple[DeckList, ...]
    agent: str = DEFAULT_AGENT
    ruleset: Ruleset = STANDARD


def play_block(field: Field, cards: Mapping[str, CardDef], task: EvalTask, block: int,
               agent: Any) -> Tally:
    """Play one block of a task: seat-swapped pairs, game ``g`` seeded as in a run."""
    wins = losses = draws = errors = 0
    pairs = [0, 0, 0]
    deck_a, deck_b = field.decks[task.a], field.decks[task.b]
    start = (task.first + block) * BLOCK
    for pair_start in range(start, start + BLOCK, 2):
        won, done = 0, 0
        for index in (pair_start, pair_start + 1):
            result = play_game(cards, deck_a, deck_b, seed=game_seed(task.seed, index),
                               a_first=index % 2 == 0, agent_a=agent, agent_b=agent,
                               ruleset=field.ruleset)
            if result.error is not None:
                errors += 1
                continue
            done += 1
            if result.winner == "a":
                wins, won = wins + 1, won + 1
            elif result.winner == "b":
                losses += 1
            else:
                draws += 1
        if done == 2:
            pairs[won] += 1
    return Tally(wins, losses, draws, errors, (pairs[0], pairs[1], pairs[2]))


def task_cards(field: Field, moves: Candidate) -> Mapping[str, CardDef]:
    return candidate_cards(field.cards, moves)


def play_task(field: Field, task: EvalTask) -> list[Tally]:
    cards = task_cards(field, task.moves)
    agent = make_agent(task.agent or field.agent)
    return [play_block(field, cards, task, block, agent) for block in range(task.blocks)]


class LocalEvaluator(PiecePool[Field, EvalTask, Tally]):
    """Plays tasks in this process (``processes=1``) or a pool of worker processes; long tasks
    are cut into pieces of ``piece`` blocks so the processes stay evenly busy."""

    def __init__(self, field: Field, processes: int = 2, piece: int = 2):
        super().__init__(field, play_task, processes, piece)


def relevant(moves: Candidate, touches: Mapping[str, tuple[int, ...]], a: int, b: int
             ) -> Candidate:
    """The moves of a candidate that can change matchup (a, b)'s games."""
    return tuple(m for m in moves if _touches(touches, m, a, b))


def _touches(touches: Mapping[str, tuple[int, ...]], move: Move, a: int, b: int) -> bool:
    decks = touches.get(move.card)
    return decks is None or a in decks or b in decks


def logit(p: float) -> float:
    return math.log(p / (1 - p))


def smoothed_rate(tally: Tally) -> float:
    """A's win rate with half a win and half a loss added (finite logits at 0 % and 100 %)."""
    return (tally.wins + 0.5) / (tally.completed + 1)
