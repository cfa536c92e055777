"""Template filters of the effect vocabulary page: a term's description and a field's type in
the reader's language, kinds and triggers by their names (the registries' words)."""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from cards import game_words
from common.language import reader_language
from rules.localized import LANGUAGE_SHORT_NAME, SOURCE_LANGUAGE, derived_text

register = template.Library()

TYPE_WORDS = {
    "int": _("whole number"), "bool": _("true or false"), "amount": _("amount"),
    "count": pgettext_lazy("a field's type", "count"), "filter": _("filter"),
    "condition": _("condition"),
    "target": _("target"), "effects": _("list of effects"),
    "options": _("list of two or more effect lists"), "enum": _("one of"),
    "values": _("a value or a list of values"),
}
WITH_CHOICES = _("{type}: {choices}")
REQUIRED = _("{spec}; required")
DEFAULT = _("{spec}; default {default}")


def _doc(entry: dict[str, Any]) -> tuple[str, str]:
    """(language, text) of the description the reader reads: theirs when the catalogue has it
    (a derived language's from the English), else the English."""
    docs: dict[str, str] = entry.get("docs") or {}
    english = docs.get(SOURCE_LANGUAGE, "")
    reader = reader_language()
    derived = derived_text(reader, english) if english else None
    if derived is not None:
        return reader, derived
    if docs.get(reader):
        return reader, docs[reader]
    return SOURCE_LANGUAGE, english


@register.filter
def term_doc(entry: dict[str, Any]) -> SafeString:
    """The description in the reader's language when the term has one, else the English (the
    caller marks its language: ``term_doc_lang``); a code an ability writes, in backticks in
    the registry (`cost`), as code."""
    parts = _doc(entry)[1].split("`")
    return format_html_join("", "{}", ((format_html("<code>{}</code>", part) if n % 2 else part,)
                                        for n, part in enumerate(parts)))


@register.filter
def term_doc_lang(entry: dict[str, Any]) -> str:
    """The language code of ``term_doc``'s text, for its ``lang`` attribute."""
    return _doc(entry)[0]


@register.filter
def example_texts(entry: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(language, its short name, text) of an example's text in each language it is written
    in, the reader's own first."""
    texts: dict[str, str] = entry.get("texts") or {}
    reader = reader_language()
    order = sorted(texts, key=lambda lang: lang != reader)
    return [(lang, LANGUAGE_SHORT_NAME.text(lang), texts[lang]) for lang in order]


@register.filter
def field_spec(field: dict[str, Any]) -> SafeString:
    """"whole number; default 0", "one of: own, enemy, each; default own" (codes as code)."""
    spec = format_html("{}", TYPE_WORDS.get(field["type"], field["type"]))
    if field.get("choices"):
        codes = format_html_join(pgettext("list separator", ", "), "<code>{}</code>",
                                 ((c,) for c in field["choices"]))
        spec = format_html(str(WITH_CHOICES), type=spec, choices=codes)
    if field.get("required"):
        return format_html(str(REQUIRED), spec=spec)
    default = field.get("default")
    if default is not None:
        # As an ability's JSON writes it: false, not Python's False.
        shown = json.dumps(default) if isinstance(default, bool) else default
        return format_html(str(DEFAULT), spec=spec, default=format_html("<code>{}</code>", shown))
    return spec


@register.filter
def kind_names(kinds: list[str]) -> str:
    """Card kinds by their names: "minion, hero" → "Minion, Hero" / "随从、英雄"."""
    return pgettext("list separator", ", ").join(game_words.game_word("kind", k) for k in kinds)


@register.filter
def trigger_names(triggers: str) -> str:
    """"turn_start, turn_end" (the reference's codes) → the triggers' names."""
    codes = [t.strip() for t in triggers.split(",") if t.strip()]
    return pgettext("list separator", ", ").join(game_words.game_word("trigger", t)
                                                   for t in codes)
