"""What the APIs of every kind of job share (``balance.search.apis`` at /api/balance-searches/,
``balance.tuning.apis`` at /api/deck-tunings/): the list and the submission, one job's status
with its progress, cancelling. A kind's API names its kind, its serializers and the service it
submits to.

Views only translate HTTP to services and selectors: bad input is a 400 naming the field,
another user's private job is a 404 naming the kind, cancelling someone else's job is a 403.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from balance.models import BalanceJob
from balance.selectors import job_is_owner, job_progress, jobs_listed
from balance.services import BalanceInputError, job_cancel
from balance.views import job_or_404
from common.throttles import SubmitThrottle
from simulations.serializers import TIME_LEFT_HELP, ListFilterSerializer, TimeLeftSerializer

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise


class JobProgressSerializer(serializers.Serializer[dict[str, Any]]):
    phase = serializers.CharField(help_text="queued, baseline, screening, racing, verifying or "
                                            "done")
    games = serializers.IntegerField(help_text="Search games played so far.")
    budget = serializers.IntegerField(help_text="The search's game budget.")
    percent = serializers.IntegerField()
    evaluations = serializers.IntegerField(help_text="Candidates evaluated so far.")
    best = serializers.JSONField(allow_null=True, help_text="The best candidate so far.")
    seconds_left = serializers.FloatField(
        allow_null=True, help_text="The estimated seconds left, as the job's page says them "
                                   "(time_left's high end; null when time_left is).")
    time_left = TimeLeftSerializer(allow_null=True, help_text=TIME_LEFT_HELP)
    expected = serializers.IntegerField(
        help_text="A meta forecast: about how many games it plays in all, estimated from its "
                  "rounds so far (percent and time_left read against it); 0 for other jobs.")


class JobSerializer(serializers.ModelSerializer[BalanceJob]):
    owner = serializers.CharField(source="owner.get_username", default=None, read_only=True)
    status = serializers.CharField(read_only=True,
                                   help_text="queued, running, done, failed or cancelled")
    progress = serializers.SerializerMethodField()
    url = serializers.CharField(source="get_absolute_url", read_only=True)

    @extend_schema_field(JobProgressSerializer)
    def get_progress(self, job: BalanceJob) -> dict[str, Any]:
        p = job_progress(job)
        return {"phase": p.phase, "games": p.games, "budget": p.budget, "percent": p.percent,
                "evaluations": p.evaluations, "best": p.best, "seconds_left": p.seconds_left,
                "time_left": None if p.time_left is None else p.time_left.as_dict(),
                "expected": p.expected}


def invalid_input(exc: BalanceInputError,
                  field_of: Mapping[str, str] | None = None) -> ValidationError:
    """The service's refusal on the input it names (``field_of``: the request's name of a
    service argument that the request spells otherwise)."""
    return ValidationError({(field_of or {}).get(exc.field, exc.field): [exc.message]})


# What a kind's input serializer gives its service, keyword by keyword.
class JobInputSerializer(serializers.Serializer[dict[str, Any]]):
    def service_arguments(self) -> dict[str, Any]:
        raise NotImplementedError


# The endpoints of one kind of job set what is the kind's: its kind, the 404's and the 403's
# words, its input and output serializers and its service. (Comments, not docstrings: a
# docstring would become every operation's description in the API schema.)
class JobApi(APIView):
    kind: str
    output: type[serializers.Serializer[BalanceJob]]
    not_found: str | StrPromise
    not_owner: str | StrPromise

    def job(self, request: Request, uid: str, *, watched: bool = False) -> BalanceJob:
        return job_or_404(request, uid, kind=self.kind, not_found=self.not_found,
                          watched=watched)


# ``input`` shapes the request for ``service`` (its ``service_arguments``); ``serializer_class``
# is the list's, ``output`` the job's; ``field_of`` names the request's input for a service
# argument spelt otherwise.
class JobListCreateApi(generics.GenericAPIView[BalanceJob]):
    kind: str
    input: type[JobInputSerializer]
    output: type[serializers.Serializer[BalanceJob]]
    service: Callable[..., BalanceJob]
    field_of: Mapping[str, str] = {}
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    queryset = BalanceJob.objects.none()

    def get_throttles(self) -> list[BaseThrottle]:
        return [SubmitThrottle()] if self.request.method == "POST" else []

    def get(self, request: Request) -> Response:
        query = ListFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        jobs = jobs_listed(request.user, mine=query.validated_data["mine"], kind=self.kind)
        page = self.paginate_queryset(jobs)
        return self.get_paginated_response(self.get_serializer(page, many=True).data)

    def post(self, request: Request) -> Response:
        data = self.input(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            job = type(self).service(user=request.user, **data.service_arguments())
        except BalanceInputError as exc:
            raise invalid_input(exc, self.field_of) from None
        return Response(self.output(job).data, status=status.HTTP_201_CREATED)


class JobDetailApi(JobApi):
    permission_classes = [permissions.AllowAny]

    def get(self, request: Request, uid: str) -> Response:
        return Response(self.output(self.job(request, uid, watched=True)).data)


class JobCancelApi(JobApi):
    permission_classes = [permissions.IsAuthenticated]

    def post(self, request: Request, uid: str) -> Response:
        job = self.job(request, uid)
        if not job_is_owner(job=job, user=request.user):
            raise PermissionDenied(self.not_owner)
        try:
            job = job_cancel(job=job)
        except BalanceInputError as exc:
            raise invalid_input(exc) from None
        return Response(self.output(job).data)
