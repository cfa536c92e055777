"""Template filters of the catalogue's pages: a per-card condition's heading and the query
language's terms set as code. (Game words and the page's language are built into every
template: ``cards.templatetags.game_words``, ``common.templatetags.site``.)"""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from common.language import reader_writes_latin_script

register = template.Library()


CONDITION_LABELS = {"drawn": _("When drawn"), "opening": _("In the opening hand"),
                    "played": _("When played"), "awakened": _("When awakened")}


@register.filter
def condition_label(code: str) -> str:
    """A per-card condition (``rules.lab.card_figures.CONDITIONS``) as a row heading."""
    return str(CONDITION_LABELS.get(code, code))


# A token of the query language inside a message: a field, an operator and maybe a value
# ("c<=3", "r:UR"), or a bare Latin word.
QUERY_TOKEN = re.compile(r"[A-Za-z][\w\-]*(?:(?:[:=]|[<>!]=?)[\w\-\"]+|[<>!]=?)?")


@register.filter
def query_tokens_as_code(message: str) -> SafeString:
    """A query help text or error message with what a reader types set as code: the example
    terms ("c<=3"), and on a page in a language not written in Latin letters every Latin word
    (fields, values: "atk (攻击力)")."""
    latin_prose = reader_writes_latin_script()

    out: list[str] = []
    end = 0
    for match in QUERY_TOKEN.finditer(message):
        token = match.group(0)
        out.append(escape(message[end:match.start()]))
        typed = not latin_prose or any(op in token for op in ":<>=")
        out.append(f"<code>{escape(token)}</code>" if typed else escape(token))
        end = match.end()
    out.append(escape(message[end:]))
    return mark_safe("".join(out))  # noqa: S308 (every piece escaped)
