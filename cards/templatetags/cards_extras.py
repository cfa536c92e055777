"""Template filters: the game's codes as words in the page's language, through the one reader
of game words (``{{ card.kind|game_word:"kind" }}``, ``{{ "shield"|game_word:"keyword" }}``),
and the catalogue's figures."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards import game_words

register = template.Library()


@register.filter
def game_word(code: str | None, kind: str) -> str:
    """``{{ "react"|game_word:"keyword" }}`` → "Re-act" / "再动"; an unknown code as it is."""
    return game_words.game_word(kind, code)


@register.filter
def pct(value) -> str:
    """0.5312 → "53.1 %"; None → "—"."""
    if value is None or value == "":
        return "—"
    return gettext("{number} %").format(number=number_format(round(float(value) * 100, 1), 1))


CONDITION_LABELS = {"drawn": _("When drawn"), "opening": _("In the opening hand"),
                    "played": _("When played"), "awakened": _("When awakened")}


@register.filter
def condition_label(code: str) -> str:
    """A per-card condition (``rules.lab.card_figures.CONDITIONS``) as a row heading."""
    return str(CONDITION_LABELS.get(code, code))
