"""Template filters that show the game's codes (kinds, attributes, keywords) as words in the
page's language: ``{{ card.kind|kind_label }}``, ``{{ "shield"|keyword_label }}``."""

from __future__ import annotations

from django import template
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
