"""The tokenizer: query text → a list of tokens, each with its position in the text.

Invariants: every character of the query is either skipped (whitespace) or part of exactly one
token; the list always ends with one ``EOF`` token; a problem raises ``QuerySyntaxError``
pointing at the offending characters. ``or``, ``and`` and ``not`` are operators only as whole
bare words (quote them to search for the word).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cards.query.errors import (
    MSG_BAD_CHAR,
    MSG_DANGLING_NEGATION,
    MSG_TOO_LONG,
    MSG_UNCLOSED_QUOTE,
    QuerySyntaxError,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_LENGTH = 500

LPAREN, RPAREN, OR, AND, NOT, TERM, WORD, EOF = (
    "LPAREN", "RPAREN", "OR", "AND", "NOT", "TERM", "WORD", "EOF")
OPERATOR_WORDS = {"or": OR, "and": AND, "not": NOT}

# A field name then a comparison operator: `c<=`, `a:`, `kw=`. Longest operators first.
FIELD_OP = re.compile(r"([A-Za-z_]+)(<=|>=|!=|:|=|<|>)")
# Characters that end a bare word or an unquoted value.
STOP = set("()\"")


@dataclass(frozen=True)
class Token:
    kind: str
    pos: int
    end: int
    value: str = ""          # WORD: the text; TERM: the value
    field: str = ""          # TERM only
    op: str = ""             # TERM only
    value_pos: int = 0       # TERM only: where the value starts
    quoted: bool = False

    @property
    def text_length(self) -> int:
        return max(1, self.end - self.pos)


def _check_characters(query: str) -> None:
    for i, char in enumerate(query):
        if char in "\t\n\r":
            continue
        if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn"):
            raise QuerySyntaxError(MSG_BAD_CHAR.format(char=char), i, 1, query)


class _Scanner:
    def __init__(self, query: str):
        self.query = query
        self.i = 0
        self.tokens: list[Token] = []

    def error(self, message: StrOrPromise, pos: int, length: int = 1) -> QuerySyntaxError:
        return QuerySyntaxError(message, pos, length, self.query)

    def run(self) -> list[Token]:
        q = self.query
        while self.i < len(q):
            char = q[self.i]
            if char.isspace():
                self.i += 1
            elif char == "(":
                self.emit(LPAREN, self.i, self.i + 1)
            elif char == ")":
                self.emit(RPAREN, self.i, self.i + 1)
            elif char == "-":
                self.negation()
            elif char == '"':
                start = self.i
                text, end = self.quoted(start)
                self.tokens.append(Token(WORD, start, end, value=text, quoted=True))
                self.i = end
            else:
                self.word_or_term()
        self.tokens.append(Token(EOF, len(q), len(q)))
        return self.tokens

    def emit(self, kind: str, start: int, end: int) -> None:
        self.tokens.append(Token(kind, start, end))
        self.i = end

    def negation(self) -> None:
        nxt = self.query[self.i + 1 : self.i + 2]
        if not nxt or nxt.isspace() or nxt == ")":
            raise self.error(MSG_DANGLING_NEGATION.format(word="-"), self.i)
        self.emit(NOT, self.i, self.i + 1)

    def quoted(self, start: int) -> tuple[str, int]:
        """The text of a "quoted string" starting at ``start`` (\\" and \\\\ escape)."""
        out: list[str] = []
        i = start + 1
        q = self.query
        while i < len(q):
            char = q[i]
            if char == "\\" and i + 1 < len(q) and q[i + 1] in '"\\':
                out.append(q[i + 1])
                i += 2
            elif char == '"':
                return "".join(out), i + 1
            else:
                out.append(char)
                i += 1
        raise self.error(MSG_UNCLOSED_QUOTE, start)

    def bare(self, start: int) -> int:
        """The end of an unquoted word or value starting at ``start``."""
        i = start
        q = self.query
        while i < len(q) and not q[i].isspace() and q[i] not in STOP:
            i += 1
        return i

    def word_or_term(self) -> None:
        start = self.i
        match = FIELD_OP.match(self.query, start)
        if match:
            value_pos = match.end()
            if self.query[value_pos : value_pos + 1] == '"':
                value, end = self.quoted(value_pos)
                quoted = True
            else:
                end = self.bare(value_pos)
                value, quoted = self.query[value_pos:end], False
            self.tokens.append(Token(TERM, start, end, value=value, field=match.group(1),
                                     op=match.group(2), value_pos=value_pos, quoted=quoted))
            self.i = end
            return
        end = self.bare(start)
        text = self.query[start:end]
        kind = OPERATOR_WORDS.get(text.lower(), WORD)
        self.tokens.append(Token(kind, start, end, value=text))
        self.i = end


def tokenize(query: str) -> list[Token]:
    """Split a query into tokens; raises QuerySyntaxError on a malformed one."""
    if len(query) > MAX_LENGTH:
        raise QuerySyntaxError(MSG_TOO_LONG.format(limit=MAX_LENGTH), MAX_LENGTH,
                               len(query) - MAX_LENGTH, query)
    _check_characters(query)
    return _Scanner(query).run()
