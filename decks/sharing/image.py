"""A deck as a PNG to post (Pillow): the deck's name and format, its hero, and a tile per card
with a picture in its attribute's colours (the card art's frame colours, ``cards.art``), its
cost, its name and its count — every word in one language: the site's sentences by gettext,
game words (the hero kind, the HP field) from their registries, names as the pages show them.

Chinese needs a CJK font: Debian's ``fonts-wqy-microhei`` when it is installed, else any font
named in ``CJK_FONTS``; without one, Pillow's own font (Latin only) is used and the image is
drawn in the site's default language, so it never shows empty boxes.

Drawing takes a tenth of a second, so an image is drawn once per deck version and language and
kept in the shared cache (``deck_image_stored``) under the deck page's stamp (the deck's last
change and the catalogue's generation): every later request, whatever its query string, is a
cache read, and its ETag lets a browser revalidate with a 304.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import gettext_lazy
from PIL import Image, ImageDraw, ImageFont

from cards.art import FRAMES
from cards.game_words import game_word
from cards.models import Card
from decks.models import Deck
from decks.selectors import DeckStamp

CJK_FONTS = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
             "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
WIDTH, COLUMNS, TILE_W, TILE_H, GAP, HEAD = 1000, 5, 184, 120, 10, 150
BACKGROUND, INK, MUTED = "#f8fafc", "#0f172a", "#475569"
CARD_TOTAL = gettext_lazy("{n} cards")
NO_HERO = gettext_lazy("No hero")
FIELD_VALUE = gettext_lazy("{field} {value}")     # "HP 30", "血量 30"
STORED_SECONDS = 7 * 24 * 3600   # a stamp moves with every change: old images only age out


@lru_cache(maxsize=16)
def _font(size: int) -> tuple[ImageFont.FreeTypeFont | ImageFont.ImageFont, bool]:
    """A font of ``size`` px and whether it draws Chinese."""
    for path in CJK_FONTS:
        if Path(path).is_file():
            return ImageFont.truetype(path, size), True
    return ImageFont.load_default(size), False


@dataclass(frozen=True)
class HeaderWords:
    format_line: str     # "Standard · 30 cards"
    hero_line: str       # "Hero: Flame Warden · HP 30", or "No hero"


def header_words(deck: Deck) -> HeaderWords:
    """The image's header lines in the active language."""
    total = sum(entry.count for entry in deck.entries.all())
    format_line = f"{deck.format.display_name} · {CARD_TOTAL.format(n=total)}"
    hero = deck.hero
    if hero is None:
        return HeaderWords(format_line, str(NO_HERO))
    hero_line = f"{game_word('kind', 'hero')}: {hero.display_name}"
    if hero.hp:
        hero_line += " · " + FIELD_VALUE.format(field=game_word("field", "hp"), value=hero.hp)
    return HeaderWords(format_line, hero_line)


def _fit(draw: ImageDraw.ImageDraw, text: str,
         font: ImageFont.FreeTypeFont | ImageFont.ImageFont, width: int) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _tile(draw: ImageDraw.ImageDraw, x: int, y: int, card: Card, count: int) -> None:
    dark, light = FRAMES.get(card.attribute or None, FRAMES[None])
    draw.rounded_rectangle((x, y, x + TILE_W, y + TILE_H), 10, fill=light, outline=dark, width=3)
    art = (x + 8, y + 8, x + TILE_W - 8, y + 70)
    draw.rounded_rectangle(art, 6, fill=dark)
    centre_x, centre_y = (art[0] + art[2]) // 2, (art[1] + art[3]) // 2
    draw.ellipse((centre_x - 22, centre_y - 22, centre_x + 22, centre_y + 22), fill=light)
    draw.ellipse((centre_x - 10, centre_y - 10, centre_x + 10, centre_y + 10), fill=dark)
    small, _ = _font(15)
    big, _ = _font(20)
    if card.cost is not None:
        draw.ellipse((x + 4, y + 4, x + 34, y + 34), fill="#1e293b", outline=light, width=2)
        draw.text((x + 19, y + 19), str(card.cost), font=small, fill="white", anchor="mm")
    draw.text((x + TILE_W - 10, y + 66), f"×{count}", font=big, fill="white", anchor="rd")
    name = _fit(draw, card.display_name, small, TILE_W - 16)
    draw.text((x + 8, y + 80), name, font=small, fill=INK)
    if card.rarity:
        draw.text((x + 8, y + 100), card.rarity, font=small, fill=MUTED)


def _rows(deck: Deck) -> list[tuple[Card, int]]:
    cards: dict[str, Card] = {}
    counts: dict[str, int] = {}
    for entry in deck.entries.all():
        cards.setdefault(entry.card.code, entry.card)
        counts[entry.card.code] = counts.get(entry.card.code, 0) + entry.count
    return sorted(((cards[code], n) for code, n in counts.items()),
                  key=lambda r: (r[0].cost if r[0].cost is not None else 99,
                                 r[0].english_name))


def deck_image_png(deck: Deck, *, lang: str | None = None) -> bytes:
    """The PNG bytes of ``deck`` drawn in the language ``lang`` (a code of
    ``settings.LANGUAGES``; default: the page's). Without a font for Chinese, the site's
    default language."""
    if not _font(20)[1]:
        lang = settings.LANGUAGE_CODE
    with translation.override(lang or translation.get_language()):
        return _draw(deck)


def _draw(deck: Deck) -> bytes:
    rows = _rows(deck)
    lines = max(1, -(-len(rows) // COLUMNS))
    image = Image.new("RGB", (WIDTH, HEAD + lines * (TILE_H + GAP) + GAP), BACKGROUND)
    draw = ImageDraw.Draw(image)
    title, _ = _font(34)
    text, _ = _font(20)
    words = header_words(deck)
    draw.text((24, 20), _fit(draw, deck.name, title, WIDTH - 48), font=title, fill=INK)
    draw.text((24, 70), words.format_line, font=text, fill=MUTED)
    hero = deck.hero
    if hero is not None:
        dark, _light = FRAMES.get(hero.attribute or None, FRAMES[None])
        draw.rounded_rectangle((24, 102, 34, 130), 3, fill=dark)
        draw.text((44, 104), words.hero_line, font=text, fill=INK)
    else:
        draw.text((24, 104), words.hero_line, font=text, fill=MUTED)
    for i, (card, count) in enumerate(rows):
        x = 24 + (i % COLUMNS) * (TILE_W + GAP)
        y = HEAD + (i // COLUMNS) * (TILE_H + GAP)
        _tile(draw, x, y, card, count)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@dataclass(frozen=True)
class StoredImage:
    png: bytes
    etag: str            # quoted, as the header carries it
    name: str            # the deck's name, for the file's


def deck_image_stored(*, stamp: DeckStamp, lang: str) -> StoredImage:
    """The image of the deck whose page stamp is ``stamp`` (``decks.selectors.deck_page_stamp``:
    its id first) in ``lang``: drawn the first time, read from the shared cache after."""
    key = "deck-image:" + hashlib.blake2b(repr((stamp, lang)).encode(),
                                          digest_size=16).hexdigest()
    found: StoredImage | None = cache.get(key)
    if found is None:
        deck = (Deck.objects.select_related("format", "hero")
                .prefetch_related("entries__card").get(pk=stamp[0]))
        png = deck_image_png(deck, lang=lang)
        found = StoredImage(png, f'"{hashlib.blake2b(png, digest_size=12).hexdigest()}"',
                            deck.name)
        cache.set(key, found, STORED_SECONDS)
    return found
