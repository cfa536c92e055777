"""The recursive-descent parser: tokens → AST.

Grammar (``or`` binds loosest, then ``and`` — also written as plain juxtaposition — then
negation)::

    query   := [or_expr] EOF
    or_expr := and_expr ("or" and_expr)*
    and_expr:= unary (["and"] unary)*
    unary   := ("-" | "not") unary | atom
    atom    := "(" or_expr ")" | TERM | WORD

Invariants: ``parse`` returns ``None`` for a blank query (match everything) or a tree of the
frozen nodes below; every node carries the position of its text; every failure is a
``QuerySyntaxError`` (limits on length, nesting and term count keep the database query small
and the recursion shallow).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import pgettext

from cards.query.errors import (
    MSG_DANGLING_NEGATION,
    MSG_EMPTY_PARENS,
    MSG_NO_VALUE,
    MSG_OPERATOR_FIRST,
    MSG_OPERATOR_LAST,
    MSG_TOO_DEEP,
    MSG_TOO_MANY_TERMS,
    MSG_UNCLOSED_PAREN,
    MSG_UNEXPECTED_CLOSE,
    MSG_UNKNOWN_FIELD,
    QuerySyntaxError,
)
from cards.query.fields import ALIASES, FIELD_LIST, Value
from cards.query.tokens import AND, EOF, LPAREN, NOT, OR, RPAREN, TERM, WORD, Token, tokenize

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

MAX_DEPTH = 10
MAX_TERMS = 40


@dataclass(frozen=True)
class Compare:
    """``field op value``; ``values`` holds one value, or several meaning "any of"."""

    field: str
    op: str
    values: tuple[Value, ...]
    pos: int


@dataclass(frozen=True)
class Words:
    """A bare word or a quoted phrase: matches English or Chinese names (or the code)."""

    text: str
    pos: int


@dataclass(frozen=True)
class Not:
    item: Node


@dataclass(frozen=True)
class And:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    items: tuple[Node, ...]


Node = Compare | Words | Not | And | Or


def known_fields() -> str:
    """The fields by their shortest spelling, each with its name in the reader's language
    ("k (card kind), a (attribute)…"; "k (卡牌类型), a (属性)…")."""
    return pgettext("list separator", ", ").join(
        f.aliases[0] if f.aliases[0] == f.doc_noun.lower() else f"{f.aliases[0]} ({f.doc_noun})"
        for f in FIELD_LIST)


class _Parser:
    def __init__(self, query: str, tokens: list[Token]):
        self.query = query
        self.tokens = tokens
        self.i = 0
        self.depth = 0
        self.term_count = 0

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def advance(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def error(self, message: StrOrPromise, token: Token) -> QuerySyntaxError:
        return QuerySyntaxError(message, token.pos, token.text_length, self.query)

    def query_(self) -> Node | None:
        if self.tok.kind == EOF:
            return None
        node = self.or_expr()
        if self.tok.kind == RPAREN:
            raise self.error(MSG_UNEXPECTED_CLOSE, self.tok)
        return node

    def or_expr(self) -> Node:
        items = [self.and_expr()]
        while self.tok.kind == OR:
            op = self.advance()
            if self.tok.kind in (EOF, RPAREN, OR, AND):
                raise self.error(MSG_OPERATOR_LAST.format(word=op.value), op)
            items.append(self.and_expr())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def and_expr(self) -> Node:
        items = [self.unary()]
        while self.tok.kind not in (OR, RPAREN, EOF):
            if self.tok.kind == AND:
                op = self.advance()
                if self.tok.kind in (EOF, RPAREN, OR, AND):
                    raise self.error(MSG_OPERATOR_LAST.format(word=op.value), op)
            items.append(self.unary())
        return items[0] if len(items) == 1 else And(tuple(items))

    def unary(self) -> Node:
        if self.tok.kind == NOT:
            op = self.advance()
            if self.tok.kind in (EOF, RPAREN, OR, AND):
                word = self.query[op.pos:op.end]
                raise self.error(MSG_DANGLING_NEGATION.format(word=word), op)
            return Not(self.unary())
        return self.atom()

    def atom(self) -> Node:
        token = self.tok
        if token.kind == LPAREN:
            return self.group()
        if token.kind == TERM:
            self.advance()
            return self.term(token)
        if token.kind == WORD:
            self.advance()
            self.count_term(token)
            return Words(token.value, token.pos)
        if token.kind == RPAREN:
            raise self.error(MSG_UNEXPECTED_CLOSE, token)
        if token.kind in (OR, AND):
            raise self.error(MSG_OPERATOR_FIRST.format(word=token.value), token)
        # EOF here means an operator or "(" ran out of input; callers catch the common cases.
        raise self.error(MSG_UNCLOSED_PAREN, token)

    def group(self) -> Node:
        opening = self.advance()
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(MSG_TOO_DEEP.format(limit=MAX_DEPTH), opening)
        if self.tok.kind == RPAREN:
            raise QuerySyntaxError(MSG_EMPTY_PARENS, opening.pos,
                                   self.tok.end - opening.pos, self.query)
        if self.tok.kind == EOF:
            raise self.error(MSG_UNCLOSED_PAREN, opening)
        node = self.or_expr()
        if self.tok.kind != RPAREN:
            raise self.error(MSG_UNCLOSED_PAREN, opening)
        self.advance()
        self.depth -= 1
        return node

    def count_term(self, token: Token) -> None:
        self.term_count += 1
        if self.term_count > MAX_TERMS:
            raise self.error(MSG_TOO_MANY_TERMS.format(limit=MAX_TERMS), token)

    def term(self, token: Token) -> Node:
        self.count_term(token)
        spec = ALIASES.get(token.field.lower())
        if spec is None:
            raise QuerySyntaxError(MSG_UNKNOWN_FIELD.format(field=token.field,
                                                            known=known_fields()),
                                   token.pos, len(token.field), self.query)
        op_pos = token.pos + len(token.field)
        spec.check_op(token.field, token.op, op_pos, self.query)
        if token.value == "" and not token.quoted:
            raise QuerySyntaxError(MSG_NO_VALUE.format(field=token.field, op=token.op,
                                                       example=spec.example),
                                   op_pos, len(token.op), self.query)
        value_pos = token.value_pos + (1 if token.quoted else 0)
        values = spec.normalise(token.value, value_pos, self.query)
        node: Node = Compare(spec.name, "=" if token.op in (":", "!=") else token.op,
                             values, token.pos)
        return Not(node) if token.op == "!=" else node


def parse(query: str) -> Node | None:
    """The AST of a query, or ``None`` when it is blank; raises QuerySyntaxError."""
    query = query or ""
    return _Parser(query, tokenize(query)).query_()
