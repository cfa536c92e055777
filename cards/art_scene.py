"""The picture in a card's art window, painted from the card's data so no two cards look alike.

What the data decides (a designer reading the gallery can tell cards apart at a glance):
- the attribute sets the palette and the backdrop (fire embers, water waves, grass leaves,
  light rays, dark stars);
- the race sets the figure in the middle (a dragon's wing, a skull, a gear…; a race the
  drawing does not know gets a wisp), heroes wear a crown, items show an object chosen by what
  their first ability does (a blade for damage, a flask for healing, a scroll for drawing…);
- the cost sets the figure's size and the pips along the bottom edge;
- the faction sets the crest in the top-left corner (its own colour and initial);
- keywords add their marks (a shield ring, re-act chevrons, regenerate arrows);
- a hash of the card's code and name varies what is left (backdrop positions, angles, hue),
  so the picture is deterministic: the same data always paints the same image.

Everything returned is SVG markup built from numbers and fixed paths; the only text (the
faction initial) is escaped.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.utils.html import escape

from cards.art_shapes import FIGURES, WISP, item_object, keyword_mark
from rules.engine.keywords import KEYWORDS

if TYPE_CHECKING:
    from cards.models import Card, Faction

# The art window of cards/card.svg.
X, Y, W, H = 22, 74, 256, 150
CX, CY = X + W / 2, Y + H / 2 + 4
CROWN = "M22 70 L30 40 L42 58 L50 30 L58 58 L70 40 L78 70 Z"


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def _hue(text: str) -> int:
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:4], 16) % 360


def _backdrop(attribute: str | None, rng: random.Random, light: str) -> Iterable[str]:
    """Fifteen-odd shapes behind the figure, in the attribute's manner."""
    if attribute == "fire":
        for _ in range(14):
            x, y, r = X + rng.uniform(8, W - 8), Y + rng.uniform(20, H), rng.uniform(2, 6)
            yield (f'<path d="M{x:.1f} {y:.1f} q{r:.1f} {-3 * r:.1f} 0 {-6 * r:.1f} '
                   f'q{-r:.1f} {3 * r:.1f} 0 {6 * r:.1f}Z" fill="{light}" '
                   f'opacity="{rng.uniform(0.25, 0.6):.2f}"/>')
    elif attribute == "water":
        for i in range(6):
            y = Y + 22 + i * 22 + rng.uniform(-4, 4)
            amp, phase = rng.uniform(4, 8), rng.uniform(0, 40)
            d = f"M{X} {y:.1f} " + " ".join(
                f"q20 {-amp if k % 2 else amp:.1f} 40 0" for k in range(7))
            yield (f'<path d="{d}" transform="translate({-phase:.1f} 0)" fill="none" '
                   f'stroke="{light}" stroke-width="2.5" opacity="{0.25 + i * 0.05:.2f}"/>')
    elif attribute == "grass":
        for _ in range(12):
            x, y = X + rng.uniform(10, W - 10), Y + rng.uniform(10, H - 10)
            angle, size = rng.uniform(0, 360), rng.uniform(6, 13)
            yield (f'<path d="M0 0 C{size:.1f} {-size:.1f} {2 * size:.1f} 0 {2 * size:.1f} 0 '
                   f'C{2 * size:.1f} 0 {size:.1f} {size:.1f} 0 0Z" fill="{light}" '
                   f'opacity="{rng.uniform(0.3, 0.6):.2f}" '
                   f'transform="translate({x:.1f} {y:.1f}) rotate({angle:.0f})"/>')
    elif attribute == "light":
        start = rng.uniform(0, 30)
        for i in range(12):
            a = math.radians(start + i * 30)
            x2, y2 = CX + 200 * math.cos(a), CY + 200 * math.sin(a)
            yield (f'<path d="M{CX:.1f} {CY:.1f} L{x2:.1f} {y2:.1f}" stroke="{light}" '
                   f'stroke-width="{rng.uniform(6, 16):.1f}" opacity="0.35"/>')
    elif attribute == "dark":
        for _ in range(22):
            x, y = X + rng.uniform(4, W - 4), Y + rng.uniform(4, H - 4)
            yield (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{rng.uniform(0.6, 2.2):.1f}" '
                   f'fill="#fff" opacity="{rng.uniform(0.4, 0.9):.2f}"/>')
        mx, my = X + rng.uniform(30, W - 30), Y + rng.uniform(22, 50)
        yield (f'<path d="M{mx:.1f} {my - 14:.1f} a14 14 0 1 0 14 14 a10 10 0 1 1 -14 -14Z" '
               f'fill="{light}" opacity="0.7"/>')
    else:   # items: a faint grid of rivets
        for i in range(6):
            for j in range(4):
                yield (f'<circle cx="{X + 20 + i * 44 + rng.uniform(-3, 3):.1f}" '
                       f'cy="{Y + 20 + j * 38:.1f}" r="2" fill="{light}" opacity="0.35"/>')


def _figure(path: str, x: float, scale: float, dark: str, tint: str,
            rng: random.Random) -> str:
    tilt = rng.uniform(-8, 8)
    return (f'<g transform="translate({x:.1f} {CY:.1f}) rotate({tilt:.1f}) scale({scale:.2f}) '
            f'translate(-50 -50)"><path d="{path}" fill="{tint}" fill-opacity="0.95" '
            f'stroke="{dark}" stroke-width="{3 / scale:.2f}" stroke-linejoin="round" '
            f'fill-rule="evenodd"/></g>')


def _crest(faction: Faction | None) -> str:
    if faction is None:
        return ""
    hue = _hue(faction.code)
    initial = escape((faction.english_name or faction.code)[:1].upper())
    return (f'<g class="crest" transform="translate({X + 6} {Y + 6})">'
            f'<path d="M0 0 H26 V18 Q26 30 13 36 Q0 30 0 18 Z" fill="hsl({hue} 55% 38%)" '
            f'stroke="#fff" stroke-width="2"/>'
            f'<text x="13" y="22" font-size="15" font-weight="800" text-anchor="middle" '
            f'fill="#fff">{initial}</text></g>')


def _pips(cost: int | None, light: str) -> Iterable[str]:
    if not cost:
        return
    n = min(cost, 10)
    start = CX - (n - 1) * 7
    for i in range(n):
        x, y = start + i * 14, Y + H - 9
        yield (f'<path d="M{x:.1f} {y - 5} L{x + 5:.1f} {y} L{x:.1f} {y + 5} L{x - 5:.1f} {y}Z" '
               f'fill="{light}" stroke="#fff" stroke-width="1.2"/>')


def _marks(keywords: Iterable[str]) -> Iterable[str]:
    for i, keyword in enumerate(k for k in keywords if k in KEYWORDS):   # registered ones
        x, y = X + W - 30 - i * 28, Y + 6
        yield (f'<g class="mark-{keyword}" transform="translate({x} {y}) scale(0.24)">'
               f'<circle cx="50" cy="50" r="50" fill="#111827" fill-opacity="0.55"/>'
               f'<path d="{keyword_mark(keyword)}" fill="#fff"/></g>')


def scene(card: Card, *, dark: str, light: str, uid: str) -> str:
    """The art window's picture for ``card`` (SVG markup, drawn over the window's gradient)."""
    rng = _rng(card.code, card.english_name, card.attribute, card.cost)
    race = card.race.code if card.race else ""
    if card.kind == "item":
        figure = item_object(card.abilities or [])
    else:
        figure = FIGURES.get(race, WISP)
    # Dearer cards show bigger figures; a hero's leaves room for its crown.
    scale = 1.0 if card.kind == "hero" else 0.84 + 0.06 * min(card.cost or 0, 6)
    x = CX + rng.uniform(-22, 22)
    # The faction tints the figure and its halo, so allies of one attribute still differ.
    hue = _hue(card.faction.code) if card.faction else _hue(card.code)
    tint, halo = f"hsl({hue} 70% 95%)", f"hsl({hue} 45% 25%)"
    radius = 38 * scale + 6
    parts = [f'<g clip-path="url(#{uid}-window)">', *_backdrop(card.attribute, rng, light),
             f'<circle cx="{x:.1f}" cy="{CY:.1f}" r="{radius:.1f}" fill="{halo}" '
             f'opacity="0.4"/>']
    if "shield" in (card.keywords or []):
        parts.append(f'<circle cx="{x:.1f}" cy="{CY:.1f}" r="{radius + 6:.1f}" '
                     f'fill="none" stroke="#e0f2fe" stroke-width="4" stroke-dasharray="10 5" '
                     f'opacity="0.9"/>')
    parts.append(_figure(figure, x, scale, dark, tint, rng))
    if card.kind == "hero":
        parts.append(f'<g transform="translate({x - 22:.1f} {CY - 38 * scale - 8:.1f}) '
                     f'scale(0.44)"><path d="{CROWN}" fill="#fde68a" stroke="{dark}" '
                     f'stroke-width="5"/></g>')
    parts += [*_pips(card.cost, light), _crest(card.faction if card.faction_id else None),
              *_marks(card.keywords or []), "</g>"]
    return "".join(parts)

