"""Small template filters for the deck pages."""

from urllib.parse import quote

from django import template

from common import numbers
from decks import version_notes

register = template.Library()


@register.filter
def percent(value: float, digits: int = 0) -> str:
    """0.7192 → "72 %" (or "71.9 %" with one digit), in the page's number format
    (``common.numbers.percent``)."""
    return numbers.percent(value, digits)


@register.filter
def with_next(url: str, target: str) -> str:
    """``url`` with ``?next=target`` (URL-encoded) when there is a target to return to."""
    return f"{url}?next={quote(target, safe='/')}" if target else url


@register.filter
def version_note(note: str) -> str:
    """A version's note in the reader's language (``decks.version_notes``)."""
    return version_notes.version_note(note)
