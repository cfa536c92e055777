"""A deck as a PNG to post (Pillow): the deck's name and format, its hero, and a tile per card
with a picture in its attribute's colours (the card art's frame colours, ``cards.art``), its
cost, its name and its count — every word in one language.

Chinese needs a CJK font: Debian's ``fonts-wqy-microhei`` when it is installed, else any font
named in ``CJK_FONTS``; without one, Pillow's own font (Latin only) is used and Chinese names
fall back to the English ones, so the image never shows empty boxes.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from cards.art import FRAMES
from cards.language import card_lang
from decks.models import Deck

CJK_FONTS = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
             "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
WIDTH, COLUMNS, TILE_W, TILE_H, GAP, HEAD = 1000, 5, 184, 120, 10, 150
BACKGROUND, INK, MUTED = "#f8fafc", "#0f172a", "#475569"
WORDS = {"en": {"hero": "Hero", "cards": "{n} cards", "none": "No hero"},
         "zh": {"hero": "英雄", "cards": "{n} 张卡牌", "none": "没有英雄"}}


@lru_cache(maxsize=16)
def _font(size: int) -> tuple[ImageFont.ImageFont, bool]:
    """A font of ``size`` px and whether it draws Chinese."""
    for path in CJK_FONTS:
        if Path(path).is_file():
            return ImageFont.truetype(path, size), True
    return ImageFont.load_default(size), False


def _name(card, lang: str, cjk: bool) -> str:
    if lang == "zh" and cjk and card.name_zh:
        return card.name_zh
    return card.name_en


def _fit(draw: ImageDraw.ImageDraw, text: str, font, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _tile(draw: ImageDraw.ImageDraw, x: int, y: int, card, count: int, lang: str) -> None:
    dark, light = FRAMES.get(card.attribute or None, FRAMES[None])
    draw.rounded_rectangle((x, y, x + TILE_W, y + TILE_H), 10, fill=light, outline=dark, width=3)
    art = (x + 8, y + 8, x + TILE_W - 8, y + 70)
    draw.rounded_rectangle(art, 6, fill=dark)
    centre_x, centre_y = (art[0] + art[2]) // 2, (art[1] + art[3]) // 2
    draw.ellipse((centre_x - 22, centre_y - 22, centre_x + 22, centre_y + 22), fill=light)
    draw.ellipse((centre_x - 10, centre_y - 10, centre_x + 10, centre_y + 10), fill=dark)
    small, cjk = _font(15)
    big, _ = _font(20)
    if card.cost is not None:
        draw.ellipse((x + 4, y + 4, x + 34, y + 34), fill="#1e293b", outline=light, width=2)
        draw.text((x + 19, y + 19), str(card.cost), font=small, fill="white", anchor="mm")
    draw.text((x + TILE_W - 10, y + 66), f"×{count}", font=big, fill="white", anchor="rd")
    name = _fit(draw, _name(card, lang, cjk), small, TILE_W - 16)
    draw.text((x + 8, y + 80), name, font=small, fill=INK)
    if card.rarity:
        draw.text((x + 8, y + 100), card.rarity, font=small, fill=MUTED)


def _rows(deck: Deck) -> list[tuple[object, int]]:
    counts: dict[str, list] = {}
    for entry in deck.entries.all():
        row = counts.setdefault(entry.card.code, [entry.card, 0])
        row[1] += entry.count
    return sorted(((card, n) for card, n in counts.values()),
                  key=lambda r: (r[0].cost if r[0].cost is not None else 99, r[0].name_en))


def deck_image_png(deck: Deck, *, lang: str | None = None) -> bytes:
    """The PNG bytes of ``deck`` drawn in ``lang`` (default: the page's language)."""
    lang = lang or card_lang()
    rows = _rows(deck)
    lines = max(1, -(-len(rows) // COLUMNS))
    image = Image.new("RGB", (WIDTH, HEAD + lines * (TILE_H + GAP) + GAP), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title, cjk = _font(34)
    text, _ = _font(20)
    words = WORDS["zh" if lang == "zh" and cjk else "en"]
    draw.text((24, 20), _fit(draw, deck.name, title, WIDTH - 48), font=title, fill=INK)
    total = sum(n for _card, n in rows)
    fmt = deck.format.name_zh if lang == "zh" and cjk and deck.format.name_zh else \
        deck.format.name
    draw.text((24, 70), f"{fmt} · {words['cards'].format(n=total)}", font=text, fill=MUTED)
    hero = deck.hero
    if hero is not None:
        dark, _light = FRAMES.get(hero.attribute or None, FRAMES[None])
        draw.rounded_rectangle((24, 102, 34, 130), 3, fill=dark)
        label = f"{words['hero']}: {_name(hero, lang, cjk)}"
        draw.text((44, 104), label + (f" · {hero.hp} HP" if hero.hp else ""), font=text,
                  fill=INK)
    else:
        draw.text((24, 104), words["none"], font=text, fill=MUTED)
    for i, (card, count) in enumerate(rows):
        x = 24 + (i % COLUMNS) * (TILE_W + GAP)
        y = HEAD + (i // COLUMNS) * (TILE_H + GAP)
        _tile(draw, x, y, card, count, lang)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
