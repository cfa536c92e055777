"""The deck API's players' side (mounted under /api/decks/): tags and the active mark (the
owner's), favourites (anyone signed in, on a deck they can see) and the week's most favoured
public decks. Views translate HTTP to ``decks.sharing.services``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.users import request_user
from common.api_fields import StrictBooleanField, StrictCharField
from decks.apis import get_deck_or_404
from decks.models import Deck
from decks.sharing.services import (
    MAX_TAGS,
    SharingInputError,
    deck_active_set,
    deck_favourite_count,
    deck_favourite_set,
    deck_is_favourite,
    deck_tags_set,
    decks_most_favoured,
)


class TagsSerializer(serializers.Serializer[Mapping[str, Any]]):
    tags = serializers.ListField(child=StrictCharField(max_length=40), max_length=MAX_TAGS,
                                 help_text="Words of 1–30 letters, digits or dashes.")


class DeckTagsApi(APIView):
    """Give your deck exactly these tags."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=TagsSerializer, responses=TagsSerializer)
    def put(self, request: Request, uid: str) -> Response:
        deck = get_deck_or_404(uid, request, edit=True)
        data = TagsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            tags = deck_tags_set(deck=deck, tags=data.validated_data["tags"])
        except SharingInputError as exc:
            raise ValidationError({"tags": [str(exc)]}) from None
        return Response({"tags": tags})


class ActiveSerializer(serializers.Serializer[Mapping[str, Any]]):
    active = StrictBooleanField(help_text="You play this deck now.")


class DeckActiveApi(APIView):
    """Mark your deck as active (one you play now) or not."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ActiveSerializer, responses=ActiveSerializer)
    def put(self, request: Request, uid: str) -> Response:
        deck = get_deck_or_404(uid, request, edit=True)
        data = ActiveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        deck = deck_active_set(deck=deck, active=data.validated_data["active"])
        return Response({"active": deck.active})


class FavouriteSerializer(serializers.Serializer[Mapping[str, Any]]):
    favourite = serializers.BooleanField()
    favourite_count = serializers.IntegerField(allow_null=True,
                                               help_text="Public decks only (else null).")


class DeckFavouriteApi(APIView):
    """Your favourite mark on a deck you can see: PUT adds it, DELETE takes it back."""

    permission_classes = [permissions.IsAuthenticated]

    def _answer(self, request: Request, deck: Deck) -> Response:
        return Response({"favourite": deck_is_favourite(deck=deck, user=request.user),
                         "favourite_count": deck_favourite_count(deck=deck)})

    @extend_schema(request=None, responses=FavouriteSerializer)
    def get(self, request: Request, uid: str) -> Response:
        return self._answer(request, get_deck_or_404(uid, request))

    @extend_schema(request=None, responses=FavouriteSerializer)
    def put(self, request: Request, uid: str) -> Response:
        deck = get_deck_or_404(uid, request)
        deck_favourite_set(deck=deck, user=request_user(request), favourite=True)
        return self._answer(request, deck)

    # DELETE answers the mark's new state (200), as PUT does: the count a client shows.
    @extend_schema(request=None, responses={200: FavouriteSerializer})
    def delete(self, request: Request, uid: str) -> Response:
        deck = get_deck_or_404(uid, request)
        deck_favourite_set(deck=deck, user=request_user(request), favourite=False)
        return self._answer(request, deck)


class FavouredSerializer(serializers.Serializer[Deck]):
    uid = serializers.CharField()
    name = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    favourites_this_week = serializers.IntegerField(source="recent_favourites")


class MostFavouredApi(APIView):
    """Public decks most favoured in the last seven days, most first (at most 10)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=FavouredSerializer(many=True))
    def get(self, request: Request) -> Response:
        # many_init is what ``many=True`` calls: the list serializer, typed for a list.
        return Response(FavouredSerializer.many_init(decks_most_favoured()).data)
