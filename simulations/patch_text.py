"""A patch's changes as a reader meets them: the card's name and the field's name in the page's
language with the value before and after ("Ember Pup: attack 2 → 3", "余烬幼犬：攻击力 2 → 3"),
from the card data a run or a balance search froze — never ``T-M01.attack = 3``.

Field and value words come from the catalogue's own reading of the query language
(``cards.query.describe``), the one place the site names card fields today."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.language import frozen_card_name
from cards.query.describe import FIELD_WORDS, VALUE_WORDS

CHANGE_LINE = gettext_lazy("{card}: {field} {old} → {new}")
NEW_VALUE_LINE = gettext_lazy("{card}: {field} → {new}")
MORE_FIELDS = {"keywords": gettext_lazy("keywords"), "abilities": gettext_lazy("abilities")}
NOTHING = gettext_lazy("none")
ABILITIES_CHANGED = gettext_lazy("(rewritten)")
MISSING = object()


def field_name(field: str) -> str:
    """A card field's name in the page's language ("attack" → "攻击力")."""
    return str(FIELD_WORDS.get(field) or MORE_FIELDS.get(field) or field)


def value_text(field: str, value: Any) -> str:
    """A field's value as words: attribute and keyword codes by name, lists joined."""
    if field == "abilities":
        return str(ABILITIES_CHANGED)
    if value is None or value == []:
        return str(NOTHING)
    if isinstance(value, (list, tuple)):
        return _(", ").join(value_text(field, v) for v in value)
    return str(VALUE_WORDS.get(value, value)) if isinstance(value, str) else str(value)


def change_line(cards: Mapping[str, Any], card: str, field: str, new: Any,
                old: Any = MISSING) -> str:
    """One change in words; ``old`` is read from ``cards`` (the unpatched data) unless given."""
    if old is MISSING:
        old = (cards.get(card) or {}).get(field)
    name = frozen_card_name(dict(cards), card)
    if field == "abilities":
        return str(NEW_VALUE_LINE).format(card=name, field=field_name(field),
                                          new=value_text(field, new))
    return str(CHANGE_LINE).format(card=name, field=field_name(field),
                                   old=value_text(field, old), new=value_text(field, new))
