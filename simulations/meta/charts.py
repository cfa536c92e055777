"""The meta view's two charts as inline SVG: who a field that adapts plays (each deck's share of
the Nash equilibrium and of the ε-equilibrium, paired bars) and each deck's win rate against the
field with its 95 % interval over a shaded healthy band.

Drawn for a phone as much as a desktop: the box is narrow (``WIDTH``), each deck's name has a
line of its own above its bars (so a long name never runs into a bar or a figure) and is
shortened with "…" when even that line is too short, the full name kept in its ``<title>``;
figures sit in a column of their own at the right. Like the other charts (``simulations.charts``)
each is ``role="img"`` with a text alternative stating every figure, built only from numbers and
escaped strings.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from common.numbers import percent
from simulations.charts import _pct, _percent, _svg

WIDTH = 420
LEFT = 6
VALUES_W = 64            # the right-hand column of figures
LABEL_SIZE = 15          # px in the box's units, as .meta-chart text in simulations.css
LINE = 24                # a text line: any font's glyph box at LABEL_SIZE (CJK ≈ 1.45 em)
BAR = 12
CSS = "chart meta-chart"
SMALLEST_FONT = 13   # .meta-chart .chart-tick in static/css/simulations.css


def text_width(text: str, size: float = LABEL_SIZE) -> float:
    """A generous estimate of a text's width in px: a wide (CJK) character is one em, any other
    0.62 em (wider than the average Latin letter of a system sans-serif)."""
    return sum(size * (1.0 if unicodedata.east_asian_width(c) in "WF" else 0.62) for c in text)


def fitted(text: str, width: float, size: float = LABEL_SIZE) -> str:
    """``text``, shortened with "…" until its estimated width fits ``width``."""
    if text_width(text, size) <= width:
        return text
    while text and text_width(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _baseline(line_top: float) -> float:
    """Where a text sits so that its glyphs stay inside the line starting at ``line_top``."""
    return line_top + LINE - 6


def _name(name: str, line_top: float) -> str:
    shown = fitted(name, WIDTH - 2 * LEFT)
    return (f'<text x="{LEFT}" y="{_baseline(line_top):.1f}" class="chart-label">'
            f'{escape(shown)}<title>{escape(name)}</title></text>')


def _value(text: str, line_top: float) -> str:
    return (f'<text x="{WIDTH - LEFT}" y="{_baseline(line_top):.1f}" text-anchor="end" '
            f'class="chart-value">{escape(text)}</text>')


def _share(share: float) -> str:
    return percent(share, 0)


def shares_chart(names: Sequence[str], nash: Sequence[float], relaxed: Sequence[float], *,
                 relaxed_label: str, title: str) -> SafeString:
    """Paired horizontal bars 0–100 %: each deck's share of the Nash equilibrium (dark) and of
    the ε-equilibrium (light), the figures at the right. Each deck takes three lines: its name,
    then one bar a line."""
    plot_w = WIDTH - LEFT - VALUES_W - 6
    parts = []
    for k, (label, css) in enumerate(((_("Nash equilibrium"), "meta-nash"),
                                      (relaxed_label, "meta-relaxed"))):
        line = k * LINE
        parts.append(f'<rect x="{LEFT}" y="{line + (LINE - BAR) / 2:.1f}" width="{BAR}" '
                     f'height="{BAR}" class="{css}" rx="2"/>')
        parts.append(f'<text x="{LEFT + BAR + 6}" y="{_baseline(line):.1f}" class="chart-label">'
                     f'{escape(fitted(label, WIDTH - 2 * LEFT - BAR - 6))}</text>')
    top = 2 * LINE + 8
    alt = []
    for d, name in enumerate(names):
        y = top + d * 3 * LINE
        parts.append(_name(name, y))
        for k, (share, css) in enumerate(((nash[d], "meta-nash"), (relaxed[d], "meta-relaxed"))):
            line = y + (k + 1) * LINE
            bar_y = line + (LINE - BAR) / 2
            parts.append(f'<rect x="{LEFT}" y="{bar_y:.1f}" width="{plot_w}" height="{BAR}" '
                         f'class="chart-track" rx="3"/>')
            if share > 0:
                parts.append(f'<rect x="{LEFT}" y="{bar_y:.1f}" '
                             f'width="{max(1.5, share * plot_w):.1f}" height="{BAR}" '
                             f'class="{css}" rx="3"/>')
            parts.append(_value(_share(share), line))
        alt.append(_("{deck}: {nash} in the Nash equilibrium, {relaxed} in the "
                     "ε-equilibrium").format(deck=name, nash=_share(nash[d]),
                                             relaxed=_share(relaxed[d])))
    height = top + len(names) * 3 * LINE
    return _svg(title, _("; ").join(alt), height, parts, width=WIDTH, css=CSS,
                smallest_font=SMALLEST_FONT)


def _axis(rates: Sequence[dict[str, Any]], band: tuple[float, float]) -> tuple[float, float,
                                                                                float]:
    """The axis' range (from tick to tick, the band and every interval inside) and its tick
    step: 5, 10 or 20 points, whichever keeps the ticks at most seven."""
    lows = [r["low"] for r in rates if r.get("rate") is not None] + [band[0] - 0.02]
    highs = [r["high"] for r in rates if r.get("rate") is not None] + [band[1] + 0.02]
    low, high = max(0.0, min(lows)), min(1.0, max(highs))
    for step in (0.05, 0.1, 0.2):
        lo = math.floor(low / step + 1e-9) * step
        hi = math.ceil(high / step - 1e-9) * step
        if round((hi - lo) / step) <= 6:
            break
    return lo, hi, step


def field_chart(names: Sequence[str], rates: Sequence[dict[str, Any]], *,
                band: tuple[float, float], title: str) -> SafeString:
    """Each deck's win rate against the field: the point, its 95 % interval, the healthy band
    shaded and 50 % dashed; the axis spans the figures (whole ticks), not always 0–100 %. Each
    deck takes two lines: its name, then its bar and figure; the ticks a line below."""
    left, right = LEFT + 20, WIDTH - VALUES_W - 6
    lo, hi, step = _axis(rates, band)

    def x(value: float) -> float:
        return left + (value - lo) / (hi - lo) * (right - left)

    bottom = len(names) * 2 * LINE
    parts = [f'<rect x="{x(band[0]):.1f}" y="0" width="{x(band[1]) - x(band[0]):.1f}" '
             f'height="{bottom}" class="meta-band"/>',
             f'<line x1="{x(0.5):.1f}" y1="0" x2="{x(0.5):.1f}" y2="{bottom}" '
             f'class="chart-mid"/>']
    for i in range(round((hi - lo) / step) + 1):
        tick = lo + i * step
        parts.append(f'<text x="{x(tick):.1f}" y="{_baseline(bottom):.1f}" class="chart-tick" '
                     f'text-anchor="middle">{_percent(round(tick * 100))}</text>')
    alt = []
    for d, name in enumerate(names):
        y = d * 2 * LINE
        rate = rates[d]
        parts.append(_name(name, y))
        bar_y = y + LINE + (LINE - BAR) / 2
        parts.append(f'<rect x="{left}" y="{bar_y:.1f}" width="{right - left}" height="{BAR}" '
                     f'class="chart-track" rx="3"/>')
        if rate.get("rate") is None:
            parts.append(_value("—", y + LINE))
            alt.append(_("{label}: no games").format(label=name))
            continue
        parts.append(f'<rect x="{x(rate["low"]):.1f}" y="{bar_y:.1f}" '
                     f'width="{max(1.5, x(rate["high"]) - x(rate["low"])):.1f}" '
                     f'height="{BAR}" class="chart-interval" rx="3"/>')
        parts.append(f'<line x1="{x(rate["rate"]):.1f}" y1="{bar_y - 4:.1f}" '
                     f'x2="{x(rate["rate"]):.1f}" y2="{bar_y + BAR + 4:.1f}" '
                     f'class="chart-point"/>')
        parts.append(_value(_pct(rate["rate"]), y + LINE))
        alt.append(_("{label}: {rate} (95 % CI {low} to {high}, {games} games)").format(
            label=name, rate=_pct(rate["rate"]), low=_pct(rate["low"]),
            high=_pct(rate["high"]), games=rate.get("games", 0)))
    return _svg(title, _("; ").join(alt), bottom + LINE, parts, width=WIDTH, css=CSS,
                smallest_font=SMALLEST_FONT)
