"""Every block a search has played, remembered under the moves relevant to its matchup.

``Evaluations.ensure`` brings candidates to a number of blocks per matchup, sending only the
blocks nobody has played yet (one batch to the evaluator); ``tally`` sums the first blocks.
Its ``seeds`` decide which games are played: the search's seeds while searching, fresh seeds
for re-verification (a second ``Evaluations`` that shares nothing with the first).

Invariant: the blocks remembered for a key are exactly blocks ``0 … k−1`` of that key's games,
so what a candidate is told never depends on the order candidates were asked in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from rules.engine.cards import DeckList
from rules.lab.balance_search.evaluate import EvalTask, Evaluator, Tally, relevant
from rules.lab.balance_search.space import Candidate

Matchup = tuple[int, int]


def field_matchups(count: int) -> list[Matchup]:
    """Every pairing of ``count`` decks, (0, 1), (0, 2) … — a round-robin's order."""
    return list(combinations(range(count), 2))


def deck_touches(decks: Sequence[DeckList]) -> dict[str, tuple[int, ...]]:
    """For each card code, the indices of the decks that hold it (hero or card)."""
    out: dict[str, list[int]] = {}
    for index, deck in enumerate(decks):
        for code in dict.fromkeys((deck.hero, *deck.cards)):
            out.setdefault(code, []).append(index)
    return {code: tuple(indices) for code, indices in out.items()}


class Evaluations:
    def __init__(self, evaluator: Evaluator, decks: Sequence[DeckList],
                 seed_of: Callable[[int, int], int],
                 on_games: Callable[[int], None] | None = None, agent: str = ""):
        self.evaluator = evaluator
        self.agent = agent          # who plays every game asked for (empty: the field's)
        self.touches = deck_touches(decks)
        self.matchups = field_matchups(len(decks))
        self.seeds = {m: seed_of(*m) for m in self.matchups}
        self.blocks: dict[tuple[Candidate, int, int], list[Tally]] = {}
        self.games = 0
        self.on_games = on_games

    def key(self, moves: Candidate, matchup: Matchup) -> tuple[Candidate, int, int]:
        a, b = matchup
        return relevant(moves, self.touches, a, b), a, b

    def missing(self, candidates: Iterable[Candidate], blocks: int,
                matchups: Sequence[Matchup] | None = None) -> list[EvalTask]:
        tasks: dict[tuple[Candidate, int, int], EvalTask] = {}
        for moves in candidates:
            for matchup in matchups or self.matchups:
                key = self.key(moves, matchup)
                have = len(self.blocks.get(key, ()))
                if have < blocks and key not in tasks:
                    tasks[key] = EvalTask(key[0], key[1], key[2], self.seeds[matchup], have,
                                          blocks - have, self.agent)
        return list(tasks.values())

    def ensure(self, candidates: Iterable[Candidate], blocks: int,
               matchups: Sequence[Matchup] | None = None) -> int:
        """Play what is missing for ``blocks`` blocks of each matchup; returns games played."""
        tasks = self.missing(candidates, blocks, matchups)
        if not tasks:
            return 0
        results = self.evaluator.evaluate(tasks)
        played = 0
        for task, tallies in zip(tasks, results, strict=True):
            self.blocks.setdefault((task.moves, task.a, task.b), []).extend(tallies)
            played += task.games
        self.games += played
        if self.on_games is not None:
            self.on_games(played)
        return played

    def tally(self, moves: Candidate, matchup: Matchup, blocks: int) -> Tally:
        total = Tally()
        for block in self.blocks[self.key(moves, matchup)][:blocks]:
            total = total + block
        return total

    def tallies(self, moves: Candidate, blocks: int) -> dict[Matchup, Tally]:
        return {m: self.tally(moves, m, blocks) for m in self.matchups}
