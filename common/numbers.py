"""Whole numbers read from an address, a form or a header."""

from __future__ import annotations

MAX_DIGITS = 9


def whole_number(raw: str | None) -> int | None:
    """``raw`` as a whole number when it is one written in ASCII digits (at most nine), else
    None. ``str.isdigit`` alone also takes "²" and other digits ``int`` refuses, and ``int``
    refuses a string of thousands of digits: either was a 500 where a 400 belongs."""
    if raw is None or not raw.isascii() or not raw.isdigit() or len(raw) > MAX_DIGITS:
        return None
    return int(raw)
