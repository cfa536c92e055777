"""A sweep's chart as inline SVG: win rate against the swept value, one line per matchup or deck,
each with its 95 % interval as a band; every point links to its run.

Like the other charts (``simulations.charts``) it is drawn on the server, ``role="img"`` with a
text alternative stating every figure, and built only from numbers and escaped strings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from simulations.charts import _pct, _svg

HEIGHT = 300
WIDTH = 880   # the card's whole width on a desktop page (the other charts sit two abreast)
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 12, 60
# Line colours, distinguishable for the common colour-vision deficiencies (Okabe–Ito).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")


def sweep_chart(lines: Sequence[Mapping[str, Any]], *, values: Sequence[int], field: str,
                title: str, baseline_value: int | None = None) -> SafeString:
    """``lines``: ``{"label", "points": [{"value", "rate", "low", "high", "url"}]}``."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    lo, hi = min(values), max(values)
    span = max(1, hi - lo)

    def x(value: float) -> float:
        return LEFT + (value - lo) / span * plot_w

    def y(rate: float) -> float:
        return TOP + (1 - rate) * plot_h

    parts = [f'<line x1="{LEFT}" y1="{y(0.5):.1f}" x2="{WIDTH - RIGHT}" y2="{y(0.5):.1f}" '
             f'class="chart-mid"/>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end" '
                     f'class="chart-tick">{int(tick * 100)} %</text>')
    for value in values:
        mark = " " + _("(now)") if value == baseline_value else ""
        parts.append(f'<text x="{x(value):.1f}" y="{TOP + plot_h + 16}" text-anchor="middle" '
                     f'class="chart-tick">{value}{mark}</text>')
    parts.append(f'<text x="{WIDTH - RIGHT}" y="{TOP + plot_h + 30}" text-anchor="end" '
                 f'class="chart-tick">{escape(field)}</text>')
    alt = []
    for i, line in enumerate(lines):
        colour = COLOURS[i % len(COLOURS)]
        points = [p for p in line["points"] if p.get("rate") is not None]
        parts.extend(_line(points, colour, x, y, line["label"]))
        ly = TOP + plot_h + 44 + (i // 2) * 14
        lx = LEFT + (i % 2) * (plot_w / 2)
        parts.append(f'<rect x="{lx:.1f}" y="{ly - 9}" width="12" height="4" fill="{colour}"/>'
                     f'<text x="{lx + 16:.1f}" y="{ly - 4}" class="chart-tick">'
                     f'{escape(line["label"])}</text>')
        alt.append(f"{line['label']}: " + ", ".join(
            f"{field} {p['value']}: {_pct(p['rate'])} ({_pct(p['low'])}–{_pct(p['high'])})"
            for p in points))
    height = HEIGHT + max(0, (len(lines) - 1) // 2) * 14
    return _svg(title, "; ".join(alt) or _("no finished run yet"), height, parts,
                width=WIDTH, css="chart chart-wide", role="group")


def _line(points: Sequence[Mapping[str, Any]], colour: str, x: Callable[[float], float],
          y: Callable[[float], float], label: str) -> list[str]:
    if not points:
        return []
    upper = " ".join(f"{x(p['value']):.1f},{y(p['high']):.1f}" for p in points)
    lower = " ".join(f"{x(p['value']):.1f},{y(p['low']):.1f}" for p in reversed(points))
    out = [f'<polygon points="{upper} {lower}" fill="{colour}" opacity="0.15"/>',
           '<polyline points="'
           + " ".join(f"{x(p['value']):.1f},{y(p['rate']):.1f}" for p in points)
           + f'" fill="none" stroke="{colour}" stroke-width="2"/>']
    for p in points:
        out.append(f'<a href="{escape(p["url"])}" class="sweep-point">'
                   f'<circle cx="{x(p["value"]):.1f}" cy="{y(p["rate"]):.1f}" r="5" '
                   f'fill="{colour}"><title>{escape(label)}, {p["value"]}: {_pct(p["rate"])} '
                   f'({_pct(p["low"])}–{_pct(p["high"])})</title></circle></a>')
    return out
