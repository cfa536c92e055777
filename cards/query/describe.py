"""AST → a short reading of the query in the page's language, shown above the results
("cards where ...").

It tells the user how the query was understood (``or`` binds looser than juxtaposition), so a
surprising result explains itself.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cards.query.parser import And, Compare, Node, Not, Or, Words
from rules.engine.cards import ATTRIBUTES, KEYWORDS, KINDS

OP_WORDS = {"=": gettext_lazy("is"), "<": "<", "<=": "≤", ">": ">", ">=": "≥"}
TEXT_FIELDS = {"text": gettext_lazy("rules text contains “{value}”"),
               "name": gettext_lazy("name contains “{value}”")}
# Field names as the reading shows them ("kind is hero").
FIELD_WORDS = {"kind": gettext_lazy("kind"), "attribute": gettext_lazy("attribute"),
               "rarity": gettext_lazy("rarity"), "cost": gettext_lazy("cost"),
               "attack": gettext_lazy("attack"), "hp": gettext_lazy("hp"),
               "faction": gettext_lazy("faction"), "race": gettext_lazy("race"),
               "set": gettext_lazy("set"), "code": gettext_lazy("code"),
               "game": gettext_lazy("game")}
# Codes shown as words (the catalogue's own labels): kinds, attributes, keywords.
VALUE_WORDS = {
    **dict(zip(KINDS, (gettext_lazy("hero"), gettext_lazy("minion"), gettext_lazy("item")),
               strict=True)),
    **dict(zip(ATTRIBUTES, (gettext_lazy("fire"), gettext_lazy("grass"), gettext_lazy("water"),
                            gettext_lazy("light"), gettext_lazy("dark")), strict=True)),
    **dict(zip(KEYWORDS, (gettext_lazy("shield"), gettext_lazy("re-act"),
                          gettext_lazy("regenerate")), strict=True)),
}


def _values(field: str, values: tuple) -> str:
    words = VALUE_WORDS if field in ("kind", "attribute", "keyword") else {}
    shown = [str(words.get(v, v)) for v in values]
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
            field=FIELD_WORDS.get(node.field, node.field), op=OP_WORDS[node.op],
            values=_values(node.field, node.values))
    if isinstance(node, Not):
        return _("not ({term})").format(term=describe(node.item, True))
    if isinstance(node, And):
        return _(" and ").join(describe(item, True) for item in node.items)
    if isinstance(node, Or):
        text = _(" or ").join(describe(item, True) for item in node.items)
        return f"({text})" if nested else text
    raise AssertionError(f"unknown node {node!r}")
