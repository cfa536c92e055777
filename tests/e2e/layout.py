"""What the chart tests check on a page: every <text> of every chart lies inside its chart's
box and no two texts overlap. The boxes come from the browser (``CHART_TEXTS`` runs in the
page), so a font that draws wider, a longer translation or a narrow screen are all measured."""

from __future__ import annotations

SLACK = 0.5   # px: boxes that touch are not overlapping

# Every <text> of every chart under the given element: its box, and its chart's box.
CHART_TEXTS = """root => [...root.querySelectorAll('svg.chart')].map(svg => {
    const box = svg.getBoundingClientRect();
    return {box: [box.left, box.top, box.right, box.bottom],
            texts: [...svg.querySelectorAll('text')].filter(t => t.textContent.trim()).map(t => {
                const r = t.getBoundingClientRect();
                return {label: t.textContent.trim(), box: [r.left, r.top, r.right, r.bottom]};
            })};
})"""


def layout_problems(charts: list[dict]) -> list[str]:
    """Each text outside its chart ("clipped") and each pair of texts that overlap."""
    found = []
    for n, chart in enumerate(charts):
        left, top, right, bottom = chart["box"]
        texts = chart["texts"]
        for text in texts:
            x0, y0, x1, y1 = text["box"]
            if x0 < left - SLACK or y0 < top - SLACK or x1 > right + SLACK \
                    or y1 > bottom + SLACK:
                found.append(f"chart {n}: {text['label']!r} {text['box']} is clipped by "
                             f"{chart['box']}")
        for i, one in enumerate(texts):
            for other in texts[i + 1:]:
                a, b = one["box"], other["box"]
                wide = min(a[2], b[2]) - max(a[0], b[0])
                high = min(a[3], b[3]) - max(a[1], b[1])
                if wide > SLACK and high > SLACK:
                    found.append(f"chart {n}: {one['label']!r} {a} overlaps "
                                 f"{other['label']!r} {b}")
    return found
