"""Template filters that show the game's codes (kinds, attributes, keywords) as words in the
page's language: ``{{ card.kind|kind_label }}``, ``{{ "shield"|keyword_label }}``."""

from __future__ import annotations

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards.language import card_lang
from cards.models import Attribute, Kind
from rules.engine.keywords import keyword_names

register = template.Library()


@register.filter
def kind_label(code: str | None) -> str:
    """``"minion"`` → "Minion" / "随从"; an unknown code is shown as it is."""
    return str(Kind(code).label) if code in Kind.values else (code or "")


@register.filter
def attribute_label(code: str | None) -> str:
    return str(Attribute(code).label) if code in Attribute.values else (code or "")


@register.filter
def keyword_label(code: str | None) -> str:
    """``"react"`` → "Re-act" / "再动", from the engine's keyword registry."""
    return keyword_names(card_lang()).get(code, code or "")


KIND_PLURALS = {"hero": _("Heroes"), "minion": _("Minions"), "item": _("Items")}


@register.filter
def kinds_label(code: str | None) -> str:
    """``"minion"`` → "Minions" / "随从": a heading over several cards of a kind."""
    return str(KIND_PLURALS[code]) if code in KIND_PLURALS else (code or "")


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
    """A per-card condition (``rules.card_figures.CONDITIONS``) as a row heading."""
    return str(CONDITION_LABELS.get(code, code))
