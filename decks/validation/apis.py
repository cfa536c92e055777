"""Deck tools in the API that need no saved deck: validate, import, export, compare, formats.

Import is throttled and capped: a body over ``IMPORT_MAX_BODY`` bytes is refused with 413 before
it is parsed, the text over the codecs' byte and line caps with 413, too many cards with 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.users import request_user
from cards.models import CardSet, Game
from common.api_fields import StrictBooleanField, StrictCharField
from common.language import data_form_names
from common.parsers import check_parsed
from common.throttles import ImportThrottle
from decks.apis import (
    PILES_HELP,
    CountsField,
    DeckDetailOutputSerializer,
    DeckListInputSerializer,
    FormatParamNegotiation,
    ProblemSerializer,
    deck_detail_data,
    get_deck_or_404,
    piles_field,
)
from decks.codecs import CODECS, DeckImportError
from decks.drafts import DEFAULT_FORMAT, Draft
from decks.models import Format
from decks.selectors import (
    deck_counts,
    draft_from_deck,
    format_get,
    formats_active,
    formats_known,
)
from decks.services import DeckInputError, deck_create
from decks.transfer.services import IMPORT_MAX_BODY, body_too_large, draft_export, draft_import
from decks.validation.services import (
    FORMAT_MAX_LENGTH,
    NOT_PARSED,
    Answer,
    Validation,
    ValidationRequest,
    draft_validate,
    plain_json,
    plain_reading,
    validation_catalogue,
    validation_draft,
)
from rules.decks.diffs import compare_counts

SIGN_IN_TO_SAVE = gettext_lazy("Sign in to save decks.")

UNKNOWN_FORMAT = gettext_lazy("There is no format {code!r}; choose one of: {known}.")
UNKNOWN_EXPORT = gettext_lazy("Unknown export format {name!r}; choose one of: {known}.")
TWO_DECKS = gettext_lazy("Give two deck ids: ?a=…&b=…")
FORMAT_CHOICES = ["auto", *CODECS]

# NO_MODEL: these tools read and answer no row of one model; the stubs bind GenericAPIView to
# a model (its serializer_class and queryset), so their views are GenericAPIView[Any].


def _unknown_format(code: str | None, known: str) -> ValidationError:
    return ValidationError({"format": [UNKNOWN_FORMAT.format(code=code, known=known)]})


def _format_or_400(code: str | None) -> Format:
    try:
        return format_get(code)
    except Format.DoesNotExist:
        raise _unknown_format(code, formats_known()) from None


class ValidationOutputSerializer(serializers.Serializer[Mapping[str, Any]]):
    valid = serializers.BooleanField()
    size = serializers.IntegerField(help_text="Cards in the deck (the hero not counted).")
    format = serializers.CharField()
    problems = ProblemSerializer(many=True)


def _validation_output(found: Validation) -> dict[str, Any]:
    return {"valid": found.valid, "size": found.size, "format": found.format.code,
            "problems": [p.as_dict() for p in found.problems]}


def validation_data(draft: Draft, format_code: str | None,
                    generation: str | None = None) -> dict[str, Any]:
    """The validation answer (400 naming the known formats for an unknown one)."""
    try:
        found = draft_validate(draft=draft, format_code=format_code, generation=generation)
    except Format.DoesNotExist:
        _format_or_400(format_code)   # the same 400 as every other door
        raise
    return _validation_output(found)


# What DeckValidateApi answers without DRF's machinery: JSON in UTF-8, for a client that takes
# JSON (no Accept header is */*), with no ?format= choosing a renderer.
PLAIN_CONTENT_TYPES = frozenset({"application/json", "application/json; charset=utf-8",
                                 "application/json;charset=utf-8"})
PLAIN_ACCEPTS = frozenset({"*/*", "application/json"})
_render = JSONRenderer().render


def _parsed_or_not(data: object) -> object:
    """Parsed JSON the API's parser would hand on as it is; ``NOT_PARSED`` for a body it
    refuses (its parser then says why)."""
    if data is NOT_PARSED:
        return data
    try:
        return check_parsed(data)
    except (ParseError, ValidationError):
        return NOT_PARSED


class DeckValidateApi(generics.GenericAPIView[Any]):   # no model: see NO_MODEL
    """Check a deck against a format without saving it: every problem, each with its fix."""

    permission_classes = [permissions.AllowAny]

    class DeckValidateInputSerializer(DeckListInputSerializer):
        cards = CountsField(help_text="{card code: count}")
        format = StrictCharField(max_length=FORMAT_MAX_LENGTH, required=False,
                                 default=DEFAULT_FORMAT,
                                 help_text=f"A format code (default {DEFAULT_FORMAT}).")

    serializer_class = DeckValidateInputSerializer
    asked: ValidationRequest | None = None    # this request's steps, done once (one view a request)

    def _asked(self, request: HttpRequest | Request) -> ValidationRequest:
        if self.asked is None:
            self.asked = ValidationRequest.of(
                body=request.body, content_type=request.META.get("CONTENT_TYPE", ""))
        return self.asked

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        # Most requests are an anonymous client posting a well-formed list as JSON: they are
        # answered here, the same bytes and headers as through DRF, for a fraction of the CPU
        # its request, negotiation, parser and serializer cost. Anything else — signed in
        # (CSRF, a 401), another media type, an error to report — goes through DRF, which
        # reuses what was done here (the hash, the generation, the parsed body).
        answer = self._plain_answer(request) if self._is_plain(request) else None
        if answer is None:
            return super().dispatch(request, *args, **kwargs)
        self.headers = self.default_response_headers
        # DRF finalizes any HttpResponse (it only sets headers); its stubs ask for a Response.
        return self.finalize_response(request, HttpResponse(  # type: ignore[arg-type]
            answer.content, content_type="application/json"))

    @staticmethod
    def _is_plain(request: HttpRequest) -> bool:
        meta = request.META
        return (request.method == "POST" and "HTTP_AUTHORIZATION" not in meta
                and meta.get("CONTENT_TYPE", "").lower() in PLAIN_CONTENT_TYPES
                and meta.get("HTTP_ACCEPT", "*/*") in PLAIN_ACCEPTS
                and "format" not in request.GET and not request.user.is_authenticated)

    def _plain_answer(self, request: HttpRequest) -> Answer | None:
        asked = self._asked(request)
        if asked.kept is not None:
            return asked.kept
        data = plain_json(request.body)
        draft = None if data is NOT_PARSED else plain_reading(data)
        if draft is None:       # the serializer reads it (and says why not), parsed once
            asked.data = _parsed_or_not(data)
            return None
        try:
            found = draft_validate(draft=draft, format_code=draft.format_code,
                                   generation=asked.generation)
        except Format.DoesNotExist:             # DRF's path answers the 400
            asked.unknown_format = draft.format_code
            return None
        return asked.answer(_validation_output(found), _render)

    @extend_schema(responses=ValidationOutputSerializer)
    def post(self, request: Request) -> Response:
        # A body seen before (under this language and catalogue) is answered as it was.
        asked = self._asked(request)
        if asked.kept is None:
            asked.answer(self._validate(request, asked), _render)
        assert asked.kept is not None
        return Response(asked.kept.data)

    def _validate(self, request: Request, asked: ValidationRequest) -> dict[str, Any]:
        if asked.unknown_format is not None:    # a plain body: the serializer reads it alike
            raise self._unknown(asked.unknown_format, asked)
        data = self.DeckValidateInputSerializer(
            data=request.data if asked.data is NOT_PARSED else asked.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        code = values["format"]
        draft = validation_draft(hero=values.get("hero"), cards=values["cards"],
                                 format_code=code, piles=values.get("piles") or {})
        try:
            return _validation_output(draft_validate(draft=draft, format_code=code,
                                                     generation=asked.generation))
        except Format.DoesNotExist:
            raise self._unknown(code, asked) from None

    @staticmethod
    def _unknown(code: str, asked: ValidationRequest) -> ValidationError:
        """The 400 of every door for an unknown format, its list from the kept catalogue."""
        return _unknown_format(code, validation_catalogue(asked.generation).known)


class DraftSerializer(serializers.Serializer[Mapping[str, Any]]):
    name = serializers.CharField()
    hero = serializers.CharField(allow_null=True)
    cards = serializers.DictField(child=serializers.IntegerField())
    format = serializers.CharField()
    piles = piles_field(help_text=PILES_HELP)


class ImportOutputSerializer(ValidationOutputSerializer):
    deck = DraftSerializer()
    # A declared field is taken off the class (DRF's metaclass): it is not Field.source.
    source = serializers.ChoiceField(  # type: ignore[assignment]
        choices=list(CODECS), help_text="Which reader read it.")
    notes = serializers.ListField(child=serializers.CharField())
    saved = DeckDetailOutputSerializer(allow_null=True)


class DeckImportApi(generics.GenericAPIView[Any]):   # no model: see NO_MODEL
    """Read a deck from pasted text (3x Name, Name x3, codes, Chinese or English names), a
    JSON or CSV export, or a deck code. Errors name their line and suggest names. With
    ``save`` (signed in), the deck is also saved as a new private deck of yours."""

    permission_classes = [permissions.AllowAny]
    throttle_classes = [ImportThrottle]
    content_negotiation_class = FormatParamNegotiation

    class DeckImportInputSerializer(serializers.Serializer[Mapping[str, Any]]):
        text = StrictCharField(trim_whitespace=False, max_length=IMPORT_MAX_BODY)
        format = serializers.ChoiceField(choices=FORMAT_CHOICES, default="auto")
        # DRF's metaclass takes declared fields off the class, so this does not shadow the
        # serializer's ``save()``; the stubs see the class body.
        save = StrictBooleanField(default=False)  # type: ignore[assignment]
        deck_format = serializers.CharField(
            required=False, max_length=40,
            help_text="The deck format (a code) of a list that names none; its game decides "
                      "whether hero cards on card lines are the hero or cards of the deck.")

    serializer_class = DeckImportInputSerializer

    @extend_schema(responses={200: ImportOutputSerializer, 201: ImportOutputSerializer})
    def post(self, request: Request) -> Response:
        too_large = body_too_large(request)
        if too_large:
            return Response({"detail": too_large},
                            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
        data = self.DeckImportInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        deck_format = data.validated_data.get("deck_format")
        if deck_format and not Format.objects.filter(code=deck_format).exists():
            raise ValidationError({"deck_format": [UNKNOWN_FORMAT.format(
                code=deck_format, known=formats_known())]})
        try:
            imported = draft_import(data.validated_data["text"],
                                    format_name=data.validated_data["format"],
                                    deck_format=deck_format)
        except DeckImportError as exc:
            return Response({"detail": str(exc.problems[0]),
                             "problems": [p.as_dict() for p in exc.problems]},
                            status=exc.status)
        draft = imported.draft
        out = validation_data(draft, draft.format_code)
        out.update(deck={"name": draft.name, "hero": draft.hero, "cards": dict(draft.cards),
                         "format": draft.format_code,
                         "piles": {k: dict(v) for k, v in draft.piles.items()}},
                   source=imported.source, notes=list(imported.notes), saved=None)
        if not data.validated_data["save"]:
            return Response(out)
        if not request.user.is_authenticated:
            raise ValidationError({"save": [SIGN_IN_TO_SAVE]})
        try:
            deck = deck_create(owner=request_user(request), draft=draft,
                               note=f"Imported ({imported.source})")
        except DeckInputError as exc:
            raise ValidationError(exc.errors) from None
        out["saved"] = deck_detail_data(get_deck_or_404(deck.uid, request), request)
        return Response(out, status=status.HTTP_201_CREATED)


class ExportOutputSerializer(serializers.Serializer[Mapping[str, Any]]):
    format = serializers.CharField()
    filename = serializers.CharField()
    media_type = serializers.CharField()
    content = serializers.CharField()


FORMAT_PARAM = OpenApiParameter("format", str, enum=list(CODECS), default="text",
                                description="text, json, csv or code (a deck code)")


def _export(draft: Draft, name: str) -> Response:
    if name not in CODECS:
        raise ValidationError({"format": [str(UNKNOWN_EXPORT).format(
            name=name[:20], known=", ".join(CODECS))]})
    export = draft_export(draft, name)
    return Response({"format": name, "filename": export.filename,
                     "media_type": export.media_type, "content": export.content})


class DeckExportApi(generics.GenericAPIView[Any]):   # no model: see NO_MODEL
    """A saved deck as text, JSON, CSV or a deck code (the file's content and a safe name)."""

    serializer_class = ExportOutputSerializer
    content_negotiation_class = FormatParamNegotiation

    @extend_schema(parameters=[FORMAT_PARAM, OpenApiParameter("uid", str,
                                                              OpenApiParameter.PATH)])
    def get(self, request: Request, uid: str) -> Response:
        deck = get_deck_or_404(uid, request)
        return _export(draft_from_deck(deck), request.query_params.get("format", "text"))


class CompareOutputSerializer(serializers.Serializer[Mapping[str, Any]]):
    a = serializers.CharField()
    b = serializers.CharField()
    rows = serializers.ListField(child=serializers.DictField())
    shared = serializers.IntegerField()
    only_a = serializers.IntegerField()
    only_b = serializers.IntegerField()


class DeckCompareApi(generics.GenericAPIView[Any]):   # no model: see NO_MODEL
    """Two decks you can see, side by side: counts per card in each."""

    serializer_class = CompareOutputSerializer
    schema_not_found = True        # ?a= and ?b= name decks: 404 when one is not yours to see

    @extend_schema(parameters=[
        OpenApiParameter("a", {"type": "string", "minLength": 1}, required=True),
        OpenApiParameter("b", {"type": "string", "minLength": 1}, required=True)])
    def get(self, request: Request) -> Response:
        uids = [request.query_params.get(k, "") for k in ("a", "b")]
        if not all(uids):
            raise ValidationError({"a": [TWO_DECKS]})
        a, b = (get_deck_or_404(uid, request) for uid in uids)
        result = compare_counts(deck_counts(a), deck_counts(b))
        return Response({"a": a.uid, "b": b.uid, "shared": result.shared,
                         "only_a": result.only_a, "only_b": result.only_b,
                         "rows": [{"code": code, "a": x, "b": y}
                                  for code, x, y in result.rows]})


class ChineseNameField(serializers.CharField):
    """A format's Chinese name, as the API has always given it, from its keyed ``names``."""

    def to_representation(self, value: object) -> str:
        return data_form_names({"names": value})["name_zh"]


class FormatOutputSerializer(serializers.ModelSerializer[Format]):
    name_zh = ChineseNameField(source="names", max_length=80, allow_blank=True, required=False,
                               label=gettext_lazy("Chinese name"))
    copy_limits = serializers.DictField(child=serializers.IntegerField())
    deck_kinds = serializers.ListField(child=serializers.CharField())
    ban_list = serializers.SerializerMethodField()
    legal_sets: serializers.SlugRelatedField[CardSet] = serializers.SlugRelatedField(
        slug_field="code", many=True, read_only=True)
    game: serializers.SlugRelatedField[Game] = serializers.SlugRelatedField(
        slug_field="code", read_only=True, allow_null=True,
        help_text="The game (null: this site's own game).")
    simulated = serializers.BooleanField(read_only=True,
                                         help_text="Whether its decks can be simulated.")
    rules = serializers.JSONField(read_only=True, help_text=(
        "Piles, copy limits and rule references as data (docs/formats.md); empty for a "
        "format described by the fields above."))

    class Meta:
        model = Format
        fields = ["code", "name", "name_zh", "description", "game", "simulated", "hero_count",
                  "deck_min", "deck_max", "deck_kinds", "copy_limits", "ban_list",
                  "legal_sets", "rules"]

    def get_ban_list(self, fmt: Format) -> dict[str, int]:
        return {limit.card.code: limit.limit for limit in fmt.card_limits.all()}


class FormatListApi(generics.ListAPIView[Format]):
    """The formats decks can be built for, with their ban/limited lists."""

    serializer_class = FormatOutputSerializer
    pagination_class = None

    def get_queryset(self) -> QuerySet[Format]:
        return formats_active().select_related("game").prefetch_related(
            "card_limits__card", "legal_sets")
