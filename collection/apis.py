"""The collection API (mounted at /api/collection/): the signed-in user's own counts, one
card's count, import and export as text or CSV, a whole set, a deck's missing cards and the
active decks' shared cards. Every endpoint answers about the requesting user only; nobody's
counts are readable by anyone else. Views translate HTTP to services and selectors."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpResponse
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.users import request_user
from cards.filters import CardFilter
from cards.models import Card
from cards.selectors import card_rows
from collection.models import MAX_COPIES
from collection.selectors import (
    Claim,
    MissingRow,
    active_deck_claims,
    cards_with_owned,
    deck_missing,
)
from collection.services import (
    CollectionInputError,
    collection_card,
    collection_card_set,
    collection_set_add,
)
from collection.transfer import LIST_FORMATS, collection_export, collection_import
from common.api_fields import StrictBooleanField, StrictCharField
from common.throttles import ImportThrottle
from decks.codecs import DeckImportError
from decks.models import Deck
from decks.selectors import NO_DECK, deck_get
from decks.transfer.services import IMPORT_MAX_BODY, body_too_large

LIST_FORMAT = gettext_lazy("Choose text or csv.")
IMPORT_BODY = 4 * IMPORT_MAX_BODY   # a collection's list is longer than a deck's


class OwnedCardSerializer(serializers.Serializer[Card]):   # with its count (owned)
    code = serializers.CharField()
    name_en = serializers.CharField()
    name_zh = serializers.CharField()
    set = serializers.CharField(source="card_set.code")
    count = serializers.IntegerField(source="owned", help_text="Copies you own.")


class CollectionListApi(generics.ListAPIView[Card]):
    """Your collection: every card you own with its count, filtered like the catalogue
    (``q``, ``set``, ``game``…); ``owned=false`` lists every card, with 0 for those you lack."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = OwnedCardSerializer
    filterset_class = CardFilter

    def get_queryset(self) -> QuerySet[Card]:
        if getattr(self, "swagger_fake_view", False):   # the schema, read with no user
            return card_rows().none()
        cards = cards_with_owned(card_rows(), user=request_user(self.request)).order_by("code")
        if self.request.query_params.get("owned", "true").lower() in ("true", "1", "yes"):
            cards = cards.filter(owned__gt=0)
        return cards


class CountInputSerializer(serializers.Serializer[Mapping[str, Any]]):
    count = serializers.IntegerField(min_value=0, max_value=MAX_COPIES,
                                     help_text="Copies you own; 0 removes the card.")


class CountOutputSerializer(serializers.Serializer[Mapping[str, Any]]):
    code = serializers.CharField()
    count = serializers.IntegerField()


def _card_or_404(code: str) -> Card:
    try:
        return collection_card(code)
    except CollectionInputError as exc:
        raise Http404(str(exc)) from None


class CollectionCardApi(APIView):
    """One card of your collection: read it, or set the copies you own (PUT)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=CountOutputSerializer)
    def get(self, request: Request, code: str) -> Response:
        card = _card_or_404(code)
        owned = cards_with_owned(card_rows().filter(pk=card.pk), user=request_user(request)).get()
        return Response({"code": card.code, "count": owned.owned})

    @extend_schema(request=CountInputSerializer, responses=CountOutputSerializer)
    def put(self, request: Request, code: str) -> Response:
        card = _card_or_404(code)
        data = CountInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        count = collection_card_set(user=request_user(request), card=card,
                                    count=data.validated_data["count"])
        return Response({"code": card.code, "count": count})


class ImportInputSerializer(serializers.Serializer[Mapping[str, Any]]):
    # No length of its own: the body's cap (413) bounds it before the JSON is read, and the
    # importer's byte and line caps (413, naming them) are the list's.
    text = StrictCharField(trim_whitespace=False,
                           help_text="A list (3x Ember Pup, names in either language or "
                                     "codes) or CSV with count and code or name columns.")
    format = serializers.ChoiceField(choices=["auto", *LIST_FORMATS], default="auto")
    replace = StrictBooleanField(default=False, help_text="Make the collection exactly "
                                                                "the list (else add to it).")


class CappedSerializer(serializers.Serializer[Mapping[str, Any]]):
    code = serializers.CharField()
    asked = serializers.IntegerField(help_text="The count the card would have had.")
    kept = serializers.IntegerField(help_text=f"The count kept: at most {MAX_COPIES}.")


class CollectionImportOutputSerializer(serializers.Serializer[Mapping[str, Any]]):
    cards = serializers.IntegerField(help_text="Different cards in the list.")
    copies = serializers.IntegerField(
        help_text="Copies put into your collection, as stored (with replace: the copies the "
                  "listed cards now have).")
    changed = serializers.IntegerField(help_text="Cards whose count changed.")
    capped = CappedSerializer(many=True, help_text=(
        f"Cards that would have passed {MAX_COPIES} copies: each keeps {MAX_COPIES}."))


class CollectionImportApi(APIView):
    """Add a list to your collection (the deck importer's reader: every bad line is named,
    with "did you mean" names); nothing is changed unless the whole list reads."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [ImportThrottle]

    @extend_schema(request=ImportInputSerializer, responses=CollectionImportOutputSerializer)
    def post(self, request: Request) -> Response:
        too_large = body_too_large(request, limit=IMPORT_BODY)
        if too_large:
            return Response({"detail": too_large},
                            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        data = ImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            result = collection_import(user=request_user(request), text=data.validated_data["text"],
                                       format_name=data.validated_data["format"],
                                       replace=data.validated_data["replace"])
        except DeckImportError as exc:
            return Response({"detail": str(exc.problems[0]),
                             "problems": [p.as_dict() for p in exc.problems]},
                            status=exc.status)
        return Response({"cards": result.cards, "copies": result.copies,
                         "changed": result.changed,
                         "capped": [c.as_dict() for c in result.capped]})


class CollectionExportApi(APIView):
    """Your collection as a file: ``text`` (re-importable list) or ``csv``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[OpenApiParameter("as", str, enum=list(LIST_FORMATS),
                                                description="text (default) or csv")],
                   responses={(200, "text/plain"): str, (200, "text/csv"): str})
    def get(self, request: Request) -> HttpResponse:
        name = request.query_params.get("as", "text")
        if name not in LIST_FORMATS:
            raise ValidationError({"as": [LIST_FORMAT]})
        listing = collection_export(user=request_user(request), format_name=name)
        return HttpResponse(listing.content, content_type=listing.media_type)


class SetAddInputSerializer(serializers.Serializer[Mapping[str, Any]]):
    copies = serializers.IntegerField(min_value=1, max_value=MAX_COPIES, default=1)


class CollectionSetAddApi(APIView):
    """Add copies of every card of a set to your collection."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=SetAddInputSerializer, responses=CollectionImportOutputSerializer)
    def post(self, request: Request, code: str) -> Response:
        data = SetAddInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            added = collection_set_add(user=request_user(request), set_code=code,
                                       copies=data.validated_data["copies"])
        except CollectionInputError as exc:
            raise Http404(str(exc)) from None
        return Response({"cards": added.cards, "copies": added.stored,
                         "changed": added.changed,
                         "capped": [c.as_dict() for c in added.capped]})


# Given one row, or (many=True) the list of them.
class MissingSerializer(serializers.Serializer[MissingRow | Iterable[MissingRow]]):
    code = serializers.CharField(source="card.code")
    name_en = serializers.CharField(source="card.name_en")
    name_zh = serializers.CharField(source="card.name_zh")
    need = serializers.IntegerField(help_text="Copies the deck needs (every pile, the hero).")
    owned = serializers.IntegerField(help_text="Copies you own.")
    missing = serializers.IntegerField()


class DeckMissingOutputSerializer(serializers.Serializer[Mapping[str, Any]]):
    buildable = serializers.BooleanField()
    missing = MissingSerializer(many=True)


class DeckMissingApi(APIView):
    """The cards of a deck you can see that your collection lacks (your collection only)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=DeckMissingOutputSerializer)
    def get(self, request: Request, uid: str) -> Response:
        try:
            deck = deck_get(uid=uid, user=request_user(request))
        except Deck.DoesNotExist:
            raise Http404(NO_DECK) from None
        rows = deck_missing(deck=deck, user=request_user(request))
        return Response({"buildable": not rows,
                         "missing": MissingSerializer(rows, many=True).data})


# Given one claim, or (many=True) the list of them.
class ClaimSerializer(serializers.Serializer[Claim | Iterable[Claim]]):
    code = serializers.CharField(source="card.code")
    name_en = serializers.CharField(source="card.name_en")
    name_zh = serializers.CharField(source="card.name_zh")
    owned = serializers.IntegerField()
    needed = serializers.IntegerField(help_text="Copies your active decks need together.")
    decks = serializers.SerializerMethodField()

    def get_decks(self, claim: Claim) -> list[dict[str, Any]]:
        return [{"uid": deck.uid, "name": deck.name, "need": n} for deck, n in claim.decks]


class CollectionClaimsApi(APIView):
    """Cards that two or more of your active decks need beyond the copies you own."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ClaimSerializer(many=True))
    def get(self, request: Request) -> HttpResponse:
        claims = active_deck_claims(user=request_user(request))
        return Response(ClaimSerializer(claims, many=True).data)
