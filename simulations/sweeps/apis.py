"""The sweep API (mounted at /api/simulations/sweeps/): submit a sweep, read its lines.

Bad input is a 400 naming the field; another user's private sweep is a 404.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api_fields import StrictBooleanField
from common.throttles import SubmitThrottle
from simulations.apis import RunShapeSerializer, _invalid
from simulations.models import Sweep
from simulations.services import SimulationInputError
from simulations.sweeps.services import (
    MAX_VALUE,
    MAX_VALUES,
    SWEEP_FIELDS,
    sweep_get,
    sweep_results,
)
from simulations.sweeps.services import sweep_submit as submit_sweep

BAD_REQUEST = OpenApiResponse(OpenApiTypes.OBJECT,
                              description="Bad input: {field: [what to fix]}.")
NOT_FOUND = OpenApiResponse(OpenApiTypes.OBJECT, description="No such sweep (or not yours).")


class SweepInputSerializer(RunShapeSerializer):
    help_texts: ClassVar[dict[str, str]] = {
        "decks": 'Deck A first: a saved deck\'s id or "starter:<name>".',
        "games": "Per pairing, in every run.",
    }

    public = StrictBooleanField(default=False)
    card = serializers.CharField(max_length=32, help_text="The card whose field is varied.")
    field = serializers.ChoiceField(choices=SWEEP_FIELDS)
    values = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_VALUE), min_length=2,
        max_length=MAX_VALUES, help_text="The values to try, e.g. [2, 3, 4, 5, 6].")


class SweepChangeSerializer(serializers.Serializer[Mapping[str, Any]]):
    change = serializers.FloatField(allow_null=True)
    low = serializers.FloatField()
    high = serializers.FloatField()
    p_value = serializers.FloatField(allow_null=True)
    method = serializers.CharField()


class SweepPointSerializer(serializers.Serializer[Mapping[str, Any]]):
    value = serializers.IntegerField()
    run = serializers.CharField(help_text="The run's id.")
    url = serializers.CharField()
    status = serializers.CharField()
    rate = serializers.FloatField(allow_null=True)
    low = serializers.FloatField()
    high = serializers.FloatField()
    games = serializers.IntegerField()
    pairs = serializers.IntegerField(allow_null=True)
    change = SweepChangeSerializer(allow_null=True, help_text="Paired against the baseline; "
                                                             "null for the baseline itself.")


class SweepLineSerializer(serializers.Serializer[Mapping[str, Any]]):
    # DRF declares fields by class attribute: this one shadows Field.label in the stubs only.
    label = serializers.CharField()  # type: ignore[assignment]
    points = SweepPointSerializer(many=True)


class SweepRunSerializer(serializers.Serializer[Mapping[str, Any]]):
    value = serializers.IntegerField()
    uid = serializers.CharField()
    status = serializers.CharField()
    url = serializers.CharField()


class SweepSerializer(serializers.Serializer[Mapping[str, Any]]):
    uid = serializers.CharField()
    # DRF declares fields by class attribute: this one shadows Field.label in the stubs only.
    label = serializers.CharField()  # type: ignore[assignment]
    kind = serializers.CharField()
    card = serializers.CharField()
    card_name = serializers.CharField()
    field = serializers.CharField()
    values = serializers.ListField(child=serializers.IntegerField())
    baseline_value = serializers.IntegerField(help_text="The card's value now (the baseline).")
    baseline = serializers.CharField(allow_null=True, help_text="The baseline run's id.")
    final = serializers.BooleanField(help_text="False while any run still plays.")
    runs = SweepRunSerializer(many=True)
    lines = SweepLineSerializer(many=True, help_text="Per matchup (a match or gauntlet) or per "
                                                     "deck (a round-robin's field rate).")


class SweepCreateApi(APIView):
    """Submit a sweep: the baseline and one patched run per value, on one seed."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [SubmitThrottle]

    @extend_schema(request=SweepInputSerializer,
                   responses={201: SweepSerializer, 400: BAD_REQUEST})
    def post(self, request: Request) -> Response:
        data = SweepInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            sweep = submit_sweep(user=request.user, kind=v["kind"], deck_specs=v["decks"],
                                 games=v["games"], agent_a=v["agent_a"], agent_b=v["agent_b"],
                                 seed=v.get("seed"), is_public=v["public"], card=v["card"],
                                 field=v["field"], values=v["values"])
        except SimulationInputError as exc:
            raise _invalid(exc) from None
        return Response(SweepSerializer(sweep_results(sweep)).data,
                        status=status.HTTP_201_CREATED)


@extend_schema(parameters=[OpenApiParameter("uid", str, OpenApiParameter.PATH)])
class SweepDetailApi(APIView):
    """A sweep's runs and lines (the points of finished runs; ``final`` once all are done)."""

    @extend_schema(responses={200: SweepSerializer, 404: NOT_FOUND})
    def get(self, request: Request, uid: str) -> Response:
        try:
            sweep = sweep_get(uid=uid, user=request.user)
        except Sweep.DoesNotExist:
            raise Http404("No sweep here.") from None
        return Response(SweepSerializer(sweep_results(sweep)).data)
