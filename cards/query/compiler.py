"""AST → Django ``Q`` over ``cards.Card``.

Invariants: the result is one ``Q`` (a single SQL query, whatever the size of the catalogue);
negation keeps cards whose field is empty (``-a:dark`` includes items, which have no
attribute), as a reader would expect; every lookup is one that SQLite and PostgreSQL run alike.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import reduce
from operator import and_, or_

from django.db.models import Q

from cards.declared_words import game_q, rarity_order_q
from cards.query.parser import And, Compare, Node, Not, Or, Words
from common.language import text_in_any_language
from rules.engine.cards import RARITIES

NUMBER_LOOKUPS = {"=": "exact", "<": "lt", "<=": "lte", ">": "gt", ">=": "gte"}
RANK = {code: i for i, code in enumerate(RARITIES)}
RARITY_TESTS: dict[str, Callable[[int, int], bool]] = {
    "=": operator.eq, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}
REF_PATHS = {"faction": "faction", "race": "race", "set": "card_set"}
PREFIX_NAMES = {"faction", "race"}   # names of a word or two, typed short; sets by code


def _any(qs: list[Q]) -> Q:
    return reduce(or_, qs)


def _compare(node: Compare) -> Q:
    name = node.field
    values = node.values
    if name in ("kind", "attribute"):
        return Q(**{f"{name}__in": values})
    if name == "game":
        return game_q([str(v) for v in values])   # codes: the game field reads no numbers
    if name == "rarity":
        test = RARITY_TESTS[node.op]
        wanted = [r for r in RARITIES if any(test(RANK[r], RANK[v]) for v in values if v in RANK)]
        q = Q(rarity__in=wanted)
        for value in values:   # another game's tier: compared in its own game's order
            if value not in RANK:
                q |= Q(rarity=value) if node.op == "=" else rarity_order_q(test, str(value))
        return q
    if name in ("cost", "attack", "hp"):
        return Q(**{f"{name}__{NUMBER_LOOKUPS[node.op]}": values[0]})
    if name == "keyword":
        return _any([Q(keyword_tags__contains=f"|{v}|") for v in values])
    if name in REF_PATHS:
        path = REF_PATHS[name]
        value = values[0]
        found = (Q(**{f"{path}__code__iexact": value})
                 | text_in_any_language(str(value), path=f"{path}__", lookup="iexact"))
        if name in PREFIX_NAMES:   # "race:龙" finds 龙族, "f:晨曦" 晨曦圣团: as people type them
            found |= text_in_any_language(str(value), path=f"{path}__", lookup="istartswith")
        return found
    if name == "text":
        return text_in_any_language(str(values[0]), "text")
    if name == "name":
        return text_in_any_language(str(values[0]))
    if name == "code":
        return Q(code__iexact=values[0])
    raise AssertionError(f"no compiler for field {name!r}")  # the registry and this agree


def to_q(node: Node | None) -> Q:
    """The filter for an AST (``Q()`` — everything — for ``None``)."""
    if node is None:
        return Q()
    if isinstance(node, Compare):
        return _compare(node)
    if isinstance(node, Words):
        return text_in_any_language(node.text) | Q(code__iexact=node.text)
    if isinstance(node, Not):
        return ~to_q(node.item)
    if isinstance(node, And):
        return reduce(and_, (to_q(item) for item in node.items))
    if isinstance(node, Or):
        return reduce(or_, (to_q(item) for item in node.items))
    raise AssertionError(f"unknown node {node!r}")
