"""Games played once per forecast: every block of one list against another on a seed is kept,
so a later round that asks for the same games (both lists unchanged, the same seed) reads them
instead of playing them again; and every game left out by an engine error is recorded with the
phase that played it, its decks, seed and game index, so the report can say so.

A tuning's search plays each opponent on seeds that stay the same from round to round
(``rounds._search_seed``), so an archetype whose list and opponent did not change re-reads its
racing games; the fresh games that verify a change are new every round (``rounds._verify_seed``).

Invariant: the outcomes returned for a task are those ``play_pair_task`` gives for it — reusing
a block never changes a figure, only the games played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.ai.agents import make_agent
from rules.engine.cards import CardDef, Ruleset
from rules.lab.deck_tuning import BLOCK
from rules.lab.deck_tuning.problem import DeckKey, deck_list
from rules.lab.forecast.play import PairEvaluator, PairTask
from rules.lab.match import game_seed, play_game

ERROR = "e"      # a block's outcome of a game the engine could not finish


@dataclass(frozen=True)
class LeftOut:
    """One game an engine error left out of every figure: enough to play it again."""

    phase: str
    deck: DeckKey
    rival: DeckKey
    seed: int            # the run seed (``rules.lab.match.game_seed(seed, game)``)
    game: int
    agent: str


class ReusingPairs:
    """A pair evaluator that plays each block of (deck, rival, seed, agent) at most once."""

    def __init__(self, pairs: PairEvaluator):
        self.pairs = pairs
        self.blocks: dict[tuple[DeckKey, DeckKey, int, str], list[str]] = {}
        self.played = 0          # games played
        self.reused = 0          # games asked for again and read instead
        self.phase = ""
        self.left_out: list[LeftOut] = []

    def evaluate(self, tasks: Sequence[PairTask]) -> list[list[str]]:
        missing: list[PairTask] = []
        wanted: dict[tuple[DeckKey, DeckKey, int, str], int] = {}
        for task in tasks:
            key = (task.deck, task.rival, task.seed, task.agent)
            wanted[key] = max(wanted.get(key, 0), task.first + task.blocks)
        for key, end in wanted.items():
            have = len(self.blocks.get(key, ()))
            if have < end:
                missing.append(PairTask(key[0], key[1], key[2], have, end - have, key[3]))
        if missing:
            for task, out in zip(missing, self.pairs.evaluate(missing), strict=True):
                self.blocks.setdefault((task.deck, task.rival, task.seed, task.agent),
                                       []).extend(out)
                self.played += task.games
                self._record_errors(task, out)
        asked = sum(t.games for t in tasks)
        self.reused += max(0, asked - sum(t.games for t in missing))
        return [self.blocks[(t.deck, t.rival, t.seed, t.agent)][t.first:t.first + t.blocks]
                for t in tasks]

    def _record_errors(self, task: PairTask, blocks: list[str]) -> None:
        for offset, text in enumerate(blocks):
            for position, outcome in enumerate(text):
                if outcome == ERROR:
                    self.left_out.append(LeftOut(
                        self.phase, task.deck, task.rival, task.seed,
                        (task.first + offset) * BLOCK + position, task.agent))


def engine_error(cards: Mapping[str, CardDef], ruleset: Ruleset, agent: str,
                 game: LeftOut) -> str | None:
    """The engine's error of a left-out game, played again in this process (a game depends
    only on its decks, seed, seat and agent, so it fails again the same way)."""
    player = make_agent(game.agent or agent)
    result = play_game(cards, deck_list(game.deck), deck_list(game.rival),
                       seed=game_seed(game.seed, game.game), a_first=game.game % 2 == 0,
                       agent_a=player, agent_b=player, ruleset=ruleset)
    return result.error
