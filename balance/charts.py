"""The Pareto front as an inline SVG (server-drawn, no JavaScript): changes against the worst
figure's distance from 50 % (a matchup's, or under the meta objective a deck's field win
rate's), with the band's edge as a line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

W, H, LEFT, BOTTOM, TOP, RIGHT = 480, 260, 56, 40, 16, 16


def front_chart(points: Sequence[dict[str, Any]], *, band_half: float, max_changes: int,
                title: str, axis: str | None = None) -> SafeString:
    """``points``: {changes, worst_distance, label, best} — one marker each; ``axis``: what
    the distance measures (the worst matchup's, or the worst field win rate's, from 50 %)."""
    top = max([band_half * 2, *(p["worst_distance"] for p in points)] or [0.25])
    top = max(0.05, min(0.5, top * 1.1))

    def x(changes: float) -> float:
        return LEFT + (W - LEFT - RIGHT) * changes / max(max_changes, 1)

    def y(distance: float) -> float:
        return TOP + (H - TOP - BOTTOM) * (1 - distance / top)

    ticks_x = format_html_join("", '<text x="{}" y="{}" text-anchor="middle">{}</text>',
                               ((round(x(c), 1), H - BOTTOM + 16, c)
                                for c in range(max_changes + 1)))
    steps = [top * i / 4 for i in range(5)]
    ticks_y = format_html_join("", '<text x="{}" y="{}" text-anchor="end">±{} %</text>',
                               ((LEFT - 6, round(y(s), 1) + 4, round(s * 100, 1))
                                for s in steps))
    marks = format_html_join(
        "", '<circle cx="{}" cy="{}" r="{}" class="{}"><title>{}</title></circle>',
        ((round(x(p["changes"]), 1), round(y(p["worst_distance"]), 1),
          7 if p.get("best") else 5, "front-best" if p.get("best") else "front-point",
          p["label"]) for p in points))
    path = " ".join(f"{round(x(p['changes']), 1)},{round(y(p['worst_distance']), 1)}"
                    for p in sorted(points, key=lambda p: p["changes"]))
    return format_html(
        '<svg class="chart front-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{title}">'
        '<line x1="{l}" y1="{by}" x2="{r}" y2="{by}" class="band-edge"/>'
        '<text x="{r}" y="{bt}" text-anchor="end" class="small">{edge}</text>'
        '<polyline points="{path}" class="front-line" fill="none"/>{marks}{tx}{ty}'
        '<text x="{cx}" y="{h2}" text-anchor="middle">{changes}</text>'
        '<text x="12" y="{cy}" transform="rotate(-90 12 {cy})" text-anchor="middle">'
        '{distance}</text></svg>',
        w=W, h=H, title=title, l=LEFT, r=W - RIGHT, by=round(y(band_half), 1),
        bt=round(y(band_half), 1) - 4, path=path, marks=marks, tx=ticks_x, ty=ticks_y,
        cx=(LEFT + W - RIGHT) // 2, h2=H - 6, cy=(TOP + H - BOTTOM) // 2,
        edge=gettext("band edge"), changes=gettext("changes"),
        distance=axis or gettext("worst distance from 50 %"))
