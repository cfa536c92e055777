"""The catalogue's query language: ``k:minion a:fire c<=3``, ``r:UR or r:SSR``, ``-a:dark``,
``kw:shield race:dragon``, ``o:"draw"``, bare words for names, parentheses to group.

A hand-written tokenizer (``tokens``) and recursive-descent parser (``parser``) turn the text
into a small AST; ``compiler`` turns the AST into a Django ``Q``; ``describe`` reads it back in
words. Every malformed query raises ``QuerySyntaxError`` with the position of the problem; no
other exception escapes ``parse`` (a hypothesis test holds it to that).
"""

from cards.query.compiler import to_q
from cards.query.describe import describe
from cards.query.errors import QuerySyntaxError
from cards.query.fields import FIELDS
from cards.query.parser import parse

__all__ = ["FIELDS", "QuerySyntaxError", "describe", "parse", "to_q"]
