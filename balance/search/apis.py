"""The balance search API (mounted at /api/balance-searches/): submit, list, status with
progress and results, cancel, and a front candidate opened as a round-robin run.

Views only translate HTTP to services and selectors: bad input is a 400 naming the field,
another user's private search is a 404, cancelling someone else's search is a 403.
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from balance.models import BalanceJob, JobKind, Objective
from balance.search.services import (
    BalanceInputError,
    balance_candidate_run,
    balance_job_cancel,
    balance_job_request,
)
from balance.selectors import job_get, job_is_owner, job_progress, jobs_listed
from cards.api_fields import StrictBooleanField
from rules.ai.agents import AGENT_NAMES, DEFAULT_AGENT
from rules.lab.balance_search.space import FIELDS
from simulations.apis import SubmitThrottle
from simulations.reaper import reap_soon
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
    objective = serializers.ChoiceField(
        choices=Objective.choices, default=Objective.META,
        help_text="meta: every deck's field win rate in field_band, every matchup in "
                  "matchup_band and every deck at least min_share of the maximum-entropy "
                  "ε-equilibrium; band: every matchup in band.")
    band = serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2,
                                 default=[0.45, 0.55],
                                 help_text="The band objective's win-rate band [low, high], "
                                           "e.g. [0.45, 0.55].")
    field_band = serializers.ListField(
        child=serializers.FloatField(), min_length=2, max_length=2, default=[0.47, 0.53],
        help_text="meta: each deck's win rate against the field in [low, high].")
    matchup_band = serializers.ListField(
        child=serializers.FloatField(), min_length=2, max_length=2, default=[0.30, 0.70],
        help_text="meta: every matchup's win rate in [low, high]; holds the field band.")
    epsilon = serializers.FloatField(
        default=0.005, help_text="meta: win rate a deck may give up in the ε-equilibrium, "
                                 "from 0 up to 0.5 (0.005: half a point).")
    min_share = serializers.FloatField(
        default=0.05, help_text="meta: each deck's smallest share of the ε-equilibrium, from "
                                "0 to 1 ÷ the number of decks.")
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
    public = StrictBooleanField(default=False)


class SearchSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.get_username", default=None, read_only=True)
    status = serializers.CharField(read_only=True,
                                   help_text="queued, running, done, failed or cancelled")
    band = serializers.SerializerMethodField()
    field_band = serializers.SerializerMethodField()
    matchup_band = serializers.SerializerMethodField()
    progress = serializers.SerializerMethodField()
    url = serializers.CharField(source="get_absolute_url", read_only=True)

    class Meta:
        model = BalanceJob
        fields = ["uid", "label", "owner", "is_public", "status", "error", "agent", "objective",
                  "band", "field_band", "matchup_band", "epsilon", "min_share",
                  "max_changes", "fields", "allowed_cards", "budget_games", "verify_games",
                  "seed", "decks", "games_played", "progress", "result", "created_at",
                  "started_at", "finished_at", "url"]

    def get_band(self, job) -> list[float]:
        return [job.band_low, job.band_high]

    def get_field_band(self, job) -> list[float]:
        return [job.field_band_low, job.field_band_high]

    def get_matchup_band(self, job) -> list[float]:
        return [job.matchup_band_low, job.matchup_band_high]

    def get_progress(self, job) -> dict:
        p = job_progress(job)
        return {"phase": p.phase, "games": p.games, "budget": p.budget, "percent": p.percent,
                "evaluations": p.evaluations, "best": p.best, "seconds_left": p.seconds_left}


class SearchListSerializer(SearchSerializer):
    class Meta(SearchSerializer.Meta):
        fields = ["uid", "label", "owner", "is_public", "status", "agent", "objective", "band",
                  "field_band", "matchup_band", "max_changes", "budget_games", "games_played",
                  "progress", "created_at", "finished_at", "url"]


def job_or_404(request, uid: str, *, kind: str = JobKind.BALANCE,
               not_found=NO_SEARCH) -> BalanceJob:
    """The job of ``kind`` the request may see, or a 404 saying what was not found."""
    try:
        return job_get(uid=uid, user=request.user, kind=kind)
    except BalanceJob.DoesNotExist:
        raise Http404(not_found) from None


def invalid_input(exc: BalanceInputError) -> ValidationError:
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
                is_public=d["public"], objective=d["objective"],
                field_band=(d["field_band"][0], d["field_band"][1]),
                matchup_band=(d["matchup_band"][0], d["matchup_band"][1]),
                epsilon=d["epsilon"], min_share=d["min_share"])
        except BalanceInputError as exc:
            raise invalid_input(exc) from None
        return Response(SearchSerializer(job).data, status=status.HTTP_201_CREATED)


# What the endpoints of one job share, for each kind of job: finding it (a 404 that names the
# kind) and its body; the balance search's by default, deck tuning sets its own. (Comments, not
# docstrings: a docstring would become every operation's description in the API schema.)
class JobApi(APIView):
    kind: str = JobKind.BALANCE
    output: type[serializers.Serializer] = SearchSerializer
    not_found = NO_SEARCH
    not_owner = NOT_OWNER

    def job(self, request, uid: str) -> BalanceJob:
        return job_or_404(request, uid, kind=self.kind, not_found=self.not_found)


class JobDetailApi(JobApi):
    permission_classes = [permissions.AllowAny]

    def get(self, request, uid: str):
        job = self.job(request, uid)
        if job.is_active:
            reap_soon()
        return Response(self.output(job).data)


class JobCancelApi(JobApi):
    permission_classes = [permissions.IsAuthenticated]

    def post(self, request, uid: str):
        job = self.job(request, uid)
        if not job_is_owner(job=job, user=request.user):
            raise PermissionDenied(self.not_owner)
        try:
            job = balance_job_cancel(job=job)
        except BalanceInputError as exc:
            raise invalid_input(exc) from None
        return Response(self.output(job).data)


@extend_schema_view(get=extend_schema(operation_id="balance_searches_retrieve",
                                      parameters=[UID], responses=SearchSerializer))
class SearchDetailApi(JobDetailApi):
    pass


@extend_schema_view(post=extend_schema(operation_id="balance_searches_cancel", parameters=[UID],
                                       request=None, responses=SearchSerializer))
class SearchCancelApi(JobCancelApi):
    pass


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
        job = job_or_404(request, uid)
        try:
            run = balance_candidate_run(job=job, index=index, user=request.user)
        except BalanceInputError as exc:
            raise invalid_input(exc) from None
        return Response({"uid": run.uid, "url": run.get_absolute_url(),
                         "api": f"/api/simulations/{run.uid}/"}, status=status.HTTP_201_CREATED)
