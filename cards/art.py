"""Card images generated from the data: the layout maths behind ``cards/card.svg``.

SVG has no automatic line wrapping, so the rules text is wrapped here by an estimate of glyph
widths (a CJK character is one em wide, Latin letters about half), shrinking the font when the
text would not fit the box and cutting it with an ellipsis as a last resort.

Invariants: the image depends only on the card's data (and the language asked for), so it can
be cached by the card's ``updated_at``; every string goes through the template's escaping.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext

from cards.art_scene import scene
from cards.game_words import game_word
from cards.models import Card, CardKind
from cards.selectors import rarity_labels
from common.language import (
    SOURCE_LANGUAGE,
    html_lang,
    localized_value,
    other_language,
    other_value,
    reader_reads_source,
)
from rules.engine.cards import KINDS
from rules.localized import resolve_language

WIDTH, HEIGHT = 300, 420
TEXT_BOX = {"x": 26, "y": 262, "width": 248, "height": 104}

# Frame colours (dark, light) by attribute; items have none and get steel.
FRAMES = {
    "fire": ("#c2410c", "#fbbf24"),
    "grass": ("#2f7d32", "#a3d65c"),
    "water": ("#1d4ed8", "#67c7f0"),
    "light": ("#b7791f", "#fff0a8"),
    "dark": ("#4c1d95", "#c084fc"),
    None: ("#475569", "#cbd5e1"),
}
RARITY_COLOURS = {"N": "#94a3b8", "R": "#3b82f6", "SR": "#a855f7", "SSR": "#f59e0b",
                  "UR": "url(#{uid}-rainbow)"}
# One glyph per attribute (and one for items), drawn in the art window: paths in a 100×100 box.
EMBLEMS = {
    "fire": "M50 6 C62 30 84 40 80 66 C77 86 62 96 50 96 C34 96 20 84 20 64 C20 46 32 38 "
            "36 24 C42 36 44 44 50 48 C56 36 56 22 50 6 Z",
    "grass": "M50 96 C50 70 50 50 50 30 M50 60 C30 56 14 40 12 14 C38 14 54 30 50 60 Z "
             "M50 48 C66 44 84 32 88 8 C64 8 50 22 50 48 Z",
    "water": "M50 4 C66 30 82 48 82 66 C82 84 68 96 50 96 C32 96 18 84 18 66 C18 48 34 30 "
             "50 4 Z",
    "light": "M50 2 L58 38 L96 30 L64 52 L86 84 L50 64 L14 84 L36 52 L4 30 L42 38 Z",
    "dark": "M62 6 C36 10 18 30 18 54 C18 78 38 96 62 96 C74 96 84 92 92 86 C66 86 46 70 "
            "46 46 C46 28 52 14 62 6 Z",
    None: "M50 4 L88 28 L88 72 L50 96 L12 72 L12 28 Z M50 20 L74 34 L74 66 L50 80 L26 66 "
          "L26 34 Z",
}
CLOSING = set("，。：；、）」』！？,.;:!?)")


def glyph_width(char: str) -> float:
    """Estimated advance of one character, in ems."""
    width = unicodedata.east_asian_width(char)
    if width in ("W", "F") or (width == "A" and not char.isascii()):
        return 1.0   # ambiguous-width signs (—, …) are full width in CJK fonts
    # Generous for Latin text: the fallback font may be a wide one (DejaVu Sans).
    if char in "il.,:;'|!()[] ":
        return 0.34
    if char in "mwMW@%":
        return 0.9
    if char.isupper():
        return 0.72
    return 0.6


def text_width(text: str, size: float) -> float:
    # 5% to spare: bold runs and font fallbacks are wider than the estimate.
    return sum(glyph_width(c) for c in text) * size * 1.05


@dataclass
class Line:
    runs: list[tuple[str, bool]] = field(default_factory=list)   # (text, bold)
    width: float = 0.0


def _tokens(paragraph: str) -> list[tuple[str, bool]]:
    """Split one line of rules text into wrap units; the trigger label (up to the first
    colon) is bold. CJK characters are units of their own; Latin words keep their space."""
    cut = -1
    for mark in ("：", ": "):
        found = paragraph.find(mark)
        if 0 < found < 40 and (cut < 0 or found < cut):
            cut = found + len(mark.strip())
    units: list[tuple[str, bool]] = []
    word = ""
    for i, char in enumerate(paragraph):
        bold = i < cut
        wide = unicodedata.east_asian_width(char) in ("W", "F")
        if wide or char == " ":
            if word:
                units.append((word, i - 1 < cut))
                word = ""
            units.append((char, bold))
        else:
            word += char
    if word:
        units.append((word, len(paragraph) - 1 < cut))
    return units


def wrap(text: str, size: float, width: float) -> list[Line]:
    lines: list[Line] = []
    for paragraph in text.split("\n"):
        line = Line()
        for unit, bold in _tokens(paragraph):
            w = text_width(unit, size)
            fits = line.width + w <= width or unit[:1] in CLOSING or not line.runs
            if not fits and unit != " ":
                lines.append(line)
                line = Line()
            if unit == " " and not line.runs:
                continue
            if line.runs and line.runs[-1][1] == bold:
                line.runs[-1] = (line.runs[-1][0] + unit, bold)
            else:
                line.runs.append((unit, bold))
            line.width += w
        lines.append(line)
    return lines


def layout_text(text: str) -> dict[str, Any]:
    """Wrapped rules text that fits the box: font size, line height and positioned lines."""
    box_w, box_h = TEXT_BOX["width"] - 20, TEXT_BOX["height"] - 12
    size = 13.0
    lines = wrap(text, size, box_w)
    for size in (13.0, 12.0, 11.0, 10.0, 9.0):
        lines = wrap(text, size, box_w)
        if len(lines) * size * 1.3 <= box_h:
            break
    leading = size * 1.3
    fit = max(1, int(box_h // leading))
    if len(lines) > fit:
        lines = lines[:fit]
        last = lines[-1]
        text_, bold = last.runs[-1]
        last.runs[-1] = (text_.rstrip(" ") + "…", bold)
    top = TEXT_BOX["y"] + 8 + size
    block = len(lines) * leading
    top += max(0, (box_h - block) / 2)   # centre short texts in the box
    placed = [{"y": round(top + i * leading, 1), "runs": line.runs}
              for i, line in enumerate(lines)]
    return {"size": size, "lines": placed, "x": TEXT_BOX["x"] + 8}


def fitted(text: str, size: float, width: float) -> dict[str, Any]:
    """A one-line label; ``squeeze`` is set when it must be compressed to fit."""
    natural = text_width(text, size)
    return {"text": text, "size": size, "squeeze": round(width) if natural > width else None}


def kind_name(card: Card, lang: str) -> str:
    """The card's kind in ``lang``: the engine's word, or for another game's card the name its
    game declares (one query)."""
    if card.kind in KINDS and card.engine:
        return game_word("kind", card.kind, lang=lang)
    row = CardKind.objects.filter(game__card_sets__cards=card, code=card.kind).first()
    if row is None:
        return card.kind
    return localized_value(row, "name", lang)


def rarity_mark(card: Card, lang: str) -> tuple[str, str | None]:
    """``(mark, name)`` of the card's rarity: this game's tiers print their code in the
    diamond (N … UR; no name: the label says them as before); another game's tier its name's
    first letters, which fit the diamond ("Un" for Unique, "独" for 独有), and its name in
    ``lang`` for the image's label."""
    if card.engine or not card.rarity:
        return card.rarity, None
    name = rarity_labels([card], lang).get(card.code) or card.rarity
    wide = unicodedata.east_asian_width(name[:1]) in ("W", "F")
    return name[:1] if wide else name[:2].capitalize(), name


def card_art(card: Card, lang: str = SOURCE_LANGUAGE) -> dict[str, Any]:
    """Everything ``cards/card.svg`` draws, computed from the card's data, in the site language
    ``lang`` (its labels through gettext in that language)."""
    lang = resolve_language(lang)
    with translation.override(lang):
        return _card_art(card, lang)


def _label(card: Card, lang: str, primary: str, secondary: str, rarity: str | None,
           kind_word: str) -> str:
    """The image's accessible name: the name (with the other language's beside it for a reader
    of the source language), the rarity and the kind."""
    if reader_reads_source(lang):
        return gettext("{name} ({other}), {rarity} {kind}").format(
            name=primary, other=secondary, rarity=rarity or card.get_rarity_display(),
            kind=kind_word.lower())
    return gettext("{name}, {rarity} {kind}").format(
        name=primary, rarity=rarity or card.rarity, kind=kind_word.lower())


def _card_art(card: Card, lang: str) -> dict[str, Any]:
    dark, light = FRAMES.get(card.attribute, FRAMES[None])
    primary, secondary = localized_value(card, "name", lang), other_value(card, "name", lang)
    has_cost = card.kind != "hero"
    title_x = 64 if has_cost else 22
    title_w = 232 - title_x
    kind_word = kind_name(card, lang)
    type_parts = [kind_word]
    if card.attribute:
        type_parts.append(game_word("attribute", card.attribute, lang=lang))
    for tag in (card.race, card.faction):
        if tag is not None:
            type_parts.append(localized_value(tag, "name", lang))
    text = localized_value(card, "text", lang)
    mark, rarity = rarity_mark(card, lang)
    return {
        "w": WIDTH, "h": HEIGHT, "lang": html_lang(lang), "uid": f"c{card.pk or 0}{lang}",
        "dark": dark, "light": light,
        "rarity": card.rarity, "rarity_mark": mark,
        "rarity_colour": RARITY_COLOURS.get(card.rarity, RARITY_COLOURS["N"]).format(
            uid=f"c{card.pk or 0}{lang}"),
        "title": fitted(primary, 19, title_w), "subtitle": fitted(secondary, 12, title_w),
        "title_x": title_x,
        "type_line": fitted(" · ".join(type_parts), 12, 240),
        "cost": card.cost if has_cost else None,
        "attack": card.attack if card.kind == "minion" else None,
        "hp": card.hp if card.kind == "hero" else None,
        "emblem": EMBLEMS.get(card.attribute, EMBLEMS[None]),
        "scene": mark_safe(scene(card, dark=dark, light=light,  # noqa: S308  (numbers only)
                                 uid=f"c{card.pk or 0}{lang}")),
        "text": layout_text(text) if text else None,
        "empty_text": "—",
        "box": TEXT_BOX,
        "footer": f"{card.code} · {card.card_set.code}",
        "subtitle_lang": html_lang(other_language(lang)),
        "label": _label(card, lang, primary, secondary, rarity, kind_word),
        "labels": {"attack": pgettext("a card image's label of the attack", "ATK"),
                   "hp": pgettext("a card image's label of the hero's HP", "HP"),
                   "cost": pgettext("a card image's label of the cost", "COST")},
    }
