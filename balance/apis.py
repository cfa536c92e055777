"""The balance search API (mounted at /api/balance-searches/): submit, list, status with
progress and results, cancel, and a front candidate opened as a round-robin run.

Views only translate HTTP to services and selectors: bad input is a 400 naming the field,
another user's private search is a 404, cancelling someone else's search is a 403.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from balance.models import BalanceJob
from balance.reaper import reap_soon
from balance.selectors import job_get, job_is_owner, job_progress, jobs_listed
from balance.services import (
    BalanceInputError,
    balance_candidate_run,
    balance_job_cancel,
    balance_job_request,
)
from rules.agents import AGENT_NAMES, DEFAULT_AGENT
from rules.balance_search.space import FIELDS
from simulations.apis import SubmitThrottle
from simulations.serializers import ListFilterSerializer
from simulations.strength import agent_help

NOT_OWNER = gettext_lazy("Only the search's owner can do this.")
NO_SEARCH = gettext_lazy("No balance search here.")
UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The search's id.")


class SearchInputSerializer(serializers.Serializer):
    decks = serializers.ListField(
        child=serializers.CharField(max_length=120), min_length=2, max_length=8,
        help_text='The field: saved decks\' ids or "starter:<name>".')
    agent = serializers.ChoiceField(choices=AGENT_NAMES, default=DEFAULT_AGENT,
                                    help_text=agent_help())
    band = serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2,
                                 default=[0.45, 0.55],
                                 help_text="Win-rate band [low, high], e.g. [0.45, 0.55].")
    max_changes = serializers.IntegerField(default=6)
    budget_games = serializers.IntegerField(default=300_000,
                                            help_text="Games the search may play.")
    verify_games = serializers.IntegerField(default=2000,
                                            help_text="Re-verification games a matchup.")
    fields = serializers.ListField(child=serializers.ChoiceField(choices=FIELDS),
                                   default=["cost", "attack", "hp"])
    allowed_cards = serializers.ListField(child=serializers.CharField(max_length=32),
                                          required=False, allow_null=True,
                                          help_text="Codes that may change (default: all).")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    public = serializers.BooleanField(default=False)


class SearchSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.get_username", default=None, read_only=True)
    status = serializers.CharField(read_only=True,
                                   help_text="queued, running, done, failed or cancelled")
    band = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    url = serializers.CharField(source="get_absolute_url", read_only=True)

    class Meta:
        model = BalanceJob
        fields = ["uid", "label", "owner", "is_public", "status", "error", "agent", "band",
                  "max_changes", "fields", "allowed_cards", "budget_games", "verify_games",
                  "seed", "decks", "games_played", "progress", "result", "created_at",
                  "started_at", "finished_at", "url"]

    def get_band(self, job) -> list[float]:
        return [job.band_low, job.band_high]

    def get_progress(self, job) -> dict:
        p = job_progress(job)
        return {"phase": p.phase, "games": p.games, "budget": p.budget, "percent": p.percent,
                "evaluations": p.evaluations, "best": p.best, "seconds_left": p.seconds_left}


class SearchListSerializer(SearchSerializer):
    class Meta(SearchSerializer.Meta):
        fields = ["uid", "label", "owner", "is_public", "status", "agent", "band",
                  "max_changes", "budget_games", "games_played", "progress", "created_at",
                  "finished_at", "url"]


def _job(uid: str, request) -> BalanceJob:
    try:
        return job_get(uid=uid, user=request.user)
    except BalanceJob.DoesNotExist:
        raise Http404(NO_SEARCH) from None


def _invalid(exc: BalanceInputError) -> ValidationError:
    return ValidationError({exc.field: [exc.message]})


class SearchListCreateApi(generics.GenericAPIView):
    """Your balance searches and public ones, newest first (``?mine=1``: yours only); POST
    starts a search owned by you."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    serializer_class = SearchListSerializer
    queryset = BalanceJob.objects.none()

    def get_throttles(self):
        return [SubmitThrottle()] if self.request.method == "POST" else []

    @extend_schema(operation_id="balance_searches_list",
                   responses=SearchListSerializer(many=True),
                   parameters=[ListFilterSerializer])
    def get(self, request):
        query = ListFilterSerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        jobs = jobs_listed(request.user, mine=query.validated_data["mine"])
        page = self.paginate_queryset(jobs)
        return self.get_paginated_response(SearchListSerializer(page, many=True).data)

    @extend_schema(request=SearchInputSerializer, responses={201: SearchSerializer})
    def post(self, request):
        data = SearchInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        d = data.validated_data
        try:
            job = balance_job_request(
                user=request.user, deck_specs=d["decks"], agent=d["agent"],
                band=(d["band"][0], d["band"][1]), max_changes=d["max_changes"],
                budget_games=d["budget_games"], verify_games=d["verify_games"],
                fields=d["fields"], allowed_cards=d.get("allowed_cards"), seed=d.get("seed"),
                is_public=d["public"])
        except BalanceInputError as exc:
            raise _invalid(exc) from None
        return Response(SearchSerializer(job).data, status=status.HTTP_201_CREATED)


class SearchDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(operation_id="balance_searches_retrieve", parameters=[UID],
                   responses=SearchSerializer)
    def get(self, request, uid: str):
        job = _job(uid, request)
        if job.is_active:
            reap_soon()
        return Response(SearchSerializer(job).data)


class SearchCancelApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="balance_searches_cancel", parameters=[UID], request=None,
                   responses=SearchSerializer)
    def post(self, request, uid: str):
        job = _job(uid, request)
        if not job_is_owner(job=job, user=request.user):
            raise PermissionDenied(NOT_OWNER)
        try:
            job = balance_job_cancel(job=job)
        except BalanceInputError as exc:
            raise _invalid(exc) from None
        return Response(SearchSerializer(job).data)


class CandidateRunApi(APIView):
    """A round-robin run (a match for two decks) of the field with front candidate
    ``index``'s patch; the run belongs to you."""

    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self):
        return [SubmitThrottle()]

    @extend_schema(operation_id="balance_searches_candidate_run",
                   parameters=[UID, OpenApiParameter("index", int, OpenApiParameter.PATH)],
                   request=None, responses={201: dict})
    def post(self, request, uid: str, index: int):
        job = _job(uid, request)
        try:
            run = balance_candidate_run(job=job, index=index, user=request.user)
        except BalanceInputError as exc:
            raise _invalid(exc) from None
        return Response({"uid": run.uid, "url": run.get_absolute_url(),
                         "api": f"/api/simulations/{run.uid}/"}, status=status.HTTP_201_CREATED)
