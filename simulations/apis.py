"""The simulation API (mounted at /api/simulations/): submit, status and progress, results,
cancel, what-if and kept games.

Views only translate HTTP to services and selectors: bad input is a 400 naming the field,
another user's private run is a 404, cancelling someone else's public run is a 403, and the
owner is always the requesting user.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from django.http import Http404
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.users import request_user
from common.api_fields import StrictBooleanField
from common.throttles import SubmitThrottle
from rules.ai.agents import AGENT_NAMES, DEFAULT_AGENT
from rules.lab.patches import NAME_MAX, PATCH_FIELDS, is_ability_path
from simulations import conf
from simulations.agents.strength import agent_help
from simulations.comparison import compare_runs
from simulations.meta.field import (
    BAD_EPSILON,
    EPSILON_DEFAULT_POINTS,
    EPSILON_MAX_POINTS,
    EpsilonError,
    epsilon_share,
)
from simulations.models import RunKind, SampleGame, SimulationRun
from simulations.results import run_results
from simulations.selectors import run_get, run_is_owner, run_sample, run_samples, runs_listed
from simulations.serializers import (
    ComparisonSerializer,
    ResultsSerializer,
    RunListFilterSerializer,
    RunListSerializer,
    RunSerializer,
    SampleDetailSerializer,
    SampleSerializer,
)
from simulations.services import (
    SimulationInputError,
    simulation_cancel,
    simulation_request,
    simulation_what_if,
)
from work.reaper import reap_soon

NOT_OWNER = gettext_lazy("Only the run's owner can do this; submit a run of your own instead.")
SAME_RUN_TWICE = gettext_lazy("Pick two different runs.")
UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The run's id.")


def get_run_or_404(uid: str, request: Request) -> SimulationRun:
    try:
        return run_get(uid=uid, user=request.user)
    except SimulationRun.DoesNotExist:
        raise Http404("No simulation here.") from None


def _owned(uid: str, request: Request) -> SimulationRun:
    run = get_run_or_404(uid, request)
    if not run_is_owner(run=run, user=request.user):
        raise PermissionDenied(NOT_OWNER)
    return run


def _invalid(exc: SimulationInputError) -> ValidationError:
    return ValidationError({exc.field: [exc.message]})


def run_data(run: SimulationRun, request: Request) -> dict[str, Any]:
    return RunSerializer(run, context={"request": request}).data


PATCH_FIELD_UNKNOWN = gettext_lazy(
    "{field!r} cannot be patched: give one of {fields}, or a path inside the abilities "
    "(abilities.0.effects.0.amount).")


class PatchChangeSerializer(serializers.Serializer[Mapping[str, Any]]):
    card = serializers.CharField(max_length=32, help_text="The card's code, e.g. C005.")
    field = serializers.CharField(
        max_length=200, help_text=f"One of {', '.join(PATCH_FIELDS)}, or a path inside the "
                                  "card's abilities: a whole number (abilities.0.effects.1."
                                  "amount, abilities.0.cost) or, with value null, an ability "
                                  "(abilities.1) or an effect (abilities.0.effects.1) to "
                                  "remove.")
    value = serializers.JSONField(help_text="The new value: a whole number for cost, attack, "
                                            "hp and ability paths; a list for keywords and "
                                            "abilities; null removes.", allow_null=True)

    def validate_field(self, value: str) -> str:
        if value not in PATCH_FIELDS and not is_ability_path(value):
            raise ValidationError(str(PATCH_FIELD_UNKNOWN).format(
                field=value, fields=", ".join(PATCH_FIELDS)))
        return value


class PatchInputSerializer(serializers.Serializer[Mapping[str, Any]]):
    name = serializers.CharField(max_length=NAME_MAX)
    changes = PatchChangeSerializer(many=True, allow_empty=False)


# What every request for runs gives first, in this order (a run, a sweep's runs): the kind, the
# decks, the games per pairing, the two agents and the seed. A request type says its own help for
# a field in ``help_texts``; its own fields follow these. (No docstring: the schema would show it
# as each request's description.)
class RunShapeSerializer(serializers.Serializer[Mapping[str, Any]]):
    help_texts: ClassVar[dict[str, str]] = {}

    kind = serializers.ChoiceField(choices=RunKind.choices, default=RunKind.MATCH)
    decks = serializers.ListField(
        child=serializers.CharField(max_length=120), min_length=2, max_length=conf.MAX_DECKS)
    games = serializers.IntegerField(min_value=2)
    agent_a = serializers.ChoiceField(choices=AGENT_NAMES, default=DEFAULT_AGENT,
                                      help_text=agent_help())
    agent_b = serializers.ChoiceField(choices=AGENT_NAMES, default=DEFAULT_AGENT,
                                      help_text=agent_help())
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        for name, text in self.help_texts.items():
            fields[name].help_text = text
        return fields


class SubmitInputSerializer(RunShapeSerializer):
    help_texts: ClassVar[dict[str, str]] = {
        "decks": 'Deck A first. A saved deck\'s id, or "starter:<name>" for a starter deck.',
        "games": "Per pairing; rounded up to even.",
        "seed": "Default: a random seed (kept on the run).",
    }

    ruleset = serializers.DictField(required=False, help_text="Ruleset options, e.g. "
                                                              '{"hero_advantage": false}.')
    stop_width = serializers.FloatField(required=False, allow_null=True,
                                        help_text="Stop a pairing once its 95 % interval is "
                                                  "narrower than this (e.g. 0.05).")
    public = StrictBooleanField(default=False)
    chunk_size = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="At most this many games per chunk (2–10000): chunks are cut to about a "
                  "second of a worker's time whatever is asked, so this only makes them smaller.")
    patch = PatchInputSerializer(
        required=False, allow_null=True,
        help_text="A balance patch played by every deck on both sides (never written to the "
                  "catalogue); the same shape as a --patch file (docs/patches.md).")


class WhatIfInputSerializer(serializers.Serializer[Mapping[str, Any]]):
    deck = serializers.IntegerField(min_value=0, default=0,
                                    help_text="Which deck of the run (0 = deck A).")
    card_out = serializers.CharField(max_length=32)
    card_in = serializers.CharField(max_length=32)


class CompareInputSerializer(serializers.Serializer[Mapping[str, Any]]):
    before = serializers.CharField(max_length=16, help_text="The run compared against (its id).")
    after = serializers.CharField(max_length=16, help_text="The run whose change is shown.")
    deck = serializers.IntegerField(required=False, allow_null=True, min_value=0,
                                    help_text="Follow this deck (index in the runs' decks); "
                                              "default: deck A of each pairing.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["before"] == attrs["after"]:
            raise ValidationError({"after": [SAME_RUN_TWICE]})
        return attrs


class ResultsQuerySerializer(serializers.Serializer[Mapping[str, Any]]):
    epsilon = serializers.FloatField(
        required=False, default=EPSILON_DEFAULT_POINTS, min_value=0,
        max_value=EPSILON_MAX_POINTS,
        error_messages={key: BAD_EPSILON for key in ("invalid", "min_value", "max_value",
                                                     "max_string_length")},
        help_text="For the meta: the win rate a deck may give up in the ε-equilibrium, in "
                  "points (0.5 = half a point), from 0 to 10 in steps of 0.1.")

    def validate_epsilon(self, value: float) -> float:
        try:
            return epsilon_share(value)
        except EpsilonError as exc:
            raise ValidationError(str(exc)) from None


class DetailSerializer(serializers.Serializer[Mapping[str, Any]]):
    detail = serializers.CharField()


class SimulationCompareApi(APIView):
    """Two runs compared pairing by pairing: game by game (paired difference of the win rate
    with a 95 % interval, exact McNemar p-value, flipped games) when they played the same seeds,
    games and deck roles; otherwise unpaired (Newcombe's method), with the reasons."""

    @extend_schema(parameters=[CompareInputSerializer],
                   responses={200: ComparisonSerializer,
                              400: OpenApiResponse(OpenApiTypes.OBJECT, description=(
                                  "A missing or bad parameter: {field: [what to fix]}.")),
                              404: OpenApiResponse(DetailSerializer,
                                                   description="No such run (or not yours).")})
    def get(self, request: Request) -> Response:
        data = CompareInputSerializer(data=request.query_params)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        before, after = get_run_or_404(v["before"], request), get_run_or_404(v["after"], request)
        return Response(ComparisonSerializer(compare_runs(before, after,
                                                          deck=v.get("deck"))).data)


class SimulationListCreateApi(generics.GenericAPIView[SimulationRun]):
    """Your runs and public runs, newest first (``?deck=<uid>`` for one deck's history,
    ``?mine=1`` for yours only); POST submits a run owned by you."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = RunListSerializer
    queryset = SimulationRun.objects.none()   # for the schema; get() uses the selector

    throttle_classes = [SubmitThrottle]   # counts POST only

    @extend_schema(operation_id="simulations_list", responses=RunListSerializer(many=True),
                   parameters=[RunListFilterSerializer])
    def get(self, request: Request) -> Response:
        query = RunListFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        runs = runs_listed(request.user, deck_uid=query.validated_data.get("deck"),
                           mine=query.validated_data["mine"])
        page = self.paginate_queryset(runs)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    @extend_schema(request=SubmitInputSerializer, responses={201: RunSerializer})
    def post(self, request: Request) -> Response:
        data = SubmitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            run = simulation_request(
                user=request.user, kind=v["kind"], deck_specs=v["decks"], games=v["games"],
                agent_a=v["agent_a"], agent_b=v["agent_b"], seed=v.get("seed"),
                ruleset=v.get("ruleset"), stop_width=v.get("stop_width"),
                is_public=v["public"], chunk_size=v.get("chunk_size"), patch=v.get("patch"))
        except SimulationInputError as exc:
            raise _invalid(exc) from None
        return Response(run_data(run, request), status=status.HTTP_201_CREATED)


@extend_schema(parameters=[UID])
class SimulationDetailApi(APIView):
    """A run: what it plays (frozen), its status and progress."""

    @extend_schema(responses=RunSerializer)
    def get(self, request: Request, uid: str) -> Response:
        run = get_run_or_404(uid, request)
        if run.is_active:
            reap_soon()   # status polls keep the reaper going even with no worker thread
        return Response(run_data(run, request))


@extend_schema(parameters=[UID])
class SimulationResultsApi(APIView):
    """The figures: per pairing, per card, matrix and ranking, the what-if comparison, and for a
    finished round-robin the meta (``?epsilon=`` in points). While the run plays they cover the
    chunks finished so far (``final`` is false)."""

    @extend_schema(parameters=[ResultsQuerySerializer],
                   responses={200: ResultsSerializer,
                              400: OpenApiResponse(OpenApiTypes.OBJECT, description=(
                                  "A bad parameter: {field: [what to fix]}.")),
                              404: OpenApiResponse(DetailSerializer,
                                                   description="No such run (or not yours).")})
    def get(self, request: Request, uid: str) -> Response:
        query = ResultsQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        run = get_run_or_404(uid, request)
        results = run_results(run, epsilon=query.validated_data["epsilon"])
        return Response(ResultsSerializer(results).data)


@extend_schema(parameters=[UID])
class SimulationCancelApi(APIView):
    """Stop a run of yours; the games already finished stay as partial results."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses=RunSerializer)
    def post(self, request: Request, uid: str) -> Response:
        run = _owned(uid, request)
        try:
            run = simulation_cancel(run=run)
        except SimulationInputError as exc:
            raise _invalid(exc) from None
        return Response(run_data(run, request))


@extend_schema(parameters=[UID])
class SimulationWhatIfApi(APIView):
    """Re-run on the same seeds with every copy of one card of one deck swapped for another
    (or its hero for another hero); the new run's results compare themselves with this one."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [SubmitThrottle]

    @extend_schema(request=WhatIfInputSerializer, responses={201: RunSerializer})
    def post(self, request: Request, uid: str) -> Response:
        base = get_run_or_404(uid, request)
        data = WhatIfInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            run = simulation_what_if(base=base, owner=request_user(request), deck_index=v["deck"],
                                     card_out=v["card_out"], card_in=v["card_in"])
        except SimulationInputError as exc:
            raise _invalid(exc) from None
        return Response(run_data(run, request), status=status.HTTP_201_CREATED)


def _numbered(samples: Iterable[SampleGame]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for number, sample in enumerate(samples, start=1):
        sample.number = number
        rows.append(SampleSerializer(sample).data)
    return rows


@extend_schema(parameters=[UID])
class SimulationReplayListApi(APIView):
    """The games kept whole (the first games of each pairing)."""

    @extend_schema(responses=SampleSerializer(many=True))
    def get(self, request: Request, uid: str) -> Response:
        run = get_run_or_404(uid, request)
        return Response(_numbered(run_samples(run)))


@extend_schema(parameters=[UID, OpenApiParameter("number", int, OpenApiParameter.PATH)])
class SimulationReplayDetailApi(APIView):
    """One kept game with its event log (replay it with ``rules.engine.replay``)."""

    @extend_schema(responses=SampleDetailSerializer)
    def get(self, request: Request, uid: str, number: int) -> Response:
        run = get_run_or_404(uid, request)
        try:
            sample = run_sample(run=run, number=number)
        except SampleGame.DoesNotExist:
            raise Http404("No such game.") from None
        sample.number = number
        return Response(SampleDetailSerializer(sample).data)
