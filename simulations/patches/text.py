"""A patch's changes as a reader meets them: the card's name and the field's name in the page's
language with the value before and after ("Ember Pup: attack 2 → 3", "余烬幼犬：攻击力 2 → 3"),
from the card data a run or a balance search froze — never ``T-M01.attack = 3``.

A change of what the card says — its keywords, its abilities, a number inside them, an effect
removed — reads as the card's rules text before → after in the page's language, generated from
the data (``rules.lab.patches.change_rules_text``): "Dawn Squire: Awaken: Draw a card. → Awaken:
Draw 2 cards."; a race or faction in it is the catalogue's word in that language ("Beast" /
野兽, ``cards.models.text_names``, as on the play board), never its code.

Field and value words are the engine's, through ``cards.game_words`` (the query reading's
``field_word``/``value_word``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.models import text_names
from cards.query.describe import field_word, value_word
from common.language import frozen_card_name, reader_language
from rules.lab.patches import Change, PatchError, change_rules_text, reads_as_text

CHANGE_LINE = gettext_lazy("{card}: {field} {old} → {new}")
TEXT_LINE = gettext_lazy("{card}: {before} → {after}")
NEW_VALUE_LINE = gettext_lazy("{card}: {field} → {new}")
NOTHING = gettext_lazy("none")
ABILITIES_CHANGED = gettext_lazy("(rewritten)")
MISSING = object()
# The card field → the kind of game word its values are.
VALUE_FIELDS = {"keywords": "keyword"}


def field_name(field: str) -> str:
    """A card field's name in the page's language ("attack" → "攻击力")."""
    return field_word(field)


def value_text(field: str, value: Any) -> str:
    """A field's value as words: attribute and keyword codes by name, lists joined."""
    if field == "abilities":
        return str(ABILITIES_CHANGED)
    if value is None or value == []:
        return str(NOTHING)
    if isinstance(value, (list, tuple)):
        return _(", ").join(value_text(field, v) for v in value)
    if isinstance(value, str):
        return value_word(VALUE_FIELDS.get(field, field), value)
    return str(value)


def change_line(cards: Mapping[str, Any], card: str, field: str, new: Any,
                old: Any = MISSING) -> str:
    """One change in words; ``old`` is read from ``cards`` (the unpatched data) unless given."""
    if old is MISSING:
        old = (cards.get(card) or {}).get(field)
    name = frozen_card_name(dict(cards), card)
    if reads_as_text(field) and cards.get(card):
        before_after = rules_text_change(cards, card, field, new)
        if before_after is not None:
            return str(TEXT_LINE).format(card=name, before=before_after[0],
                                         after=before_after[1])
    if field == "abilities":
        return str(NEW_VALUE_LINE).format(card=name, field=field_name(field),
                                          new=value_text(field, new))
    return str(CHANGE_LINE).format(card=name, field=field_name(field),
                                   old=value_text(field, old), new=value_text(field, new))


def rules_text_change(cards: Mapping[str, Any], card: str, field: str, new: Any
                      ) -> tuple[str, str] | None:
    """The card's rules text lines one change rewrites, before and after, in the page's
    language (None when the change cannot be made on ``cards``: a page showing a stored patch
    keeps its plain line)."""
    lang = reader_language()
    try:
        return change_rules_text(cards, Change(card, field, new), lang, text_names(cards, lang))
    except PatchError:
        return None
