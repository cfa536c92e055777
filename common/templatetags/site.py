"""The template tags every page uses, built into every template (``config/settings.py``:
``TEMPLATES`` ``builtins``, no ``{% load %}``): the page's language and the language switcher
(``common.language``), and a share in percent (``common.numbers.percent``)."""

from __future__ import annotations

from django import template

from common import language
from common.numbers import percent

register = template.Library()


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
