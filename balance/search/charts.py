"""The Pareto front as an inline SVG (server-drawn, no JavaScript): changes against the worst
figure's distance from 50 % (a matchup's, or under the meta objective a deck's field win
rate's), with the band's edge as a dashed line.

Layout: the y axis's title sits above the plot, left-aligned, so it never crosses the tick
labels however long a language makes it; the tick labels are round percentages right-aligned in
a margin wide enough for "±50 %"; "band edge" is written at the right end of its line, on the
side with room. Every text carries a chart class that sets its size (the browser test compares
every text's box with the others and with the chart's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from simulations.charts import chart_min_width

W, H = 480, 270
SMALLEST_FONT = 12   # .front-chart .chart-tick in static/css/simulations.css
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 34, 40
STEPS = (0.01, 0.02, 0.025, 0.05, 0.1)   # tick spacings, as fractions (1 %, 2 %, …)
LABEL_ROOM = 14                           # px a tick-sized text needs above or below a line


def _tick_step(top: float) -> float:
    """The smallest round spacing that needs at most five intervals up to ``top``."""
    return next((s for s in STEPS if top / s <= 5), STEPS[-1])


def _percent(value: float) -> str:
    digits = 0 if abs(value * 100 - round(value * 100)) < 1e-9 else 1
    return gettext("±{number} %").format(number=number_format(round(value * 100, digits),
                                                                digits))


def front_chart(points: Sequence[dict[str, Any]], *, band_half: float, max_changes: int,
                title: str, axis: str | None = None) -> SafeString:
    """``points``: {changes, worst_distance, label, best} — one marker each; ``axis``: what
    the distance measures (the worst matchup's, or the worst field win rate's, from 50 %)."""
    highest: float = max([band_half * 1.5, *(p["worst_distance"] for p in points)] or [0.25])
    step = _tick_step(min(0.5, highest * 1.05))
    top = step * math.ceil(min(0.5, highest * 1.05) / step - 1e-9)
    plot_bottom, plot_right = H - BOTTOM, W - RIGHT

    def x(changes: float) -> float:
        return round(LEFT + (plot_right - LEFT) * changes / max(max_changes, 1), 1)

    def y(distance: float) -> float:
        return round(TOP + (plot_bottom - TOP) * (1 - distance / top), 1)

    ticks_x = format_html_join(
        "", '<text x="{}" y="{}" text-anchor="middle" class="chart-tick">{}</text>',
        ((x(c), plot_bottom + 16, c) for c in range(max_changes + 1)))
    ticks_y = format_html_join(
        "", '<line x1="{}" y1="{}" x2="{}" y2="{}" class="chart-grid"/>'
            '<text x="{}" y="{}" text-anchor="end" class="chart-tick">{}</text>',
        ((LEFT, y(s), plot_right, y(s), LEFT - 6, y(s) + 4, _percent(s))
         for s in (step * i for i in range(round(top / step) + 1))))
    marks = format_html_join(
        "", '<circle cx="{}" cy="{}" r="{}" class="{}"><title>{}</title></circle>',
        ((x(p["changes"]), y(p["worst_distance"]), 7 if p.get("best") else 5,
          "front-best" if p.get("best") else "front-point", p["label"]) for p in points))
    path = " ".join(f"{x(p['changes'])},{y(p['worst_distance'])}"
                    for p in sorted(points, key=lambda p: p["changes"]))
    edge_y = y(band_half)
    # Above the line unless the line runs too near the plot's top; then below it.
    edge_label_y = edge_y - 5 if edge_y - TOP > LABEL_ROOM else edge_y + LABEL_ROOM
    return format_html(
        '<svg class="chart front-chart" viewBox="0 0 {w} {h}" width="100%" role="img" '
        'style="min-width: {min_w}px" aria-label="{title}" xmlns="http://www.w3.org/2000/svg"><title>{title}</title>'
        '{ty}<line x1="{l}" y1="{b}" x2="{r}" y2="{b}" class="chart-axis"/>'
        '<line x1="{l}" y1="{t}" x2="{l}" y2="{b}" class="chart-axis"/>'
        '<line x1="{l}" y1="{by}" x2="{r}" y2="{by}" class="band-edge"/>'
        '<text x="{r}" y="{bt}" text-anchor="end" class="chart-tick band-edge-label">{edge}'
        '</text><polyline points="{path}" class="front-line"/>{marks}{tx}'
        '<text x="{cx}" y="{h2}" text-anchor="middle" class="chart-label">{changes}</text>'
        '<text x="4" y="14" class="chart-label">{distance}</text></svg>',
        w=W, h=H, min_w=chart_min_width(W, SMALLEST_FONT), title=title, l=LEFT,
        r=plot_right, t=TOP, b=plot_bottom, by=edge_y,
        bt=edge_label_y, path=path, marks=marks, tx=ticks_x, ty=ticks_y,
        cx=(LEFT + plot_right) // 2, h2=H - 6, edge=gettext("band edge"),
        changes=gettext("changes"), distance=axis or gettext("worst distance from 50 %"))
