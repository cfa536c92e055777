"""Per-card figures of one deck in a matchup: how often each card was drawn, kept in the opening
hand, played and awakened, and its deck's win rate in the games where that happened — each rate
with a pair-aware 95 % interval (``rules.lab.intervals``), since both games of a seat-swapped pair
share one seed.

Invariants: a deck's table is ``{code: row}``; a row is a flat list of numbers, so the tables of
chunks merge by adding and store as JSON. Its layout:

    [times drawn, times played, times awakened,
     then for each condition of CONDITIONS: games, wins, *the pair moments of those games]

"Games" of a condition are the games in which it happened at least once; "wins" those of them
the deck won (draws count as not won). Rows written before drawing, the opening hand and
awakening were counted per game hold 4 numbers (games played in, times played, times awakened,
wins when played) or those and the moments of "played": ``upgrade`` reads them as rows whose
other conditions are unknown (0 games), and a rate whose moments do not cover its games (old
rows merged with new ones) falls back to a plain Wilson interval, labelled ``games``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from rules.lab.intervals import Moments, cluster_rate, games_rate

# drawn: came into the hand from the deck (the opening hand and mulligan draws included);
# opening: in the hand kept after the mulligan (R2.1.4); played: placed into a slot or used
# (an item), or summoned from the deck by an effect; awakened: turned face up (R2.2.3 c, or
# by an effect).
CONDITIONS: Final = ("drawn", "opening", "played", "awakened")
TIMES: Final = 3                # times drawn, played, awakened
MOMENTS: Final = len(Moments().to_list())
BLOCK: Final = 2 + MOMENTS       # games, wins, moments
ROW_LENGTH: Final = TIMES + BLOCK * len(CONDITIONS)
OLD_LENGTHS = (4, 4 + MOMENTS)
OFFSET = {condition: TIMES + BLOCK * i for i, condition in enumerate(CONDITIONS)}
MSG_BAD_ROW = "a per-card row has {n} numbers; expected {expected}"


def new_row() -> list[Any]:
    return [0] * ROW_LENGTH


def upgrade(row: list[Any]) -> list[Any]:
    """A row in today's layout (rows of older runs converted, see the module docstring)."""
    if len(row) == ROW_LENGTH:
        return list(row)
    if len(row) not in OLD_LENGTHS:
        raise ValueError(MSG_BAD_ROW.format(n=len(row), expected=ROW_LENGTH))
    out = new_row()
    out[1], out[2] = row[1], row[2]
    base = OFFSET["played"]
    out[base], out[base + 1] = row[0], row[3]
    out[base + 2:base + BLOCK] = row[4:] or [0] * MOMENTS
    return out


def add_game(table: dict[str, list[Any]], in_pair: dict[str, list[int]],
             usage: tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, int]],
             won: bool) -> None:
    """Add one counted game of a deck. ``usage`` is the deck's ({code: times played},
    {code: times awakened}, {code: times drawn}, {code: copies in the opening hand});
    ``in_pair`` holds, per code, [games, wins] so far in the open pair for each condition in
    turn, so each pair is one cluster of the moments.

    This runs after every game of every run, so it is compiled with the engine
    (rules/loader.py) and walks each count once; rows are plain lists (no element type),
    so the numbers keep exactly the types they had."""
    played, awakened, drawn, opening = usage
    win = 1 if won else 0
    # (condition's position in CONDITIONS, its counts, the row's "times" column or -1)
    _add_condition(table, in_pair, 0, drawn, 0, win)
    _add_condition(table, in_pair, 1, opening, -1, win)
    _add_condition(table, in_pair, 2, played, 1, win)
    _add_condition(table, in_pair, 3, awakened, 2, win)


def _add_condition(table: dict[str, list[Any]], in_pair: dict[str, list[int]], position: int,
                   counts: dict[str, int], times_column: int, win: int) -> None:
    """One condition of ``add_game``: every card it happened to in this game."""
    b = TIMES + BLOCK * position
    p = 2 * position
    for code, times in counts.items():
        row: list[Any] | None = table.get(code)
        if row is None:
            row = table[code] = new_row()
        if times_column >= 0:
            row[times_column] += times
        so_far = in_pair.get(code)
        if so_far is None:
            so_far = in_pair[code] = [0] * (2 * len(CONDITIONS))
        n = so_far[p]
        w = so_far[p + 1]
        # Moments.grow(w, n, win, 1) on the flat row: clusters, Σw, Σn, Σw², Σw·n, Σn² (terms
        # that add nothing are skipped: adding 0 changes neither a number nor its type)
        row[b] += 1
        if n == 0:
            row[b + 2] += 1
        row[b + 4] += 1
        row[b + 7] += 2 * n + 1                       # (n + 1)² − n²
        if win:
            row[b + 1] += 1
            row[b + 3] += 1
            row[b + 5] += 2 * w + 1                   # (w + 1)² − w²
            row[b + 6] += w + n + 1                   # (w + 1)(n + 1) − w·n
            so_far[p + 1] = w + 1
        elif w:
            row[b + 6] += w                           # w·(n + 1) − w·n
        so_far[p] = n + 1


def merge(mine: dict[str, list[Any]], other: Mapping[str, list[Any]]) -> None:
    """Add ``other``'s rows into ``mine`` (any layout in, today's layout out)."""
    for code, row in other.items():
        row = upgrade(row)
        current = mine.get(code)
        if current is None:
            mine[code] = row
        else:
            mine[code] = [x + y for x, y in zip(upgrade(current), row, strict=True)]


def condition_rate(row: list[Any], condition: str) -> dict[str, Any]:
    """The deck's win rate in the games where ``condition`` happened to the card, with its
    interval on pairs: ``games``, ``wins``, ``rate``, ``low``, ``high``, ``pairs``, ``method``."""
    b = OFFSET[condition]
    games, wins = int(row[b]), int(row[b + 1])
    moments = Moments.from_list(row[b + 2:b + BLOCK])
    rate = cluster_rate(moments) if moments.n == games and games else games_rate(wins, games)
    return {"games": games, "wins": wins, "rate": rate["rate"], "low": rate["low"],
            "high": rate["high"], "pairs": rate["pairs"], "method": rate["method"]}


def figures(table: Mapping[str, list[Any]]) -> list[dict[str, Any]]:
    """One dict per card, most played first: times drawn/played/awakened, ``when`` — a rate per
    condition — and, flat, the figures of "played" (``games_played_in``, ``wins_when_played``,
    ``win_rate_when_played``, ``low``, ``high``, ``pairs``, ``method``)."""
    rows = []
    for code, raw in table.items():
        row = upgrade(raw)
        when = {condition: condition_rate(row, condition) for condition in CONDITIONS}
        played = when["played"]
        rows.append({"code": code, "times_drawn": int(row[0]), "times_played": int(row[1]),
                     "times_awakened": int(row[2]), "when": when,
                     "games_played_in": played["games"], "wins_when_played": played["wins"],
                     "win_rate_when_played": played["rate"], "low": played["low"],
                     "high": played["high"], "pairs": played["pairs"],
                     "method": played["method"]})
    return sorted(rows, key=lambda r: (-r["games_played_in"], -r["when"]["drawn"]["games"],
                                       r["code"]))


def totals(table: Mapping[str, list[Any]]) -> dict[str, dict[str, int]]:
    """Per card, the plain counts the catalogue keeps (``cards`` stats field names)."""
    out: dict[str, dict[str, int]] = {}
    for code, raw in table.items():
        row = upgrade(raw)
        counts = {"times_drawn": int(row[0]), "times_played": int(row[1]),
                  "times_awakened": int(row[2])}
        for condition, (games, wins) in STAT_NAMES.items():
            b = OFFSET[condition]
            counts[games] = int(row[b])
            counts[wins] = int(row[b + 1])
        out[code] = counts
    return out


def moments(table: Mapping[str, list[Any]]) -> dict[str, dict[str, list[Any]]]:
    """Per card and condition, the pair moments (to sum a card's figures across runs)."""
    out: dict[str, dict[str, list[Any]]] = {}
    for code, raw in table.items():
        row = upgrade(raw)
        out[code] = {condition: row[OFFSET[condition] + 2:OFFSET[condition] + BLOCK]
                     for condition in CONDITIONS}
    return out


def row_of(counts: Mapping[str, int], moments: Mapping[str, list[Any]]) -> list[Any]:
    """The row of counts in the fields ``totals`` names and of per-condition ``moments`` (the
    inverse of ``totals`` and ``moments``; conditions without moments get none)."""
    row = new_row()
    row[0], row[1], row[2] = (counts.get(name, 0) for name in
                              ("times_drawn", "times_played", "times_awakened"))
    for condition, (games, wins) in STAT_NAMES.items():
        b = OFFSET[condition]
        row[b], row[b + 1] = counts.get(games, 0), counts.get(wins, 0)
        row[b + 2:b + BLOCK] = moments.get(condition) or [0] * MOMENTS
    return row


# condition → (games field, wins field) of the catalogue's per-card stats
STAT_NAMES = {
    "drawn": ("games_drawn", "wins_when_drawn"),
    "opening": ("games_in_opening_hand", "wins_in_opening_hand"),
    "played": ("games_played_in", "wins_when_played"),
    "awakened": ("games_awakened", "wins_when_awakened"),
}
