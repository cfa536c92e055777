"""The learned agent's learning curve as an SVG chart: its win rate against greedy and against
the planner after each training round, with the 95 % intervals the games give, beside 50 %.

Plain text output (no plotting library): ``write_curve(curve, path)`` with the ``meta.curve``
rows of a trained model (``rules.lab.learned_training``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

WIDTH: Final = 640
HEIGHT: Final = 360
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 24, 44
LOW, HIGH = 0.2, 0.9                       # the win-rate axis
SERIES: Final = (("greedy", "#1f77b4", "vs greedy"), ("planner", "#d62728", "vs planner"))


def _x(round_no: float, rounds: int) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * (round_no / max(1, rounds))


def _y(rate: float) -> float:
    rate = min(HIGH, max(LOW, rate))
    return TOP + (HEIGHT - TOP - BOTTOM) * (HIGH - rate) / (HIGH - LOW)


def curve_svg(curve: Sequence[dict[str, Any]]) -> str:
    """The chart of ``curve`` (rows: ``round`` and per rival ``rate``, ``low``, ``high``)."""
    rounds = max((row["round"] for row in curve), default=1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
             f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>']
    for tick in range(2, 10):
        rate = tick / 10
        y = _y(rate)
        dash = "" if tick == 5 else ' stroke-dasharray="2,3"'
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
                     f'stroke="#bbb"{dash}/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{tick * 10} %</text>')
    for round_no in range(rounds + 1):
        x = _x(round_no, rounds)
        parts.append(f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">'
                     f'{round_no}</text>')
    parts.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{HEIGHT - 8}" '
                 'text-anchor="middle">training round (0: fitted to the existing agents\' '
                 'games)</text>')
    for index, (key, colour, label) in enumerate(SERIES):
        points = []
        for row in curve:
            figure = row.get(key)
            if not figure or figure.get("rate") is None:
                continue
            x, y = _x(row["round"], rounds), _y(figure["rate"])
            points.append(f"{x:.1f},{y:.1f}")
            parts.append(f'<line x1="{x:.1f}" y1="{_y(figure["low"]):.1f}" x2="{x:.1f}" '
                         f'y2="{_y(figure["high"]):.1f}" stroke="{colour}" stroke-width="1"/>')
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')
        if points:
            parts.append(f'<polyline points="{" ".join(points)}" fill="none" '
                         f'stroke="{colour}" stroke-width="2"/>')
        y = TOP + 12 + 18 * index
        parts.append(f'<line x1="{WIDTH - RIGHT + 12}" y1="{y - 4}" x2="{WIDTH - RIGHT + 32}" '
                     f'y2="{y - 4}" stroke="{colour}" stroke-width="2"/>')
        parts.append(f'<text x="{WIDTH - RIGHT + 38}" y="{y}">{label}</text>')
    parts.append(f'<text x="{WIDTH - RIGHT + 12}" y="{TOP + 58}" fill="#555">bars: 95 %</text>')
    parts.append(f'<text x="{WIDTH - RIGHT + 12}" y="{TOP + 74}" fill="#555">interval</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_curve(curve: Sequence[dict[str, Any]], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(curve_svg(curve), encoding="utf-8")
