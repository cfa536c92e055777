"""Small template filters for the deck pages."""

import re
from urllib.parse import quote

from django import template
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

register = template.Library()


@register.filter
def percent(value: float, digits: int = 0) -> str:
    """0.7192 → "72 %" (or "71.9 %" with one digit), in the page's number format."""
    try:
        number = number_format(round(float(value) * 100, int(digits)), int(digits))
    except (TypeError, ValueError):
        return "—"
    return _("{number} %").format(number=number)


@register.filter
def with_next(url: str, target: str) -> str:
    """``url`` with ``?next=target`` (URL-encoded) when there is a target to return to."""
    return f"{url}?next={quote(target, safe='/')}" if target else url


# The notes the services write on a version (decks/services.py), shown in the reader's language;
# a note a person wrote is shown as written.
NOTES = {"Created": gettext_lazy("Created"), "Saved": gettext_lazy("Saved")}
NOTE_PATTERNS = [
    (re.compile(r"Imported \((?P<source>[\w-]+)\)"), gettext_lazy("Imported ({source})")),
    (re.compile(r"Deck tuning (?P<uid>[\w-]+): (?P<swaps>.*)"),
     gettext_lazy("Deck tuning {uid}: {swaps}")),
    (re.compile(r"Restored version (?P<number>\d+)"), gettext_lazy("Restored version {number}")),
    (re.compile(r"Forked from “(?P<name>.*)”"), gettext_lazy("Forked from “{name}”")),
]


@register.filter
def version_note(note: str) -> str:
    if note in NOTES:
        return str(NOTES[note])
    for pattern, text in NOTE_PATTERNS:
        match = pattern.fullmatch(note or "")
        if match:
            return text.format(**match.groupdict())
    return note
