"""A deck version's note in the reader's language: the notes the services write (decks/services.py:
"Created", "Saved", "Imported (…)", …) are stored in English and shown translated; a note a
person wrote is shown as written."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy

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


def version_note(note: str) -> str:
    if note in NOTES:
        return str(NOTES[note])
    for pattern, text in NOTE_PATTERNS:
        match = pattern.fullmatch(note or "")
        if match:
            return text.format(**match.groupdict())
    return note
