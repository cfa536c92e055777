"""The search's cheap model: single-move effects added up in log-odds, searched by beam.

Screening measures what each move alone does to each matchup it touches, as a change of
log-odds against the unpatched field on the same seeds (common random numbers). A candidate's
matchups are then *predicted* from a measured anchor (the best candidate played so far) by
adding the effects of the moves it adds and subtracting those of the moves it drops. The beam
search walks edits (add a move, drop one, change one's value) from the anchor and proposes the
candidates whose predicted matchups lie nearest the band, for the racing to play for real.

Invariant: deterministic — ties are broken by the candidates' sorted moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.balance_search.result import excess_of
from rules.balance_search.space import Candidate, Move, candidate_size

Matchup = tuple[int, int]
Effects = Mapping[Move, Mapping[Matchup, float]]

CHANGE_PENALTY = 0.0002   # a change must buy this much excess to be worth it


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


@dataclass(frozen=True)
class Prediction:
    moves: Candidate
    logits: tuple[float, ...]     # per matchup, in the field's matchup order
    worst: float                  # max |p − 0.5|
    excess: float                 # as ``result.excess_of``

    @property
    def rank(self) -> tuple[float, float, int, int, Candidate]:
        changes = len(self.moves)
        return (self.excess + CHANGE_PENALTY * changes, self.worst, changes,
                candidate_size(self.moves), self.moves)


class Model:
    def __init__(self, matchups: Sequence[Matchup], effects: Effects, moves: Sequence[Move],
                 band: tuple[float, float] = (0.45, 0.55)):
        self.band = band
        self.matchups = list(matchups)
        self.index = {m: i for i, m in enumerate(matchups)}
        self.moves = list(moves)
        self.effects = {move: [(self.index[m], d) for m, d in sorted(effects[move].items())]
                        for move in self.moves if move in effects}

    def effect(self, move: Move) -> dict[Matchup, float]:
        """The move's effect on each matchup it touches, in log-odds."""
        return {self.matchups[i]: d for i, d in self.effects.get(move, ())}

    def predict(self, anchor: Candidate, anchor_logits: Sequence[float],
                moves: Candidate) -> Prediction:
        logits = list(anchor_logits)
        for move in set(moves) - set(anchor):
            for i, d in self.effects.get(move, ()):
                logits[i] += d
        for move in set(anchor) - set(moves):
            for i, d in self.effects.get(move, ()):
                logits[i] -= d
        distances = [abs(sigmoid(x) - 0.5) for x in logits]
        return Prediction(moves, tuple(logits), max(distances),
                          excess_of(distances, self.band))

    def neighbours(self, moves: Candidate, max_changes: int) -> list[Candidate]:
        """Every candidate one edit away: add a move, drop one, or change one's value."""
        taken = {m.slot: m for m in moves}
        out: list[Candidate] = [tuple(m for m in moves if m != drop) for drop in moves]
        for move in self.effects:
            held = taken.get(move.slot)
            if held is None and len(moves) < max_changes:
                out.append(tuple(sorted((*moves, move))))
            elif held is not None and held != move:
                out.append(tuple(sorted(m if m != held else move for m in moves)))
        return out

    def propose(self, anchor: Candidate, anchor_logits: Sequence[float], *, max_changes: int,
                depth: int = 3, width: int = 24, count: int = 12,
                exclude: frozenset[Candidate] = frozenset()) -> list[Prediction]:
        """The ``count`` best predicted candidates within ``depth`` edits of the anchor, plus
        the best for each number of changes (the Pareto front's candidates)."""
        seen: dict[Candidate, Prediction] = {}
        beam = [self.predict(anchor, anchor_logits, anchor)]
        for _ in range(depth):
            level: dict[Candidate, Prediction] = {}
            for state in beam:
                for moves in self.neighbours(state.moves, max_changes):
                    if moves not in seen and moves not in level:
                        level[moves] = self.predict(anchor, anchor_logits, moves)
            seen.update(level)
            beam = sorted(level.values(), key=lambda p: p.rank)[:width]
        fresh = sorted((p for m, p in seen.items() if m not in exclude), key=lambda p: p.rank)
        picks = fresh[:count]
        for changes in range(max_changes + 1):
            best = next((p for p in fresh if len(p.moves) == changes), None)
            if best is not None and best not in picks:
                picks.append(best)
        return picks
