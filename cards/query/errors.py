"""The query language's one error type and its messages (tests import the constants)."""

from __future__ import annotations

MSG_TOO_LONG = "The query is too long: at most {limit} characters."
MSG_TOO_DEEP = "Too many nested parentheses: at most {limit} levels."
MSG_TOO_MANY_TERMS = "Too many terms: at most {limit}."
MSG_BAD_CHAR = "Unexpected character {char!r}."
MSG_UNCLOSED_QUOTE = "This quote is never closed: add a closing \"."
MSG_UNCLOSED_PAREN = "This '(' is never closed: add a ')'."
MSG_UNEXPECTED_CLOSE = "This ')' has no matching '('."
MSG_EMPTY_PARENS = "Empty parentheses: put a search term between them."
MSG_DANGLING_NEGATION = "'{word}' must be followed by a term, as in -a:dark."
MSG_OPERATOR_FIRST = "'{word}' needs a term before it, as in r:UR or r:SSR."
MSG_OPERATOR_LAST = "'{word}' needs a term after it, as in r:UR or r:SSR."
MSG_UNKNOWN_FIELD = "Unknown field '{field}'. Known fields: {known}."
MSG_NO_VALUE = "'{field}{op}' needs a value, as in {example}."
MSG_BAD_OPERATOR = "'{field}' cannot be compared with '{op}': use {allowed}."
MSG_BAD_CHOICE = "'{value}' is not a {name}. Choose from: {choices}."
MSG_NOT_NUMBER = "'{value}' is not a whole number; {field} needs one, as in {example}."
MSG_NUMBER_RANGE = "{value} is out of range: {field} is between 0 and {limit}."


class QuerySyntaxError(ValueError):
    """A malformed query: a message and where in the query the problem is (0-based)."""

    def __init__(self, message: str, position: int, length: int = 1, query: str = ""):
        super().__init__(message)
        self.message = message
        self.position = max(0, position)
        self.length = max(1, length)
        self.query = query

    def __str__(self) -> str:
        return f"{self.message} (at position {self.position + 1})"

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

    def as_dict(self) -> dict:
        return {"message": self.message, "position": self.position, "length": self.length}
