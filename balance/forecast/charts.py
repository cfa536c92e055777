"""The meta from patch day to settled as an inline SVG (server-drawn, no JavaScript): each
archetype's share of the meta after each round, one line each, round 0 (patch day) on the left.
The table beside it on the page holds the same figures; the chart's text alternative says the
first and last shares."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from simulations.charts import chart_min_width

W, H = 480, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 40
SMALLEST_FONT = 12
# Eight colours told apart by most readers (Okabe and Ito), then again.
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000",
           "#7f6a00")


def _pct(value: float) -> str:
    return gettext("{value} %").format(value=number_format(round(value * 100)))


def colour(index: int) -> str:
    return COLOURS[index % len(COLOURS)]


def meta_chart(names: Sequence[str], rounds: Sequence[Sequence[float]]) -> SafeString:
    """``rounds[r][i]``: archetype i's share after round r."""
    title = gettext("The meta, from patch day to settled")
    alt = "; ".join(gettext("{name}: {first} → {last}").format(
        name=name, first=_pct(rounds[0][i]), last=_pct(rounds[-1][i]))
        for i, name in enumerate(names))
    width, height = W - LEFT - RIGHT, H - TOP - BOTTOM
    steps = max(1, len(rounds) - 1)

    def x(r: int) -> float:
        return LEFT + width * r / steps

    def y(share: float) -> float:
        return TOP + height * (1 - share)

    parts = [format_html('<line class="chart-axis" x1="{}" y1="{}" x2="{}" y2="{}"/>',
                         LEFT, y(0), LEFT + width, y(0))]
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(format_html('<text class="chart-tick" x="{}" y="{}" text-anchor="end">'
                                 '{}</text>', LEFT - 6, f"{y(tick) + 4:.1f}", _pct(tick)))
    for r in range(len(rounds)):
        parts.append(format_html('<text class="chart-tick" x="{}" y="{}" text-anchor="middle">'
                                 '{}</text>', f"{x(r):.1f}", H - BOTTOM + 16, r))
    parts.append(format_html('<text class="chart-tick" x="{}" y="{}" text-anchor="middle">{}'
                             '</text>', LEFT + width / 2, H - 6, gettext("round")))
    for i in range(len(names)):
        points = " ".join(f"{x(r):.1f},{y(shares[i]):.1f}" for r, shares in enumerate(rounds))
        parts.append(format_html('<polyline fill="none" stroke="{}" stroke-width="2.5" '
                                 'points="{}"/>', colour(i), points))
    head = format_html('<svg class="chart forecast-chart" viewBox="0 0 {} {}" width="100%" '
                       'role="img" style="min-width: {}px" aria-label="{}: {}" '
                       'xmlns="http://www.w3.org/2000/svg"><title>{}</title>', W, H,
                       chart_min_width(W, SMALLEST_FONT), title, alt, title)
    return format_html("{}{}</svg>", head, format_html_join("", "{}", ((p,) for p in parts)))
