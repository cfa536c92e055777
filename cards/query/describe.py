"""AST → a short reading of the query in the page's language, shown above the results
("cards where ...").

It tells the user how the query was understood (``or`` binds looser than juxtaposition), so a
surprising result explains itself.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.game_words import game_word
from cards.query.fields import Value
from cards.query.parser import And, Compare, Node, Not, Or, Words
from rules.engine.words import FIELD_WORDS

OP_WORDS = {"=": gettext_lazy("is"), "<": "<", "<=": "≤", ">": ">", ">=": "≥"}
TEXT_FIELDS = {"text": gettext_lazy("rules text contains “{value}”"),
               "name": gettext_lazy("name contains “{value}”")}
# The catalogue's own fields (a card's printed fields are the engine's words).
SITE_FIELDS = {"set": gettext_lazy("set"), "code": gettext_lazy("code"),
               "game": gettext_lazy("game")}
# Fields whose values are engine codes shown as words ("kind is hero", "has shield").
WORD_VALUES = ("kind", "attribute", "keyword")


def field_word(field: str) -> str:
    """A query field as the reading names it ("attack", "攻击力")."""
    if field in FIELD_WORDS:
        return game_word("field", field, prose=True)
    return str(SITE_FIELDS.get(field, field))


def value_word(field: str, value: object) -> str:
    """A value as the reading shows it: kinds, attributes and keywords by name."""
    if field in WORD_VALUES:
        return game_word(field, value, prose=True)
    return str(value)


def _values(field: str, values: tuple[Value, ...]) -> str:
    shown = [value_word(field, v) for v in values]
    return shown[0] if len(shown) == 1 else _(" or ").join(shown)


def describe(node: Node | None, nested: bool = False) -> str:
    if node is None:
        return _("every card")
    if isinstance(node, Words):
        return str(TEXT_FIELDS["name"]).format(value=node.text)
    if isinstance(node, Compare):
        if node.field in TEXT_FIELDS:
            return str(TEXT_FIELDS[node.field]).format(value=node.values[0])
        if node.field == "keyword":
            return _("has {keywords}").format(keywords=_values(node.field, node.values))
        return _("{field} {op} {values}").format(
            field=field_word(node.field), op=OP_WORDS[node.op],
            values=_values(node.field, node.values))
    if isinstance(node, Not):
        return _("not ({term})").format(term=describe(node.item, True))
    if isinstance(node, And):
        return _(" and ").join(describe(item, True) for item in node.items)
    if isinstance(node, Or):
        text = _(" or ").join(describe(item, True) for item in node.items)
        return f"({text})" if nested else text
    raise AssertionError(f"unknown node {node!r}")
