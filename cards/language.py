"""Which language card names, rules text and card images are shown in: the page's language.

The site's language is Django's active language (the header's switcher, Accept-Language, or an
old ``?lang=zh`` link); card data exists in two languages, ``en`` and ``zh``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language


def card_lang() -> str:
    """``"zh"`` while the page is Chinese, else ``"en"``."""
    return "zh" if (get_language() or "").lower().startswith("zh") else "en"


def frozen_card_name(cards: Mapping[str, Mapping[str, Any]], code: str) -> str:
    """The name of ``code`` in the page's language from a frozen ``{code: card data}`` map (a
    simulation run keeps the card data it was played with); the code when it is not there."""
    card = cards.get(code) or {}
    if card_lang() == "zh" and card.get("name_zh"):
        return str(card["name_zh"])
    return str(card.get("name_en") or code)


def frozen_deck_name(deck: Mapping[str, Any], number: int) -> str:
    """A frozen deck's name in the page's language (a starter deck's card set may give a
    Chinese one, ``name_zh``); ``Deck <number>`` when it has none."""
    from django.utils.translation import gettext

    if card_lang() == "zh" and deck.get("name_zh"):
        return str(deck["name_zh"])
    name = deck.get("name")
    return str(name) if name else gettext("Deck {number}").format(number=number)
