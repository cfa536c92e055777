"""Charts as inline SVG, drawn on the server (no JavaScript, nothing fetched): interval bars for
win rates, a histogram of game lengths, and the colour of a matrix cell.

Every chart is ``role="img"`` with a text alternative that states its figures.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.formats import number_format
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from common.numbers import percent

WIDTH = 560
LABEL_W = 150
ROW_H = 30


def _pct(value: float | None) -> str:
    if value is None:
        return _("n/a")
    return percent(value, 1)


def _percent(number: int) -> str:
    return _("{number} %").format(number=number)


def _bar_title(turns: int, count: int) -> str:
    return _("{turns} turns: {count} games").format(turns=turns, count=count)


def _turns_word() -> str:
    return _("turns")


def _fit(label: str, width: float, *, size: float = 13) -> str:
    """``label`` shortened with an ellipsis to about ``width`` units of text at font ``size``
    (a Latin letter ~0.55 em, a CJK character 1 em): a long deck name must not run out of
    the chart; the whole name stays in the row's tooltip."""
    def cost(ch: str) -> float:
        return size if ord(ch) > 0x2E80 else size * 0.55

    if sum(cost(ch) for ch in label) <= width:
        return label
    out, used = "", cost("…")
    for ch in label:
        if used + cost(ch) > width:
            break
        out, used = out + ch, used + cost(ch)
    return out.rstrip() + "…"


def interval_chart(rows: Sequence[Mapping[str, Any]], *, title: str) -> SafeString:
    """Horizontal bars 0–100 % with each row's point estimate and its 95 % interval.

    ``rows``: ``{"label", "rate", "low", "high", "games"}`` (rate None: no games)."""
    plot_w = WIDTH - LABEL_W - 70
    height = ROW_H * len(rows) + 28

    def x(value: float) -> float:
        return LABEL_W + value * plot_w

    parts = [f'<line x1="{x(0.5):.1f}" y1="4" x2="{x(0.5):.1f}" y2="{height - 22}" '
             f'class="chart-mid"/>']
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<text x="{x(tick):.1f}" y="{height - 6}" class="chart-tick" '
                     f'text-anchor="middle">{_percent(int(tick * 100))}</text>')
    alt = []
    for i, row in enumerate(rows):
        y = 6 + i * ROW_H
        label = escape(_fit(str(row["label"]), LABEL_W - 12))
        parts.append(f'<text x="{LABEL_W - 8}" y="{y + 15}" text-anchor="end" '
                     f'class="chart-label">{label}<title>{escape(row["label"])}</title></text>')
        parts.append(f'<rect x="{LABEL_W}" y="{y + 6}" width="{plot_w}" height="12" '
                     f'class="chart-track" rx="3"/>')
        if row.get("rate") is None:
            alt.append(_("{label}: no games").format(label=row["label"]))
            continue
        low, high, rate = row["low"], row["high"], row["rate"]
        parts.append(f'<rect x="{x(low):.1f}" y="{y + 6}" width="{max(1.0, x(high) - x(low)):.1f}"'
                     f' height="12" class="chart-interval" rx="3"/>')
        parts.append(f'<line x1="{x(rate):.1f}" y1="{y + 2}" x2="{x(rate):.1f}" y2="{y + 22}" '
                     f'class="chart-point"/>')
        parts.append(f'<text x="{WIDTH - 4}" y="{y + 15}" text-anchor="end" '
                     f'class="chart-value">{_pct(rate)}</text>')
        alt.append(_("{label}: {rate} (95 % CI {low} to {high}, {games} games)").format(
            label=row["label"], rate=_pct(rate), low=_pct(low), high=_pct(high),
            games=row.get("games", 0)))
    return _svg(title, _("; ").join(alt), height, parts)


def histogram(counts: Mapping[int, int] | Mapping[str, int], *, title: str) -> SafeString:
    """Vertical bars: games per game length (turns)."""
    data = sorted((int(k), int(v)) for k, v in counts.items())
    height = 180
    if not data:
        nothing = escape(_("No finished games."))
        return _svg(title, _("no games"), 40, ['<text x="8" y="24" class="chart-label">'
                                               f'{nothing}</text>'])
    lo, hi = data[0][0], data[-1][0]
    span = hi - lo + 1
    top = max(v for _, v in data)
    # The axis word ("turns") gets a line of its own below the ticks.
    plot_h, plot_w, left = height - 40, WIDTH - 50, 40
    height += 16
    bar_w = plot_w / span
    parts = [f'<line x1="{left}" y1="{plot_h + 8}" x2="{WIDTH - 6}" y2="{plot_h + 8}" '
             f'class="chart-axis"/>',
             f'<text x="{left - 6}" y="16" text-anchor="end" class="chart-tick">{top}</text>']
    for turns, count in data:
        h = plot_h * count / top
        xpos = left + (turns - lo) * bar_w
        parts.append(f'<rect x="{xpos + 1:.1f}" y="{plot_h + 8 - h:.1f}" '
                     f'width="{max(1.0, bar_w - 2):.1f}" height="{h:.1f}" class="chart-bar">'
                     f'<title>{escape(_bar_title(turns, count))}</title></rect>')
    step = max(1, span // 10)
    for turns in range(lo, hi + 1, step):
        xpos = left + (turns - lo + 0.5) * bar_w
        parts.append(f'<text x="{xpos:.1f}" y="{plot_h + 24}" text-anchor="middle" '
                     f'class="chart-tick">{turns}</text>')
    parts.append(f'<text x="{WIDTH - 6}" y="{height - 4}" text-anchor="end" '
                 f'class="chart-tick">{escape(_turns_word())}</text>')
    total = sum(v for _, v in data)
    mean = sum(k * v for k, v in data) / total
    alt = _("{total} games from {low} to {high} turns, {mean} on average").format(
        total=total, low=lo, high=hi, mean=number_format(round(mean, 1), 1))
    return _svg(title, alt, height, parts)


# A chart scales with its box; on a phone it would shrink its text below what can be read, so
# it keeps the width at which its smallest text (its CSS font size, in px) is drawn at least
# MIN_TEXT px, and its figure scrolls sideways instead (``.chart-figure``).
MIN_TEXT = 10
SMALLEST_FONT = 11   # .chart-tick in static/css/simulations.css


def chart_min_width(width: int, smallest_font: float = SMALLEST_FONT) -> int:
    """The narrowest a chart of ``width`` user units may be drawn, in CSS px."""
    return math.ceil(width * MIN_TEXT / smallest_font)


def _svg(title: str, alt: str, height: int, parts: list[str], *, width: int = WIDTH,
         css: str = "chart", smallest_font: float = SMALLEST_FONT,
         role: str = "img") -> SafeString:
    """The chart's <svg>: an image described by ``alt``; a chart whose points are links (a
    sweep's runs) is a group, since an image's content is not reached by the keyboard."""
    head = format_html('<svg class="{}" viewBox="0 0 {} {}" width="100%" role="{}" '
                       'style="min-width: {}px" '
                       'aria-label="{}: {}" xmlns="http://www.w3.org/2000/svg">'
                       '<title>{}</title>', css, width, height, role,
                       chart_min_width(width, smallest_font), title, alt, title)
    return mark_safe(head + "".join(parts) + "</svg>")   # parts are built from numbers/escaped


def rate_colour(rate: float | None) -> str:
    """A cell's background: red below 50 %, green above, pale near 50 % (CSS hsl)."""
    if rate is None:
        return "transparent"
    strength = min(1.0, abs(rate - 0.5) * 2)
    hue = 140 if rate >= 0.5 else 0
    return f"hsl({hue} 65% {92 - strength * 40:.0f}%)"
