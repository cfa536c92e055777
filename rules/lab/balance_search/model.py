"""The search's cheap model: single-move effects added up in log-odds, searched by beam.

Screening measures what each move alone does to each matchup it touches, as a change of
log-odds against the unpatched field on the same seeds (common random numbers). A candidate's
matchups are then *predicted* from a measured anchor (the best candidate played so far) by
adding the effects of the moves it adds and subtracting those of the moves it drops. The beam
search walks edits (add a move, drop one, change one's value) from the anchor and proposes the
candidates whose predicted matchups lie nearest the band, for the racing to play for real.

The meta objective (``objective``) predicts from the matchups each deck's field win rate (the
mean of its matchup win rates) and the matchup range, cheaply, for every candidate the beam
sees; the predicted ε-equilibrium's smallest share (a small convex programme, milliseconds) is
added for the candidates that could still rank among those kept (``_best``: the cheap excess is
a lower bound of the full one, so candidates are refined in the cheap order until no unrefined
one can beat the ones kept).

Checked under further agents (``strong``), a candidate's matchups under each of them are
predicted as its first agent's plus that agent's *offsets* — each matchup's difference in
log-odds between the two agents, learnt from the candidates both played — and its excess is the
sum of the excesses under every agent (its worst figure, the worst of them). A move screened
under a further agent too carries its *skill correction* there (``corrections``: what it does
under that agent beyond what it does under the first), added to every candidate holding it.

Invariant: deterministic — ties are broken by the candidates' sorted moves.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rules.lab.balance_search.objective import Goal, meta_excess, meta_figures, share_excess
from rules.lab.balance_search.result import excess_of
from rules.lab.balance_search.space import Candidate, Move, candidate_size
from rules.lab.meta import payoff_matrix, relaxed_equilibrium

Matchup = tuple[int, int]
Effects = Mapping[Move, Mapping[Matchup, float]]

CHANGE_PENALTY = 0.0002        # a change must buy this much excess to be worth it
META_CHANGE_PENALTY = 0.00002  # ... under the meta objective (field rates move less)
REFINE_CAP = 240               # equilibria solved at most per choice of the best predictions


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


@dataclass(frozen=True)
class Prediction:
    moves: Candidate
    logits: tuple[float, ...]     # per matchup, in the field's matchup order
    worst: float                  # max |p − 0.5| (meta: max |field rate − 0.5|)
    excess: float                 # as ``result.excess_of`` (meta: ``objective.meta_excess``)
    penalty: float = CHANGE_PENALTY
    min_share: float | None = None   # meta: the predicted ε-equilibrium's smallest share
    skill: tuple[tuple[float, ...], ...] = ()   # per further agent: its moves' corrections

    @property
    def rank(self) -> tuple[float, float, int, int, Candidate]:
        changes = len(self.moves)
        return (self.excess + self.penalty * changes, self.worst, changes,
                candidate_size(self.moves), self.moves)


class Model:
    def __init__(self, matchups: Sequence[Matchup], effects: Effects, moves: Sequence[Move],
                 band: tuple[float, float] = (0.45, 0.55), goal: Goal | None = None,
                 offsets: Sequence[Sequence[float]] = ()):
        self.band = band
        self.offsets = [list(o) for o in offsets]   # per further agent, per matchup (meta)
        self.goal = goal if goal is not None and goal.is_meta else None
        self.decks = 1 + max((b for _, b in matchups), default=0)
        self._refined: dict[tuple[Candidate, tuple[float, ...]], Prediction] = {}
        self.matchups = list(matchups)
        self.index = {m: i for i, m in enumerate(matchups)}
        self.moves = list(moves)
        self.effects = {move: [(self.index[m], d) for m, d in sorted(effects[move].items())]
                        for move in self.moves if move in effects}
        self.corrections: list[dict[Move, list[tuple[int, float]]]] = []

    def set_corrections(self, corrections: Sequence[Mapping[Move, Mapping[Matchup, float]]]
                        ) -> None:
        """Per further agent, each screened move's skill correction per matchup."""
        self.corrections = [{move: [(self.index[m], d) for m, d in sorted(per.items())]
                             for move, per in agent.items()} for agent in corrections]

    def skill(self, moves: Candidate) -> tuple[tuple[float, ...], ...]:
        """Per further agent, the summed skill corrections of ``moves`` per matchup."""
        out = []
        for agent in self.corrections:
            vector = [0.0] * len(self.matchups)
            for move in moves:
                for i, d in agent.get(move, ()):
                    vector[i] += d
            out.append(tuple(vector))
        return tuple(out)

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
        if self.goal is not None:
            return self._meta_prediction(moves, logits, self.skill(moves))
        distances = [abs(sigmoid(x) - 0.5) for x in logits]
        return Prediction(moves, tuple(logits), max(distances),
                          excess_of(distances, self.band))

    def under_agents(self, logits: Sequence[float],
                     skill: Sequence[Sequence[float]] = ()) -> list[list[float]]:
        """The matchups' log-odds under the first agent and under each further one (its
        offsets, and the skill corrections ``skill`` of the candidate's moves)."""
        out = [list(logits)]
        for index, offset in enumerate(self.offsets):
            extra = skill[index] if index < len(skill) else [0.0] * len(offset)
            out.append([x + d + s for x, d, s in zip(logits, offset, extra, strict=True)])
        return out

    def _meta_prediction(self, moves: Candidate, logits: Sequence[float],
                         skill: tuple[tuple[float, ...], ...] = ()) -> Prediction:
        assert self.goal is not None
        worst = excess = 0.0
        for vector in self.under_agents(logits, skill):
            rates = {}
            for m, x in zip(self.matchups, vector, strict=True):
                p = sigmoid(x)
                rates[m] = (p, 1 - p)
            figures = meta_figures(self.decks, rates, {}, self.goal.epsilon, equilibria=False)
            worst = max(worst, figures.field_worst)
            excess += meta_excess(figures, self.goal)
        return Prediction(moves, tuple(logits), worst, excess, META_CHANGE_PENALTY, skill=skill)

    def refine(self, prediction: Prediction) -> Prediction:
        """The prediction with its ε-equilibrium's smallest share and that share's shortfall in
        the excess (meta objective; the band objective's predictions are final)."""
        if self.goal is None or prediction.min_share is not None:
            return prediction
        key = (prediction.moves, prediction.logits)
        known = self._refined.get(key)
        if known is not None:
            return known
        excess, low = prediction.excess, 1.0
        for vector in self.under_agents(prediction.logits, prediction.skill):
            score: list[list[float | None]] = [[None] * self.decks for _ in range(self.decks)]
            for (a, b), x in zip(self.matchups, vector, strict=True):
                rate = sigmoid(x)
                score[a][b], score[b][a] = rate, 1 - rate
            shares = relaxed_equilibrium(payoff_matrix(score), self.goal.epsilon)
            excess += share_excess(float(min(shares)), self.goal)
            low = min(low, float(min(shares)))
        out = Prediction(prediction.moves, prediction.logits, prediction.worst, excess,
                         prediction.penalty, low, prediction.skill)
        self._refined[key] = out
        return out

    def _best(self, predictions: Sequence[Prediction], count: int) -> list[Prediction]:
        """The ``count`` best by rank. Meta: refined in the order of their cheap rank (a lower
        bound of the refined one) until no unrefined prediction can enter the ``count`` best,
        at most ``REFINE_CAP``; unrefined ones fill in after the cap."""
        ordered = sorted(predictions, key=lambda p: p.rank)
        if self.goal is None:
            return ordered[:count]
        kept: list[Prediction] = []
        for index, p in enumerate(ordered):
            if index >= REFINE_CAP or (len(kept) >= count and kept[count - 1].rank <= p.rank):
                return (kept + ordered[index:])[:count]
            kept.append(self.refine(p))
            kept.sort(key=lambda q: q.rank)
        return kept[:count]

    def neighbours(self, moves: Candidate, max_changes: int,
                   allowed: Callable[[Candidate], bool] | None = None) -> list[Candidate]:
        """Every candidate one edit away: add a move, drop one, or change one's value (those
        ``allowed`` accepts, where given)."""
        taken = {m.slot: m for m in moves}
        out: list[Candidate] = [tuple(m for m in moves if m != drop) for drop in moves]
        for move in self.effects:
            held = taken.get(move.slot)
            if held is None and len(moves) < max_changes:
                out.append(tuple(sorted((*moves, move))))
            elif held is not None and held != move:
                out.append(tuple(sorted(m if m != held else move for m in moves)))
        return out if allowed is None else [c for c in out if allowed(c)]

    def propose(self, anchor: Candidate, anchor_logits: Sequence[float], *, max_changes: int,
                depth: int = 3, width: int = 24, count: int = 12,
                exclude: frozenset[Candidate] = frozenset(),
                allowed: Callable[[Candidate], bool] | None = None) -> list[Prediction]:
        """The ``count`` best predicted candidates within ``depth`` edits of the anchor, plus
        the best for each number of changes (the Pareto front's candidates); only those
        ``allowed`` accepts, where given."""
        seen: dict[Candidate, Prediction] = {}
        self._refined.clear()
        beam = [self.predict(anchor, anchor_logits, anchor)]
        for _ in range(depth):
            level: dict[Candidate, Prediction] = {}
            for state in beam:
                for moves in self.neighbours(state.moves, max_changes, allowed):
                    if moves not in seen and moves not in level:
                        level[moves] = self.predict(anchor, anchor_logits, moves)
            seen.update(level)
            beam = self._best(list(level.values()), width)
        fresh = [p for m, p in seen.items() if m not in exclude]
        picks = self._best(fresh, count)
        chosen = {p.moves for p in picks}
        for changes in range(max_changes + 1):
            best = self._best([p for p in fresh if len(p.moves) == changes], 1)
            if best and best[0].moves not in chosen:
                picks.append(best[0])
                chosen.add(best[0].moves)
        return picks
