"""The card API: ``/api/cards/`` (list, with the pages' filters and ``?q=``) and
``/api/cards/<code>/`` (detail). Read-only; designers edit cards in the admin."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import quote

from django.db.models import QuerySet
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination

from cards.card_stats import CardTotals, StatsFilter, card_stats
from cards.filters import CardFilter
from cards.models import Card, Faction, Race
from cards.selectors import card_rows
from common.language import data_form_names
from rules.lab.intervals import RATE_METHODS

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView


class NamedSerializer(serializers.Serializer[Faction | Race]):
    code = serializers.CharField()
    name_en = serializers.CharField()
    name_zh = serializers.CharField()


PAGE_SIZE_RANGE = gettext_lazy(
    "A whole number of 1 or more (a page holds at most {most} cards; a larger size gives "
    "{most})."
)


class CardPagination(PageNumberPagination):
    """Pages of cards; ``?page_size=`` above 200 gives pages of 200 (what the client asks for is
    "as many as you give"), and one that is not a whole number of 1 or more is a 400 naming
    it, where DRF would quietly use the default size."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        significant = raw.lstrip("0") if raw.isascii() and raw.isdigit() else ""
        if not significant:
            raise ValidationError({self.page_size_query_param: [
                PAGE_SIZE_RANGE.format(most=self.max_page_size)]})
        # Over nine digits is above any page size: keep int() away from huge numbers.
        return min(int(significant[:10]), self.max_page_size)

    def get_schema_operation_parameters(self, view: APIView) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update(minimum=1)
                parameter["description"] = (f"Cards a page holds, at most {self.max_page_size} "
                                            "(a larger size gives that many).")
        return parameters


@lru_cache(maxsize=4)
def _url_pattern(name: str) -> str:
    # One reverse() per URL name, not two per card: reversing is the costliest step of a list.
    return reverse(name, args=["__CODE__"])


def _named(obj: Faction | Race | None) -> dict[str, str] | None:
    return None if obj is None else {"code": obj.code, **data_form_names(obj)}


class CardOutputSerializer(serializers.ModelSerializer[Card]):
    """One card. The fields below describe the output (and the OpenAPI schema);
    ``to_representation`` builds the same dict directly, several times faster than DRF's
    field-by-field walk, which dominated the list's latency."""

    set = serializers.CharField(source="card_set.code")
    faction = NamedSerializer(allow_null=True)
    race = NamedSerializer(allow_null=True)
    keywords = serializers.ListField(child=serializers.CharField())
    abilities = serializers.ListField(child=serializers.DictField(),
                                      help_text="Abilities in the effect vocabulary "
                                                "(see /cards/vocabulary/).")
    # The public API names a card in English and Chinese (its contract since the first
    # version), read from the keyed ``names``.
    name_en = serializers.CharField(max_length=120, label=gettext_lazy("English name"))
    name_zh = serializers.CharField(max_length=120, label=gettext_lazy("Chinese name"))
    # and its generated rules text likewise, read from the keyed ``texts``.
    text_en = serializers.CharField(read_only=True, label=capfirst(gettext_lazy("rules text (EN)")))
    text_zh = serializers.CharField(read_only=True, label=capfirst(gettext_lazy("rules text (ZH)")))
    url = serializers.SerializerMethodField()
    image_url = serializers.SerializerMethodField()

    class Meta:
        model = Card
        fields = ["code", "kind", "name_en", "name_zh", "rarity", "cost", "attack", "hp",
                  "attribute", "set", "faction", "race", "keywords", "abilities", "text_en",
                  "text_zh", "url", "image_url", "updated_at"]

    def get_url(self, card: Card) -> str:
        return self._absolute("cards:detail", card.code)

    def get_image_url(self, card: Card) -> str:
        return self._absolute("cards:image", card.code)

    def _absolute(self, name: str, code: str) -> str:
        # The site's root, worked out once per response and kept in the context: the dict the
        # view passed, shared by every row (the stubs type it as a read-only Mapping).
        context = cast(dict[str, Any], self.context)
        base: str | None = context.get("_base")
        if base is None:
            base = context["_base"] = context["request"].build_absolute_uri("/")[:-1]
        return base + _url_pattern(name).replace("__CODE__", quote(code, safe=""))

    def to_representation(self, card: Card) -> dict[str, Any]:
        return {
            "code": card.code, "kind": card.kind, **data_form_names(card),
            "rarity": card.rarity, "cost": card.cost,
            "attack": card.attack, "hp": card.hp, "attribute": card.attribute,
            "set": card.card_set.code, "faction": _named(card.faction),
            "race": _named(card.race), "keywords": list(card.keywords or []),
            "abilities": card.abilities or [], **data_form_names(card, "text"),
            "url": self.get_url(card),
            "image_url": self.get_image_url(card),
            "updated_at": serializers.DateTimeField().to_representation(card.updated_at),
        }


class ConditionRateSerializer(serializers.Serializer[Mapping[str, Any]]):
    games = serializers.IntegerField(help_text="Games in which it happened to the card.")
    wins = serializers.IntegerField(help_text="Of those, games its deck won.")
    rate = serializers.FloatField(allow_null=True, help_text="wins / games (draws count as "
                                                             "not won); null with no games.")
    low = serializers.FloatField()
    high = serializers.FloatField()
    pairs = serializers.IntegerField(allow_null=True, help_text="Seat-swapped pairs (clusters) "
                                                               "the interval is computed on.")
    method = serializers.ChoiceField(choices=RATE_METHODS, help_text='"pairs", or "games" for '
                                     "totals recorded before pairs were kept.")


class CardRatesSerializer(serializers.Serializer[Mapping[str, Any]]):
    drawn = ConditionRateSerializer()
    opening = ConditionRateSerializer(help_text="In the hand kept after the mulligan.")
    played = ConditionRateSerializer()
    awakened = ConditionRateSerializer()


class CardStatsOutputSerializer(serializers.Serializer[CardTotals]):
    games_played_in = serializers.IntegerField()
    times_played = serializers.IntegerField()
    times_awakened = serializers.IntegerField()
    times_drawn = serializers.IntegerField()
    wins_when_played = serializers.IntegerField()
    win_rate_when_played = serializers.FloatField(allow_null=True)
    when = CardRatesSerializer(help_text="Its deck's win rate in the games where the card was "
                                         "drawn, in the opening hand, played, awakened, with "
                                         "95 % intervals on seat-swapped pairs.")
    updated_at = serializers.DateTimeField()


class CardDetailOutputSerializer(CardOutputSerializer):
    stats = serializers.SerializerMethodField()

    class Meta(CardOutputSerializer.Meta):
        fields = [*CardOutputSerializer.Meta.fields, "stats"]

    @extend_schema_field(CardStatsOutputSerializer(allow_null=True))
    def get_stats(self, card: Card) -> dict[str, Any] | None:
        only = self.context.get("stats_filter") or StatsFilter()
        stats = card_stats(card=card, only=only)
        return CardStatsOutputSerializer(stats).data if stats else None

    def to_representation(self, card: Card) -> dict[str, Any]:
        return {**super().to_representation(card), "stats": self.get_stats(card)}


STATS_PARAMETERS = [
    OpenApiParameter("agent", str, description="Only games played by this agent (the agent "
                                               "of the card's deck)."),
    OpenApiParameter("ruleset", str, description='Only games under these rules: "standard", '
                                                 "or a ruleset key from the card page."),
    OpenApiParameter("version", str, description="Only games played with this card-data "
                                                 "version (a run's card_data_version)."),
]


class CardListApi(generics.ListAPIView[Card]):
    """Cards, filtered like the catalogue pages; ``q`` takes the query language
    (``k:minion a:fire c<=3``). A malformed query is a 400 whose message gives the position."""

    serializer_class = CardOutputSerializer
    filter_backends = [DjangoFilterBackend]
    filterset_class = CardFilter
    pagination_class = CardPagination

    def get_queryset(self) -> QuerySet[Card]:
        return card_rows().order_by("code")


@extend_schema(parameters=STATS_PARAMETERS)
class CardDetailApi(generics.RetrieveAPIView[Card]):
    """One card by its code, with its simulated figures (``stats`` is null before any run, or
    when no game matches ``?agent=``, ``?ruleset=`` and ``?version=``)."""

    serializer_class = CardDetailOutputSerializer
    lookup_field = "code"

    def get_queryset(self) -> QuerySet[Card]:
        return card_rows()

    def get_serializer_context(self) -> dict[str, Any]:
        params = self.request.query_params
        return {**super().get_serializer_context(), "stats_filter": StatsFilter(
            agent=params.get("agent") or None, ruleset=params.get("ruleset") or None,
            card_data_version=params.get("version") or None)}
