"""The query language's one error type and its messages (tests import the constants)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

AT_POSITION = gettext_lazy("{message} (at position {position})")
MSG_TOO_LONG = gettext_lazy("The query is too long: at most {limit} characters.")
MSG_TOO_DEEP = gettext_lazy("Too many nested parentheses: at most {limit} levels.")
MSG_TOO_MANY_TERMS = gettext_lazy("Too many terms: at most {limit}.")
MSG_BAD_CHAR = gettext_lazy("Unexpected character {char!r}.")
MSG_UNCLOSED_QUOTE = gettext_lazy("This quote is never closed: add a closing \".")
MSG_UNCLOSED_PAREN = gettext_lazy("This '(' is never closed: add a ')'.")
MSG_UNEXPECTED_CLOSE = gettext_lazy("This ')' has no matching '('.")
MSG_EMPTY_PARENS = gettext_lazy("Empty parentheses: put a search term between them.")
MSG_DANGLING_NEGATION = gettext_lazy("'{word}' must be followed by a term, as in -a:dark.")
MSG_OPERATOR_FIRST = gettext_lazy("'{word}' needs a term before it, as in r:UR or r:SSR.")
MSG_OPERATOR_LAST = gettext_lazy("'{word}' needs a term after it, as in r:UR or r:SSR.")
MSG_UNKNOWN_FIELD = gettext_lazy("Unknown field '{field}'. Known fields: {known}.")
MSG_NO_VALUE = gettext_lazy("'{field}{op}' needs a value, as in {example}.")
MSG_BAD_OPERATOR = gettext_lazy("'{field}' cannot be compared with '{op}': use {allowed}.")
MSG_BAD_CHOICE = gettext_lazy("'{value}' is not a valid {name}. Choose from: {choices}.")
MSG_NOT_NUMBER = gettext_lazy(
    "'{value}' is not a whole number; {field} needs one, as in {example}."
)
MSG_NUMBER_RANGE = gettext_lazy("{value} is out of range: {field} is between 0 and {limit}.")


class QuerySyntaxError(ValueError):
    """A malformed query: a message and where in the query the problem is (0-based)."""

    def __init__(self, message: StrOrPromise, position: int, length: int = 1, query: str = ""):
        super().__init__(str(message))
        self.message = str(message)   # a lazy message, fixed in the request's language
        self.position = max(0, position)
        self.length = max(1, length)
        self.query = query

    def __str__(self) -> str:
        return AT_POSITION.format(message=self.message, position=self.position + 1)

    @property
    def before(self) -> str:
        return self.query[: self.position]

    @property
    def at(self) -> str:
        return self.query[self.position : self.position + self.length]

    @property
    def after(self) -> str:
        return self.query[self.position + self.length :]

    def pointer(self) -> str:
        """The query with a caret line under the problem (for plain-text displays)."""
        return f"{self.query}\n{' ' * self.position}{'^' * self.length}"

    def as_dict(self) -> dict[str, Any]:
        return {"message": self.message, "position": self.position, "length": self.length}
