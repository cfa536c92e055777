"""Match statistics: counts that merge, and the intervals reported from them.

Invariants: every figure is derived from integer counts, so partial results (chunks of a run)
merge exactly by adding; an engine error is counted apart and is never a win, loss or draw;
win rates exclude errored games and count draws as not-wins (draws are reported beside them).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054


def wilson_interval(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion; (0, 1) when there is no data."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


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
    error_samples: list[dict] = field(default_factory=list)  # first few: seed and message
    # Per deck side ("a", "b") and card code: [games it was played in, times played,
    # times awakened, games won when it was played].
    cards: dict[str, dict[str, list[int]]] = field(
        default_factory=lambda: {"a": {}, "b": {}})

    MAX_ERROR_SAMPLES = 20

    @property
    def completed(self) -> int:
        return self.wins + self.losses + self.draws

    def add_game(self, *, winner: str | None, a_first: bool, turns: int, actions: int = 0,
                 error: str | None = None, seed: int | None = None,
                 usage: tuple | None = None) -> None:
        self.games += 1
        self.actions += actions
        if error is not None:
            self.errors += 1
            if len(self.error_samples) < self.MAX_ERROR_SAMPLES:
                self.error_samples.append({"seed": seed, "error": error})
            return
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
            self._add_usage(winner, usage)

    def _add_usage(self, winner: str | None, usage: tuple) -> None:
        """``usage`` is (played, awakened) per side, each a {code: times} dict."""
        for side, (played, awakened) in zip("ab", usage, strict=True):
            table = self.cards[side]
            for code in played.keys() | awakened.keys():
                row = table.setdefault(code, [0, 0, 0, 0])
                if code in played:
                    row[0] += 1
                    row[1] += played[code]
                    row[3] += winner == side
                row[2] += awakened.get(code, 0)

    def merge(self, other: MatchStats) -> MatchStats:
        out = MatchStats()
        for name in ("games", "wins", "losses", "draws", "errors", "first_games", "first_wins",
                     "second_games", "second_wins", "turns", "actions"):
            setattr(out, name, getattr(self, name) + getattr(other, name))
        for source in (self.lengths, other.lengths):
            for turns, count in source.items():
                out.lengths[int(turns)] = out.lengths.get(int(turns), 0) + count
        out.error_samples = (self.error_samples + other.error_samples)[:self.MAX_ERROR_SAMPLES]
        for side in "ab":
            for source in (self.cards[side], other.cards[side]):
                for code, row in source.items():
                    mine = out.cards[side].setdefault(code, [0, 0, 0, 0])
                    for i, value in enumerate(row):
                        mine[i] += value
        return out

    def card_figures(self, side: str) -> list[dict[str, Any]]:
        """Per-card figures of one deck side, most played first."""
        rows = []
        for code, (games, played, awakened, wins) in self.cards[side].items():
            low, high = wilson_interval(wins, games)
            rows.append({"code": code, "games_played_in": games, "times_played": played,
                         "times_awakened": awakened, "wins_when_played": wins,
                         "win_rate_when_played": wins / games if games else None,
                         "low": low, "high": high})
        return sorted(rows, key=lambda r: (-r["games_played_in"], r["code"]))

    @staticmethod
    def _rate(wins: int, n: int) -> dict[str, Any]:
        low, high = wilson_interval(wins, n)
        return {"rate": wins / n if n else None, "low": low, "high": high, "games": n}

    def to_dict(self) -> dict[str, Any]:
        done = self.completed
        return {
            "games": self.games, "wins": self.wins, "losses": self.losses, "draws": self.draws,
            "errors": self.errors, "win_rate": self._rate(self.wins, done),
            "going_first": self._rate(self.first_wins, self.first_games),
            "going_second": self._rate(self.second_wins, self.second_games),
            "average_turns": self.turns / done if done else None,
            "average_actions": self.actions / self.games if self.games else None,
            "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
            "error_samples": self.error_samples,
        }

    def counts(self) -> dict[str, Any]:
        """The raw counts (exact, mergeable); ``from_counts`` reverses it."""
        return {"games": self.games, "wins": self.wins, "losses": self.losses,
                "draws": self.draws, "errors": self.errors, "first_games": self.first_games,
                "first_wins": self.first_wins, "second_games": self.second_games,
                "second_wins": self.second_wins, "turns": self.turns, "actions": self.actions,
                "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
                "error_samples": list(self.error_samples),
                "cards": {side: {code: list(row) for code, row in sorted(rows.items())}
                          for side, rows in self.cards.items()}}

    @classmethod
    def from_counts(cls, data: dict[str, Any]) -> MatchStats:
        scalars = {k: v for k, v in data.items() if k not in ("lengths", "error_samples",
                                                              "cards")}
        out = cls(**scalars)
        out.lengths = {int(k): v for k, v in data.get("lengths", {}).items()}
        out.error_samples = list(data.get("error_samples", []))
        cards = data.get("cards") or {}
        out.cards = {side: {code: list(row) for code, row in cards.get(side, {}).items()}
                     for side in "ab"}
        return out
