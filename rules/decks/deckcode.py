"""Deck codes: a whole deck in one short, copy-pasteable string (documented in
docs/deck-code.md). Pure, as python-hearthstone's ``deckstrings``: no catalogue, no Django.

In the spirit of Hearthstone's deckstrings: a byte string of unsigned LEB128 varints, encoded
with base64url (no padding). Cards are named by their codes, sorted and front-coded (each code
stores how many leading bytes it shares with the previous one), so a set's ``T-M01``,
``T-M02`` ... cost about four bytes each. A CRC-32 tail catches typos and truncation.

Invariants: ``decode(encode(deck))`` gives back the deck's heroes (in order), counts and format
code (the deck's name is not part of a code); a byte string has exactly one decoding, so a code
is canonical; ``read_code`` raises only ``DeckCodeError`` whatever it is given. A problem is a
code and parameters (``DeckCodeError``); the site says it in the reader's language
(``decks.codecs.deckcode``).
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.decks.legality import Deck

VERSION = 1
PILES_VERSION = 2   # a deck with piles besides its main list (formats in piles)
KNOWN_VERSIONS = (VERSION, PILES_VERSION)
MAX_STRING = 200  # bytes in one code or format name

# The problems a code can have (``DeckCodeError.code``) and their parameters.
NOT_A_CODE = "not_a_code"            # —
SECOND_WORD = "second_word"          # extra: the text after the code (40 characters at most)
BAD_CHARACTER = "bad_character"      # char: the first character outside the alphabet
DAMAGED = "damaged"                  # detail: what is wrong with the bytes (English, technical)
NEWER = "newer"                      # version: the code's; known: the versions read here

_WORD = re.compile(r"^[A-Za-z0-9_-]+=*$")
ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
# The shortest code of a deck with a card is longer than this; a card's code or name is shorter
# than it or has spaces, so one token this long, nearly all of the alphabet, is a code.
CODE_LOOKS_MIN = 16
CODE_MIN = 8    # the code of an empty deck: version, format, heroes, entries, checksum
CODE_LOOKS_SHARE = 0.9


class DeckCodeError(ValueError):
    """A text that is not a readable deck code: a problem code, its parameters, and where (the
    line, and the column when one character is at fault)."""

    def __init__(self, code: str, line: int | None = None, column: int | None = None,
                 **params: Any):
        super().__init__(code, params)
        self.code, self.line, self.column, self.params = code, line, column, params


class _Damaged(Exception):
    pass


@dataclass(frozen=True)
class DecodedCode:
    """A deck code's content, before its card codes are checked against a catalogue."""

    heroes: tuple[str, ...]
    counts: dict[str, int]
    format_code: str | None
    piles: dict[str, dict[str, int]] = field(default_factory=dict)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _string(data: bytes) -> bytes:
    return _varint(len(data)) + data


def _shared(code: bytes, previous: bytes) -> int:
    shared = 0
    while shared < min(len(code), len(previous)) and code[shared] == previous[shared]:
        shared += 1
    return shared


def _entries(counts: Mapping[str, int]) -> bytes:
    entries = sorted((code.encode("utf-8"), count) for code, count in counts.items())
    body = bytearray(_varint(len(entries)))
    previous = b""
    for code, count in entries:
        shared = _shared(code, previous)
        body += _varint(shared) + _string(code[shared:]) + _varint(count)
        previous = code
    return bytes(body)


def encode_deck_code(deck: Deck, *, format_code: str | None = None) -> str:
    """The deck's code: version, format, heroes, front-coded ``(code, count)`` entries, then
    (version 2 only, when the deck has other piles) each pile's name and entries; CRC."""
    piles = sorted((name, counts) for name, counts in deck.piles.items() if counts)
    body = bytearray(_varint(PILES_VERSION if piles else VERSION))
    body += _string((format_code or "").encode("utf-8"))
    body += _varint(len(deck.heroes))
    for hero in deck.heroes:
        body += _string(hero.encode("utf-8"))
    body += _entries(deck.counts)
    if piles:
        body += _varint(len(piles))
        for name, counts in piles:
            body += _string(name.encode("utf-8")) + _entries(counts)
    body += (zlib.crc32(bytes(body)) & 0xFFFF).to_bytes(2, "big")
    return base64.urlsafe_b64encode(bytes(body)).decode("ascii").rstrip("=")


class _Reader:
    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def varint(self, limit: int) -> int:
        value = shift = 0
        while True:
            if self.at >= len(self.data):
                raise _Damaged("it ends too early")
            byte = self.data[self.at]
            self.at += 1
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                break
            shift += 7
            if shift > 28:
                raise _Damaged("a number is too long")
        if value > limit:
            raise _Damaged(f"a number is {value}, above {limit}")
        return value

    def raw(self, length: int) -> bytes:
        if self.at + length > len(self.data):
            raise _Damaged("it ends too early")
        chunk = self.data[self.at:self.at + length]
        self.at += length
        return chunk

    def text(self, data: bytes) -> str:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise _Damaged("a card code is not text") from None


def _code_lines(text: str) -> list[tuple[str, int]]:
    """The lines that are not blank or comments, with their numbers."""
    return [(ln, number) for number, ln in enumerate(text.splitlines(), start=1)
            if ln.strip() and not ln.strip().startswith("#")]


def code_word(text: str) -> tuple[str, int]:
    """The code word and its line number (comment lines around it are allowed); a code with
    a character outside its alphabet, or with more text after it, is refused saying where."""
    lines = _code_lines(text)
    if len(lines) != 1:
        raise DeckCodeError(NOT_A_CODE, line=lines[-1][1] if lines else None)
    raw, line = lines[0]
    indent = len(raw) - len(raw.lstrip())
    word, *rest = raw.split(None, 1)
    if (rest or not _WORD.match(word)) and not _long_code_shaped(word):
        raise DeckCodeError(NOT_A_CODE, line=line)
    if rest:
        column = indent + len(word) + len(raw[indent + len(word):]) - len(rest[0]) + 1
        extra = rest[0].rstrip()
        raise DeckCodeError(SECOND_WORD, line=line, column=column, extra=extra[:40])
    if not _WORD.match(word):
        letters = word.rstrip("=")
        at = next((i for i, ch in enumerate(letters) if ch not in ALPHABET), len(letters))
        raise DeckCodeError(BAD_CHARACTER, line=line, column=indent + at + 1, char=word[at])
    return word.rstrip("="), line


def looks_like_code(text: str) -> bool:
    """Whether the input may be meant as a deck code, decodable or not: one line (with comment
    lines around it) that is one word of a code's alphabet, or starts with a long word nearly
    all of it; either reads as base64 rather than as a name. A code with a stray character or
    a word after it still looks like one, so it gets the deck code's error rather than "no
    card is called …"."""
    lines = _code_lines(text)
    if len(lines) != 1:
        return False
    line = lines[0][0].strip()
    if _WORD.match(line):
        return len(line) >= CODE_MIN and _base64_like(line)
    return _long_code_shaped(line.split(None, 1)[0])


def _long_code_shaped(word: str) -> bool:
    """A word long enough, and nearly enough of a code's alphabet, to be a damaged code: no
    card's code or name (a count like "3x" included) is."""
    word = word.rstrip("=")
    if len(word) < CODE_LOOKS_MIN or not _base64_like(word):
        return False
    return sum(ch in ALPHABET for ch in word) / len(word) >= CODE_LOOKS_SHARE


def _base64_like(word: str) -> bool:
    """Base64 of binary data has digits, '-', '_' or two capitals in a row in all but a tiny
    share of words; names written as one word (Supercalifragilistic, FlameWarden) have not."""
    return any(ch.isdigit() or ch in "-_" for ch in word) or any(
        a.isupper() and b.isupper() for a, b in zip(word, word[1:], strict=False))


def read_code(text: str, max_cards: int) -> DecodedCode:
    """Decode a code into codes and counts (no catalogue needed); ``DeckCodeError`` naming the
    code's line if bad. ``max_cards`` bounds every count the code declares."""
    word, line = code_word(text)
    try:
        data = base64.urlsafe_b64decode(word + "=" * (-len(word) % 4))
    except (binascii.Error, ValueError):
        raise DeckCodeError(DAMAGED, line=line, detail="its length is wrong") from None
    _check_version(data, line)
    if len(data) < 3:
        raise DeckCodeError(DAMAGED, line=line, detail="it is too short")
    body, check = data[:-2], data[-2:]
    if (zlib.crc32(body) & 0xFFFF).to_bytes(2, "big") != check:
        raise DeckCodeError(DAMAGED, line=line, detail="its checksum does not match")
    try:
        return _read_body(_Reader(body), max_cards)
    except _Damaged as exc:
        raise DeckCodeError(DAMAGED, line=line, detail=str(exc)) from None


def _check_version(data: bytes, line: int) -> None:
    """Refuse a code of a version this site does not read, before its checksum or body: a
    later version may lay both out otherwise, so reading on would call it damaged."""
    try:
        version = _Reader(data).varint(1 << 28)
    except _Damaged:
        return               # no version to read: the checks after this say what is wrong
    if version not in KNOWN_VERSIONS:
        raise DeckCodeError(NEWER, line=line, version=version, known=KNOWN_VERSIONS)


def _read_body(reader: _Reader, max_cards: int) -> DecodedCode:
    version = reader.varint(1 << 28)     # one of KNOWN_VERSIONS (_check_version)
    format_code = reader.text(reader.raw(reader.varint(MAX_STRING))) or None
    heroes = tuple(reader.text(reader.raw(reader.varint(MAX_STRING)))
                   for _ in range(reader.varint(max_cards)))
    counts = _read_entries(reader, max_cards)
    piles: dict[str, dict[str, int]] = {}
    if version == PILES_VERSION:
        previous_name = ""
        pile_count = reader.varint(max_cards)
        if pile_count < 1:
            raise _Damaged("it has no piles")
        for _ in range(pile_count):
            name = reader.text(reader.raw(reader.varint(MAX_STRING)))
            if name <= previous_name and piles:
                raise _Damaged("its piles are out of order")
            entries = _read_entries(reader, max_cards)
            if not entries or not name:
                raise _Damaged("a pile is empty")
            piles[name] = entries
            previous_name = name
    if reader.at != len(reader.data):
        raise _Damaged("there are extra bytes at the end")
    return DecodedCode(heroes, counts, format_code, piles)


def _read_entries(reader: _Reader, max_cards: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    previous = b""
    for _ in range(reader.varint(max_cards)):
        shared = reader.varint(len(previous))
        code = previous[:shared] + reader.raw(reader.varint(MAX_STRING))
        if (code <= previous and counts) or _shared(code, previous) != shared:
            # Sorted, each sharing its longest prefix: one deck has exactly one code.
            raise _Damaged("its cards are out of order")
        count = reader.varint(1 << 28)
        if count < 1:
            raise _Damaged("a card has 0 copies")
        counts[reader.text(code)] = count
        previous = code
    return counts
