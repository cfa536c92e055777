"""The deck API: CRUD, versions, fork (mounted at /api/decks/). Tools that need no saved deck
— validate, import, export, compare, formats — are in ``decks/validation/apis.py``.

Views only translate HTTP to services and selectors: another user's private deck is a 404
(``deck_get``), a visible deck the user does not own is a 403 for writes, and the owner is
always the requesting user, never a field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.users import request_user
from common.api_fields import StrictCharField
from common.language import data_form_names
from decks.codecs import DEFAULT_LIMITS
from decks.drafts import DEFAULT_FORMAT, MAX_COPIES, VISIBILITIES, Draft
from decks.filters import DeckFilter
from decks.models import Deck, DeckVersion
from decks.selectors import (
    NO_DECK,
    deck_get,
    deck_history,
    deck_is_visible,
    deck_view,
    decks_listed,
    draft_from_deck,
)
from decks.services import (
    NO_SUCH_VERSION,
    DeckInputError,
    deck_create,
    deck_delete,
    deck_fork,
    deck_restore,
    deck_save,
)
from decks.sharing.services import decks_with_favourites
from decks.validation.services import (
    FORMAT_MAX_LENGTH,
    HERO_MAX_LENGTH,
    TOO_MANY_DIFFERENT,
    plain_counts,
    too_many_different,
)


class ProblemSerializer(serializers.Serializer[Mapping[str, Any]]):
    code = serializers.CharField(help_text="Stable problem code, e.g. copy_limit.")
    rule = serializers.CharField(help_text="The RULES.md rule it breaks, e.g. R5.3.")
    message = serializers.CharField()
    fix = serializers.CharField(help_text="What to do, e.g. 'remove 1 × Night Wyrm'.")
    cards = serializers.ListField(child=serializers.CharField())


class CardRefSerializer(serializers.Serializer[Mapping[str, Any]]):
    code = serializers.CharField()
    name_en = serializers.CharField()
    name_zh = serializers.CharField()


class EntrySerializer(CardRefSerializer):
    count = serializers.IntegerField()


class DeckOutputSerializer(serializers.Serializer[Deck]):
    uid = serializers.CharField()
    url = serializers.SerializerMethodField()
    name = serializers.CharField()
    description = serializers.CharField()
    owner = serializers.CharField(source="owner.username")
    hero = CardRefSerializer(allow_null=True)
    format = serializers.CharField(source="format.code")
    visibility = serializers.ChoiceField(choices=VISIBILITIES)
    card_count = serializers.IntegerField(allow_null=True)
    forked_from = serializers.SerializerMethodField(
        help_text="The id of the deck this one was forked from, while you may see that deck.")
    tags = serializers.SerializerMethodField(help_text="The deck's tags (filter: ?tag=).")
    favourite_count = serializers.SerializerMethodField(
        help_text="How many users favour the deck: public decks only (else null).")
    active = serializers.SerializerMethodField(
        help_text="Whether you play the deck now: your own decks only (else null).")
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_tags(self, deck: Deck) -> list[str]:
        return sorted(tag.slug for tag in deck.tags.all())

    def get_favourite_count(self, deck: Deck) -> int | None:
        if deck.visibility != "public":
            return None
        count = getattr(deck, "favourite_count", None)
        return count if count is not None else deck.favourites.count()

    def get_active(self, deck: Deck) -> bool | None:
        user = self.context["request"].user
        return deck.active if user.is_authenticated and deck.owner_id == user.pk else None

    def get_url(self, deck: Deck) -> str:
        request: Request = self.context["request"]
        return request.build_absolute_uri(deck.get_absolute_url())

    def get_forked_from(self, deck: Deck) -> str | None:
        source = deck.forked_from
        user = self.context["request"].user
        if source is None:
            return None
        return source.uid if deck_is_visible(deck=source, user=user) else None


PILES_HELP = ("Piles besides the main list, for formats in piles: {pile code: {card code: "
              "count}}, e.g. {\"atlas\": {\"SC-T01\": 4}}.")


class CountsField(serializers.DictField):
    """``{card code: copies}``, each copies a whole number from 1 to MAX_COPIES. A list that is
    plainly valid (whole numbers in range under text keys: what every client sends) is taken in
    one pass; anything else goes through DRF's per-item field, whose errors are the answer.
    Validation reads a deck on every change a client makes, and the per-item path cost more
    than the validation itself (about 10 µs a card)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("child", serializers.IntegerField(min_value=1, max_value=MAX_COPIES))
        super().__init__(**kwargs)

    def to_internal_value(self, data: dict[Any, Any]) -> dict[str, Any]:
        plain = plain_counts(data)
        return plain if plain is not None else super().to_internal_value(data)


def piles_field(**kwargs: Any) -> serializers.DictField:
    return serializers.DictField(child=CountsField(), **kwargs)


class DeckDetailOutputSerializer(DeckOutputSerializer):
    cards = EntrySerializer(many=True)
    piles = piles_field(help_text=PILES_HELP)
    valid = serializers.BooleanField(help_text="Legal in its format.")
    problems = ProblemSerializer(many=True, help_text="Every legality problem, with its fix.")
    version = serializers.IntegerField(allow_null=True, help_text="The latest version number.")


class DeckListInputSerializer(serializers.Serializer[Mapping[str, Any]]):
    """A deck's list as a client sends it — hero, format, cards and piles — read the same way
    wherever it is sent (a deck saved, a list validated), with the same cap on how many
    different cards it names."""

    hero = StrictCharField(max_length=HERO_MAX_LENGTH, required=False, allow_null=True,
                           allow_blank=True, help_text="A hero card's code.")
    format = StrictCharField(max_length=FORMAT_MAX_LENGTH, required=False,
                             help_text=f"A format code (default {DEFAULT_FORMAT}).")
    cards = CountsField(required=False, help_text="{card code: count}")
    piles = piles_field(required=False, help_text=PILES_HELP)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if too_many_different(attrs.get("cards") or {}, attrs.get("piles") or {}):
            raise ValidationError({"cards": [str(TOO_MANY_DIFFERENT).format(
                limit=DEFAULT_LIMITS.max_cards)]})
        return attrs


class DeckInputSerializer(DeckListInputSerializer):
    name = StrictCharField(max_length=100, required=False, allow_blank=True)
    description = StrictCharField(max_length=2000, required=False, allow_blank=True)
    visibility = serializers.ChoiceField(choices=VISIBILITIES, required=False)
    note = StrictCharField(max_length=200, required=False, allow_blank=True,
                           help_text="A note kept with the version.")


def draft_from_input(data: Mapping[str, Any], base: Draft) -> Draft:
    """The base draft with every field the client sent replaced (PATCH merges, PUT/POST start
    from an empty draft)."""
    changes: dict[str, Any] = {key: data[key] for key in ("name", "description", "visibility")
                               if key in data}
    if "hero" in data:
        changes["hero"] = data["hero"] or None
    if "format" in data:
        changes["format_code"] = data["format"]
    if "cards" in data:
        changes["cards"] = dict(data["cards"])
    if "piles" in data:
        changes["piles"] = {k: dict(v) for k, v in data["piles"].items() if v}
    return replace(base, **changes)


def deck_detail_data(deck: Deck, request: Request) -> dict[str, Any]:
    view = deck_view(draft_from_deck(deck), fmt=deck.format)
    data = dict(DeckOutputSerializer(deck, context={"request": request}).data)
    data.update(
        card_count=view.draft.size,
        cards=[{"code": code, **(data_form_names(card) if card else
                                 {"name_en": code, "name_zh": code}), "count": n}
               for card, code, n in view.entries()],
        piles={k: dict(v) for k, v in view.draft.piles.items()},
        valid=view.is_legal, problems=[p.as_dict() for p in view.problems],
        version=deck.versions.order_by("-number").values_list("number", flat=True).first())
    return data


UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The deck's id.")
NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="Version number.")


class _NoFormatOverride:
    URL_FORMAT_OVERRIDE = None


class FormatParamNegotiation(DefaultContentNegotiation):
    """Content negotiation that leaves ``?format=`` alone: the deck API uses it for the deck's
    file format (text, json, csv, code), not for choosing a renderer."""

    # DRF reads only URL_FORMAT_OVERRIDE of its settings here; the stubs want the whole object.
    settings = _NoFormatOverride()  # type: ignore[assignment]


def get_deck_or_404(uid: str, request: Request, *, edit: bool = False) -> Deck:
    try:
        return deck_get(uid=uid, user=request.user, edit=edit)
    except Deck.DoesNotExist:
        raise Http404(NO_DECK) from None


def _input_errors(exc: DeckInputError) -> ValidationError:
    return ValidationError(exc.errors)


class DeckListCreateApi(generics.GenericAPIView[Deck]):
    """Your decks and everyone's public decks (filter by name, hero, attribute, cards); POST
    creates a deck owned by you (version 1)."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = DeckOutputSerializer
    content_negotiation_class = FormatParamNegotiation  # ?format= filters by deck format
    filter_backends = [DjangoFilterBackend]
    filterset_class = DeckFilter

    def get_queryset(self) -> QuerySet[Deck]:
        return decks_with_favourites(decks_listed(self.request.user)).select_related(
            "forked_from").prefetch_related("tags")

    @extend_schema(operation_id="decks_list", responses=DeckOutputSerializer(many=True))
    def get(self, request: Request) -> Response:
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        data = self.get_serializer(page, many=True).data   # its context holds the request
        return self.get_paginated_response(data)

    @extend_schema(request=DeckInputSerializer, responses={201: DeckDetailOutputSerializer})
    def post(self, request: Request) -> Response:
        data = DeckInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        draft = draft_from_input(data.validated_data, Draft())
        try:
            deck = deck_create(owner=request_user(request), draft=draft,
                               note=data.validated_data.get("note") or "Created")
        except DeckInputError as exc:
            raise _input_errors(exc) from None
        deck = get_deck_or_404(deck.uid, request)
        return Response(deck_detail_data(deck, request), status=status.HTTP_201_CREATED)


@extend_schema(parameters=[UID])
class DeckDetailApi(generics.GenericAPIView[Deck]):
    """One deck, with its cards and every legality problem. PUT replaces the content, PATCH
    changes only the fields sent; each content change keeps a new version."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = DeckDetailOutputSerializer

    def get(self, request: Request, uid: str) -> Response:
        return Response(deck_detail_data(get_deck_or_404(uid, request), request))

    def _write(self, request: Request, uid: str, partial: bool) -> Response:
        deck = get_deck_or_404(uid, request, edit=True)
        data = DeckInputSerializer(data=request.data, partial=partial)
        data.is_valid(raise_exception=True)
        base = draft_from_deck(deck) if partial else Draft(visibility=deck.visibility)
        draft = draft_from_input(data.validated_data, base)
        try:
            deck_save(deck=deck, by=request_user(request), draft=draft,
                      note=data.validated_data.get("note", ""))
        except DeckInputError as exc:
            raise _input_errors(exc) from None
        return Response(deck_detail_data(get_deck_or_404(uid, request), request))

    @extend_schema(request=DeckInputSerializer)
    def put(self, request: Request, uid: str) -> Response:
        return self._write(request, uid, partial=False)

    @extend_schema(request=DeckInputSerializer)
    def patch(self, request: Request, uid: str) -> Response:
        return self._write(request, uid, partial=True)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, uid: str) -> Response:
        deck_delete(deck=get_deck_or_404(uid, request, edit=True))
        return Response(status=status.HTTP_204_NO_CONTENT)


class VersionOutputSerializer(serializers.Serializer[DeckVersion]):
    number = serializers.IntegerField()
    name = serializers.CharField()
    hero = serializers.CharField(source="hero_code")
    format = serializers.CharField(source="format_code")
    cards = serializers.DictField(child=serializers.IntegerField())
    piles = piles_field(help_text=PILES_HELP)
    note = serializers.CharField()
    created_by = serializers.CharField(source="created_by.username", allow_null=True,
                                       default=None)
    created_at = serializers.DateTimeField()


class VersionRowSerializer(VersionOutputSerializer):
    changes = serializers.ListField(child=serializers.CharField(),
                                    help_text='What changed from the version before: "+2 X".')
    other = serializers.ListField(child=serializers.CharField())


@extend_schema(parameters=[UID])
class DeckVersionListApi(generics.GenericAPIView[DeckVersion]):
    """Every saved version of a deck, newest first, each with what changed."""

    serializer_class = VersionRowSerializer
    pagination_class = None
    queryset = DeckVersion.objects.none()  # for the schema only; the deck is found by uid

    @extend_schema(operation_id="decks_versions_list",
                   responses=VersionRowSerializer(many=True))
    def get(self, request: Request, uid: str) -> Response:
        deck = get_deck_or_404(uid, request)
        rows = []
        for row in deck_history(deck=deck):
            data = dict(VersionOutputSerializer(row.version).data)
            data.update(changes=[str(c) for c in row.changes], other=row.other)
            rows.append(data)
        return Response(rows)


@extend_schema(parameters=[UID, NUMBER])
class DeckVersionDetailApi(generics.GenericAPIView[DeckVersion]):
    """One saved version of a deck, and what changed from the one before."""

    serializer_class = VersionRowSerializer

    def get(self, request: Request, uid: str, number: int) -> Response:
        deck = get_deck_or_404(uid, request)
        row = next((r for r in deck_history(deck=deck) if r.version.number == number), None)
        if row is None:
            raise Http404(NO_SUCH_VERSION.format(number=number))
        data = dict(VersionOutputSerializer(row.version).data)
        data.update(changes=[str(c) for c in row.changes], other=row.other)
        return Response(data)


@extend_schema(parameters=[UID, NUMBER])
class DeckVersionRestoreApi(generics.GenericAPIView[Deck]):
    """Make an old version the deck's content again, as a new version (nothing is lost)."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = DeckDetailOutputSerializer

    @extend_schema(request=None)
    def post(self, request: Request, uid: str, number: int) -> Response:
        deck = get_deck_or_404(uid, request, edit=True)
        if not deck.versions.filter(number=number).exists():
            raise Http404(NO_SUCH_VERSION.format(number=number))
        try:
            deck_restore(deck=deck, number=number, by=request_user(request))
        except DeckInputError as exc:
            raise _input_errors(exc) from None
        return Response(deck_detail_data(get_deck_or_404(uid, request), request))


@extend_schema(parameters=[UID])
class DeckForkApi(generics.GenericAPIView[Deck]):
    """Copy a deck you can see into a new private deck of yours."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = DeckDetailOutputSerializer

    @extend_schema(request=None, responses={201: DeckDetailOutputSerializer})
    def post(self, request: Request, uid: str) -> Response:
        fork = deck_fork(deck=get_deck_or_404(uid, request), by=request_user(request))
        return Response(deck_detail_data(get_deck_or_404(fork.uid, request), request),
                        status=status.HTTP_201_CREATED)
