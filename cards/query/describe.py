"""AST → a short English reading of the query, shown above the results ("cards where ...").

It tells the user how the query was understood (``or`` binds looser than juxtaposition), so a
surprising result explains itself.
"""

from __future__ import annotations

from cards.query.parser import And, Compare, Node, Not, Or, Words

OP_WORDS = {"=": "is", "<": "<", "<=": "≤", ">": ">", ">=": "≥"}
TEXT_FIELDS = {"text": "rules text contains", "name": "name contains"}


def _values(values: tuple) -> str:
    shown = [str(v) for v in values]
    return shown[0] if len(shown) == 1 else " or ".join(shown)


def describe(node: Node | None, nested: bool = False) -> str:
    if node is None:
        return "every card"
    if isinstance(node, Words):
        return f"name contains “{node.text}”"
    if isinstance(node, Compare):
        if node.field in TEXT_FIELDS:
            return f"{TEXT_FIELDS[node.field]} “{node.values[0]}”"
        if node.field == "keyword":
            return f"has {_values(node.values)}"
        return f"{node.field} {OP_WORDS[node.op]} {_values(node.values)}"
    if isinstance(node, Not):
        return f"not ({describe(node.item, True)})"
    if isinstance(node, And):
        return " and ".join(describe(item, True) for item in node.items)
    if isinstance(node, Or):
        text = " or ".join(describe(item, True) for item in node.items)
        return f"({text})" if nested else text
    raise AssertionError(f"unknown node {node!r}")
