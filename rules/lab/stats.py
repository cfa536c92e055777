"""Match statistics: counts that merge, and the intervals reported from them.

Invariants: every figure is derived from counts and sums that merge exactly by adding (chunks of
a run); an engine error is counted apart and is never a win, loss or draw; win rates exclude
errored games and count draws as not won (draws are reported beside them). Games are added in
game order; a game where deck A goes first opens a seat-swapped pair and the next game closes
it, and the intervals are computed on pairs (``rules.lab.intervals``), the independent unit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from rules.lab import card_figures
from rules.lab.intervals import (  # noqa: F401  (wilson_interval and Z95 re-exported)
    Z95,
    Moments,
    Rate,
    cluster_rate,
    games_rate,
    wilson_interval,
)

DRAWS_COUNT_AS = "not won"


# One deck's use of its cards in a game, each {code: times}: played, awakened, drawn, and copies
# in the opening hand (``rules.lab.card_figures.add_game``).
DeckUsage = tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, int]]


class ErrorSample(TypedDict):
    """One of the first errored games of a run: its seed and the engine's message."""

    seed: int | None
    error: str


class MatchFigures(TypedDict):
    """What a pairing's results say, from deck A's side (``MatchStats.to_dict``)."""

    games: int
    wins: int
    losses: int
    draws: int
    errors: int
    draws_count_as: str
    win_rate: Rate
    going_first: Rate
    going_second: Rate
    average_turns: float | None
    average_actions: float | None
    lengths: dict[str, int]                 # turns (as text: a JSON key) -> completed games
    error_samples: list[ErrorSample]


class MatchCounts(TypedDict):
    """A pairing's raw counts (``MatchStats.counts``), exact and mergeable: what a chunk's
    result stores and ``MatchStats.from_counts`` reads back."""

    games: int
    wins: int
    losses: int
    draws: int
    errors: int
    first_games: int
    first_wins: int
    second_games: int
    second_wins: int
    turns: int
    actions: int
    lengths: dict[str, int]
    error_samples: list[ErrorSample]
    cards: dict[str, dict[str, list[float]]]   # side -> card code -> card_figures row
    pairs: dict[str, list[float]] | None        # side -> Moments.to_list(); None: older counts


@dataclass
class MatchStats:
    """Results of deck A against deck B, from A's side."""

    games: int = 0            # games attempted, errors included
    wins: int = 0             # A won
    losses: int = 0           # B won
    draws: int = 0
    errors: int = 0
    first_games: int = 0      # completed games where A went first
    first_wins: int = 0
    second_games: int = 0
    second_wins: int = 0
    turns: int = 0            # total game turns over completed games
    actions: int = 0
    lengths: dict[int, int] = field(default_factory=dict)   # turns -> completed games
    error_samples: list[ErrorSample] = field(default_factory=list)  # the first few
    # Per deck side ("a", "b") and card code: the row of ``rules.lab.card_figures`` (times drawn,
    # played and awakened; games, wins and pair moments when drawn, in the opening hand,
    # played and awakened).
    cards: dict[str, dict[str, list[float]]] = field(
        default_factory=lambda: {"a": {}, "b": {}})
    # Pair moments of each side's wins (None: counts from before pairs were kept).
    pairs: dict[str, Moments] | None = field(
        default_factory=lambda: {"a": Moments(), "b": Moments()})
    # The pair being played: each side's wins and the counted games so far, and per side,
    # card and condition [games, wins] within the pair.
    _open: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    MAX_ERROR_SAMPLES = 20

    @property
    def completed(self) -> int:
        return self.wins + self.losses + self.draws

    def add_game(self, *, winner: str | None, a_first: bool, turns: int, actions: int = 0,
                 error: str | None = None, seed: int | None = None,
                 usage: tuple[DeckUsage, DeckUsage] | None = None) -> None:
        self.games += 1
        self.actions += actions
        if a_first or self._open is None:
            self._open = {"a": 0, "b": 0, "n": 0, "cards": {"a": {}, "b": {}}}
        pair = self._open
        if not a_first:
            self._open = None   # the pair's second game: the next game opens a new pair
        if error is not None:
            self.errors += 1
            if len(self.error_samples) < self.MAX_ERROR_SAMPLES:
                self.error_samples.append({"seed": seed, "error": error})
            return
        self._add_to_pair(pair, winner)
        if winner == "a":
            self.wins += 1
        elif winner == "b":
            self.losses += 1
        else:
            self.draws += 1
        won = winner == "a"
        if a_first:
            self.first_games += 1
            self.first_wins += won
        else:
            self.second_games += 1
            self.second_wins += won
        self.turns += turns
        self.lengths[turns] = self.lengths.get(turns, 0) + 1
        if usage is not None:
            self._add_usage(winner, usage, pair["cards"])

    def _add_to_pair(self, pair: dict[str, Any], winner: str | None) -> None:
        if self.pairs is not None:
            for side in "ab":
                self.pairs[side].grow(pair[side], pair["n"], winner == side, 1)
        pair["n"] += 1
        if winner in ("a", "b"):
            pair[winner] += 1

    def _add_usage(self, winner: str | None,
                   usage: tuple[DeckUsage, DeckUsage],
                   in_pair: dict[str, dict[str, list[int]]]) -> None:
        """``usage`` is, per side, the deck's (played, awakened, drawn, opening) counts."""
        for side, side_usage in zip("ab", usage, strict=True):
            card_figures.add_game(self.cards[side], in_pair[side], side_usage, winner == side)

    def merge(self, other: MatchStats) -> MatchStats:
        out = MatchStats()
        for name in ("games", "wins", "losses", "draws", "errors", "first_games", "first_wins",
                     "second_games", "second_wins", "turns", "actions"):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        for source in (self.lengths, other.lengths):
            for turns, count in source.items():
                out.lengths[int(turns)] = out.lengths.get(int(turns), 0) + count
        out.error_samples = (self.error_samples + other.error_samples)[:self.MAX_ERROR_SAMPLES]
        out.pairs = None if self.pairs is None or other.pairs is None else {
            side: self.pairs[side].merge(other.pairs[side]) for side in "ab"}
        for side in "ab":
            for rows in (self.cards[side], other.cards[side]):
                card_figures.merge(out.cards[side], rows)
        return out

    def card_figures(self, side: str) -> list[dict[str, Any]]:
        """Per-card figures of one deck side (``rules.lab.card_figures.figures``)."""
        return card_figures.figures(self.cards[side])

    def side_rate(self, side: str) -> Rate:
        """Deck ``side``'s win rate (draws count as not won) with its pair-aware interval."""
        wins = self.wins if side == "a" else self.losses
        if self.pairs is None:
            return games_rate(wins, self.completed)
        return cluster_rate(self.pairs[side])

    def to_dict(self) -> MatchFigures:
        done = self.completed
        return {
            "games": self.games, "wins": self.wins, "losses": self.losses, "draws": self.draws,
            "errors": self.errors, "draws_count_as": DRAWS_COUNT_AS,
            "win_rate": self.side_rate("a"),
            # one game of each pair in each seat: the seat's games are independent
            "going_first": cluster_rate(Moments.singletons(self.first_wins, self.first_games)),
            "going_second": cluster_rate(Moments.singletons(self.second_wins,
                                                            self.second_games)),
            "average_turns": self.turns / done if done else None,
            "average_actions": self.actions / self.games if self.games else None,
            "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
            "error_samples": self.error_samples,
        }

    def counts(self) -> MatchCounts:
        """The raw counts (exact, mergeable); ``from_counts`` reverses it."""
        return {"games": self.games, "wins": self.wins, "losses": self.losses,
                "draws": self.draws, "errors": self.errors, "first_games": self.first_games,
                "first_wins": self.first_wins, "second_games": self.second_games,
                "second_wins": self.second_wins, "turns": self.turns, "actions": self.actions,
                "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
                "error_samples": list(self.error_samples),
                "cards": {side: {code: list(row) for code, row in sorted(rows.items())}
                          for side, rows in self.cards.items()},
                "pairs": None if self.pairs is None else {
                    side: moments.to_list() for side, moments in self.pairs.items()}}

    @classmethod
    def from_counts(cls, data: Mapping[str, Any]) -> MatchStats:
        scalars = {k: v for k, v in data.items() if k not in ("lengths", "error_samples",
                                                              "cards", "pairs")}
        out = cls(**scalars)
        out.lengths = {int(k): v for k, v in data.get("lengths", {}).items()}
        out.error_samples = list(data.get("error_samples", []))
        cards = data.get("cards") or {}
        out.cards = {side: {code: list(row) for code, row in cards.get(side, {}).items()}
                     for side in "ab"}
        pairs = data.get("pairs")
        out.pairs = None if pairs is None else {side: Moments.from_list(pairs[side])
                                                for side in "ab"}
        return out
