"""The API's request parser: DRF's JSON parser, refusing characters no field can store.

PostgreSQL text and JSONB cannot hold a NUL character, and a lone UTF-16 surrogate (JSON allows
``"\\ud800"``) cannot be encoded as UTF-8 at all. DRF's character fields refuse both, but dict
keys, free-form JSON fields and anything a serializer does not declare reached the database and
failed there with a 500 (or, on SQLite, were stored or reported as something else). Checking the
parsed body once here covers every endpoint, present and future: the answer is a 400 naming the
top-level field (and, inside multi-line text, the line and column) that holds the character.

A body nested deeper than ``MAX_DEPTH`` (lists and objects inside each other) is a 400 too,
whatever its depth: Python's JSON reader recurses once per level and raised ``RecursionError``
(a 500) near a thousand levels, and no field of the API nests more than a few levels.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy
from rest_framework import parsers
from rest_framework.exceptions import ParseError, ValidationError

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

BAD_CHARACTER = gettext_lazy("{where}: {what} cannot be stored; remove it and try again.")
IN_KEY = gettext_lazy("The key {key}")
IN_VALUE = gettext_lazy("Line {line}, column {column}")
NUL = gettext_lazy("a NUL character (\\x00)")
SURROGATE = gettext_lazy("a lone surrogate character (U+{code:04X})")
NON_FIELD = "non_field_errors"
# The deepest bodies the API reads, a patch's abilities, nest about a dozen levels.
MAX_DEPTH = 32
TOO_DEEP = gettext_lazy(
    "The JSON body is nested more than {limit} levels deep (lists and objects inside each "
    "other); no field takes that: send a flatter body."
)


def nesting_depth(value: Any, *, stop: int) -> int:
    """How many lists and objects deep ``value`` nests (0 for a string or number), counted
    without recursion; counting stops at ``stop + 1``."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, Mapping):
            children = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        depth += 1
        if depth > stop:
            return depth
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in children)
    return deepest


def bad_character(text: str) -> tuple[int, StrOrPromise] | None:
    """The index and description of the first NUL or lone surrogate in ``text``, if any."""
    for index, char in enumerate(text):
        if char == "\x00":
            return index, NUL
        if "\ud800" <= char <= "\udfff":
            return index, SURROGATE.format(code=ord(char))
    return None


def line_and_column(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of ``text[index]`` (lines split as ``str.splitlines`` does for
    \\n, \\r\\n and \\r)."""
    before = text[:index].replace("\r\n", "\n").replace("\r", "\n")
    line = before.count("\n") + 1
    return line, index - max(text.rfind("\n", 0, index), text.rfind("\r", 0, index))


def _strings(value: Any) -> Iterator[tuple[str, bool]]:
    """Every string in a parsed body: ``(text, is_a_key)``."""
    if isinstance(value, str):
        yield value, False
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield str(key), True
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _message(text: str, is_key: bool) -> str | None:
    found = bad_character(text)
    if found is None:
        return None
    index, what = found
    if is_key:
        where = IN_KEY.format(key=ascii(text[:40]))
    else:
        line, column = line_and_column(text, index)
        where = IN_VALUE.format(line=line, column=column)
    return BAD_CHARACTER.format(where=where, what=what)


def refuse_bad_characters(data: Any) -> None:
    """Raise a 400 ``ValidationError`` keyed by top-level field if any string (key or value)
    anywhere in ``data`` holds a NUL or a lone surrogate."""
    errors: dict[str, list[str]] = {}
    items = data.items() if isinstance(data, Mapping) else [(NON_FIELD, data)]
    for field, value in items:
        field_name = field if isinstance(field, str) else NON_FIELD
        key_message = _message(field_name, True) if field_name is not NON_FIELD else None
        if key_message:
            errors.setdefault(NON_FIELD, []).append(key_message)
            field_name = NON_FIELD
        for text, is_key in _strings(value):
            message = _message(text, is_key)
            if message:
                errors.setdefault(field_name, []).append(message)
                break
    if errors:
        raise ValidationError(errors)


def check_parsed(data: Any) -> Any:
    """``data``, a body's parsed JSON, if the API takes it: a ``ParseError`` when it nests
    deeper than ``MAX_DEPTH``, a 400 ``ValidationError`` when a string holds a character no
    field can store (a view that parsed a body itself asks this before using it)."""
    if nesting_depth(data, stop=MAX_DEPTH) > MAX_DEPTH:
        raise ParseError(TOO_DEEP.format(limit=MAX_DEPTH))
    refuse_bad_characters(data)
    return data


class JSONParser(parsers.JSONParser):
    def parse(self, stream: IO[Any], media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:   # deeper than the interpreter's stack: surely over MAX_DEPTH
            raise ParseError(TOO_DEEP.format(limit=MAX_DEPTH)) from None
        return check_parsed(data)
