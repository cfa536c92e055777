"""Download file names that are safe whatever the deck is called."""

from __future__ import annotations

import re
import unicodedata

_UNSAFE = re.compile(r'[\\/:*?"<>|;,=\'`$%&{}]+|\.{2,}')


def safe_filename(name: str, extension: str, fallback: str = "deck") -> str:
    """``name.extension`` with no path separators, quotes, control characters or newlines,
    at most 80 characters before the extension; non-ASCII letters are kept (the response
    header encodes them as RFC 6266 ``filename*``)."""
    kept = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in str(name))
    kept = _UNSAFE.sub(" ", kept)
    kept = "-".join(kept.split()).strip(".-_")[:80].strip(".-_")
    return f"{kept or fallback}.{extension}"
