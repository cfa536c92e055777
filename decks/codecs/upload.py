"""A list sent as a file, read into text for the codecs: the one reader of uploads that the
deck import and the collection import share, so both say the same problem in the same words.

Invariants: a file over the import's byte cap is refused (413) before it is decoded, never cut
short; a file that is not UTF-8 is refused naming the line and column of its first bad byte; an
encoded lone surrogate is decoded as one, so the codecs name it as they name a pasted one.
"""

from __future__ import annotations

from typing import Protocol

from django.utils.translation import gettext_lazy

from decks.codecs.base import DeckImportError, DeckImportTooLarge, ImportLimits, ImportProblem

NOT_UTF8 = gettext_lazy("The file is not UTF-8 text (byte {byte} here); save it as UTF-8, or "
                        "paste its contents.")
BOTH = gettext_lazy("Paste a list or choose a file, not both.")
FILE_TOO_LARGE = gettext_lazy("The file is {size} bytes; an import takes at most {limit} bytes.")


class Upload(Protocol):
    size: int | None

    def read(self, size: int = ...) -> bytes: ...


def decode_upload(data: bytes) -> str:
    """``data`` as text (a UTF-8 byte-order mark dropped); DeckImportError naming the line and
    column of the first byte that is not UTF-8."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        # surrogatepass: an encoded lone surrogate becomes one, which check_size names.
        return data.decode("utf-8", errors="surrogatepass")
    except UnicodeDecodeError as exc:
        start = exc.start
        line_start = data.rfind(b"\n", 0, start) + 1
        before = data[line_start:start].decode("utf-8", errors="replace")
        raise DeckImportError(ImportProblem(
            NOT_UTF8.format(byte=f"0x{data[start]:02X}"), line=data.count(b"\n", 0, start) + 1,
            column=len(before) + 1)) from None


def read_upload(upload: Upload | None, text: str, limits: ImportLimits) -> str:
    """The text to import: the pasted ``text``, or the file's contents when a file was chosen
    (not both); a file over ``limits.max_bytes`` is a DeckImportTooLarge naming its size."""
    if upload is None:
        return text
    if text.strip():
        raise DeckImportError(BOTH)
    data = upload.read(limits.max_bytes + 1)
    size = upload.size if upload.size is not None else len(data)
    if size > limits.max_bytes or len(data) > limits.max_bytes:
        raise DeckImportTooLarge(FILE_TOO_LARGE.format(size=max(size, len(data)),
                                                       limit=limits.max_bytes))
    return decode_upload(data)
