"""Template filters: the game's codes as words in the page's language, through the one reader
of game words (``{{ card.kind|game_word:"kind" }}``, ``{{ "shield"|game_word:"keyword" }}``),
and the catalogue's figures."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from cards import game_words
from common import language
from common.language import reader_writes_latin_script
from common.numbers import percent

register = template.Library()


@register.filter
def game_word(code: str | None, kind: str) -> str:
    """``{{ "react"|game_word:"keyword" }}`` → "Re-act" / "再动"; an unknown code as it is."""
    return game_words.game_word(kind, code)


@register.simple_tag
def page_language_tag() -> str:
    """The page's language as HTML's ``lang`` writes it (``zh-Hans``): ``{% page_language_tag
    as page_lang %}``."""
    return language.html_lang()


@register.simple_tag
def language_choices() -> list[dict[str, str]]:
    """The header's language switcher: each site language's code, HTML tag and short name for
    itself."""
    return language.site_languages()


@register.simple_tag
def other_language() -> dict[str, str]:
    """The language of the name shown beside the reader's (``common.language.other_language``):
    its HTML tag and its name in the reader's language (a column heading)."""
    code = language.other_language()
    return {"tag": language.html_lang(code), "name": language.language_name(code)}


@register.simple_tag
def names_beside() -> bool:
    """Whether a name shows its other language's beside it: for a reader of the source
    language (``common.language.reader_reads_source``)."""
    return language.reader_reads_source()


@register.filter
def language_tag(code: str) -> str:
    """A site language's code as HTML's ``lang`` writes it (``zh-hans`` → ``zh-Hans``)."""
    return language.html_lang(code)


@register.filter
def pct(value: float | str | None) -> str:
    """0.5312 → "53.1 %"; None → "—" (``common.numbers.percent``)."""
    return percent(value, 1)


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
