"""The card filters, one definition for the pages and the API (django-filter).

``q`` takes the query language; its form field parses the text, so a malformed query is a
field error (a message on the page, HTTP 400 in the API) and never reaches the database.
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from cards.declared_words import game_choices, game_q, kind_choices, rarity_choices
from cards.models import Attribute, Card, CardSet, Faction, Race, keyword_choices
from cards.ownership import owned_cards_q
from cards.query import QuerySyntaxError, parse, to_q
from cards.query.parser import Node
from cards.selectors import ORDER_CHOICES, card_order

QUERY_HELP = (gettext_lazy('Search with the query language, e.g. k:minion a:fire c<=3 — see '
              '/cards/help/.'))

GAME_HELP = gettext_lazy("A game's code: cardlab (this site's own game) or a game loaded with "
                         "load_formats, e.g. sorcery, duwushi, hota, molong.")
KIND_HELP = gettext_lazy("A card kind: hero, minion, item, or a kind another game declares, "
                         "e.g. avatar, site (see docs/formats.md).")
RARITY_HELP = gettext_lazy("A rarity: N, R, SR, SSR, UR, or a tier another game declares, "
                           "e.g. ordinary, elite (see docs/formats.md).")


class ParsedQuery(str):
    """The query text, carrying its parsed tree (``node``) from clean() to the filter."""

    node: Node | None = None


class QueryValidationError(forms.ValidationError):
    """The form's error for a malformed query, carrying the syntax error (where, for the
    caret under the query)."""

    query_error: QuerySyntaxError


class QueryFormField(forms.CharField):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("strip", False)   # error positions count what the user typed
        super().__init__(*args, **kwargs)

    def clean(self, value: object) -> ParsedQuery:
        text = super().clean(value) or ""
        try:
            node = parse(text)
        except QuerySyntaxError as exc:
            # No ``params``: Django would %-format the message, and it quotes user input.
            error = QueryValidationError(str(exc), code="query_syntax")
            error.query_error = exc
            raise error from exc
        parsed = ParsedQuery(text)
        parsed.node = node
        return parsed


class QueryFilter(django_filters.CharFilter):
    field_class = QueryFormField

    def filter(self, qs: QuerySet[Card], value: object) -> QuerySet[Card]:
        node = getattr(value, "node", None)
        return qs.filter(to_q(node)) if node is not None else qs


class CodesField(django_filters.fields.ModelMultipleChoiceField):
    """Codes from the query string; empty values (``?faction=``) are no filter, as an empty
    select box means on the page."""

    def clean(self, value: list[str] | None) -> QuerySet[Any]:
        return super().clean([v for v in value or [] if v])


@extend_schema_field(OpenApiTypes.STR)
class CodeFilter(django_filters.ModelMultipleChoiceFilter):
    """Any of several factions/races/sets by code: ``?faction=dawn&faction=dusk``."""

    field_class = CodesField


class TermFilter(django_filters.MultipleChoiceFilter):
    """Any of several codes read from the catalogue when asked (kinds, rarity tiers, games:
    the games declare them, so the schema lists no enum and the help text names them)."""


@extend_schema_field({"type": "number", "minimum": 0, "maximum": 999})
class StatFilter(django_filters.NumberFilter):
    """A bound on a card's cost, attack or HP (0-999; the schema says so)."""


def _number(field: str, lookup: str, label: str) -> django_filters.NumberFilter:
    return StatFilter(field_name=field, lookup_expr=lookup, label=label, min_value=0,
                      max_value=999)


class CardFilter(django_filters.FilterSet):
    q = QueryFilter(label="Query", help_text=QUERY_HELP)
    game = TermFilter(choices=game_choices, method="filter_game", label="Game codes",
                      help_text=GAME_HELP)
    kind = TermFilter(choices=kind_choices, label="Card kinds", help_text=KIND_HELP)
    attribute = django_filters.MultipleChoiceFilter(choices=Attribute.choices)
    rarity = TermFilter(choices=rarity_choices, label="Rarities", help_text=RARITY_HELP)
    faction = CodeFilter(field_name="faction__code", to_field_name="code",
                         queryset=Faction.objects.all(), label="Faction codes")
    race = CodeFilter(field_name="race__code", to_field_name="code", queryset=Race.objects.all(),
                      label="Race codes")
    set = CodeFilter(
        field_name="card_set__code", to_field_name="code", queryset=CardSet.objects.all(),
        label="Set codes")
    keyword = django_filters.MultipleChoiceFilter(choices=keyword_choices,
                                                  method="filter_keyword")
    cost_min = _number("cost", "gte", "Cost at least")
    cost_max = _number("cost", "lte", "Cost at most")
    attack_min = _number("attack", "gte", "Attack at least")
    attack_max = _number("attack", "lte", "Attack at most")
    hp_min = _number("hp", "gte", "HP at least")
    hp_max = _number("hp", "lte", "HP at most")
    owned = django_filters.BooleanFilter(
        method="filter_owned", label=gettext_lazy("Only cards I own"),
        help_text=gettext_lazy("Only the cards in your own collection (none when signed out)."))
    order = django_filters.ChoiceFilter(choices=ORDER_CHOICES, method="filter_order",
                                        label="Sort by", empty_label=None)

    class Meta:
        model = Card
        fields: list[str] = []

    def filter_game(self, qs: QuerySet[Card], name: str, value: list[str]) -> QuerySet[Card]:
        return qs.filter(game_q(value)) if value else qs

    def filter_keyword(self, qs: QuerySet[Card], name: str, value: list[str]) -> QuerySet[Card]:
        if not value:
            return qs
        return qs.filter(reduce(or_, (Q(keyword_tags__contains=f"|{v}|") for v in value)))

    def filter_owned(self, qs: QuerySet[Card], name: str, value: bool | None) -> QuerySet[Card]:
        if not value:
            return qs
        return qs.filter(owned_cards_q(getattr(self.request, "user", None)))

    def filter_order(self, qs: QuerySet[Card], name: str, value: str) -> QuerySet[Card]:
        return card_order(qs, value or "code")
