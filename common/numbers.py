"""Numbers read and written: whole numbers read from an address, a form or a header, and the
one way a share is written in percent (every page's, chart's and filter's)."""

from __future__ import annotations

from django.utils.formats import number_format
from django.utils.translation import gettext

MAX_DIGITS = 9


def whole_number(raw: str | None) -> int | None:
    """``raw`` as a whole number when it is one written in ASCII digits (at most nine), else
    None. ``str.isdigit`` alone also takes "²" and other digits ``int`` refuses, and ``int``
    refuses a string of thousands of digits: either was a 500 where a 400 belongs."""
    if raw is None or not raw.isascii() or not raw.isdigit() or len(raw) > MAX_DIGITS:
        return None
    return int(raw)


def percent(value: float | str | None, digits: int = 1) -> str:
    """A share in percent, in the reader's number format and words: 0.5312 → "53.1 %" (with
    ``digits=0``, "53 %"); "—" when there is no number."""
    try:
        number = round(float(value) * 100, int(digits))   # type: ignore[arg-type]
    except (TypeError, ValueError):
        return "—"
    return gettext("{number} %").format(number=number_format(number, int(digits)))
