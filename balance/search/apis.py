"""The balance search API (mounted at /api/balance-searches/): submit, list, status with
progress and results, cancel, and a front candidate opened as a round-robin run.

What every kind of job's API does is ``balance.apis``'s; a search's input, body and candidate
run are here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle

from balance.apis import (
    JobApi,
    JobCancelApi,
    JobDetailApi,
    JobInputSerializer,
    JobListCreateApi,
    JobSerializer,
    invalid_input,
)
from balance.models import BalanceJob, JobKind, Objective
from balance.search.services import balance_candidate_run, balance_job_request
from balance.services import BalanceInputError
from common.api_fields import StrictBooleanField
from common.throttles import SubmitThrottle
from rules.ai.agents import AGENT_NAMES, DEFAULT_AGENT
from rules.lab.balance_search.problem import DEFAULT_STRONG_BUDGET, DEFAULT_STRONG_VERIFY
from rules.lab.balance_search.space import FIELDS
from simulations.agents.strength import agent_help
from simulations.apis import PatchInputSerializer
from simulations.serializers import ListFilterSerializer

NOT_OWNER = gettext_lazy("Only the search's owner can do this.")
NO_SEARCH = gettext_lazy("No balance search here.")
UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The search's id.")


class SearchInputSerializer(JobInputSerializer):
    decks = serializers.ListField(
        child=serializers.CharField(max_length=120), min_length=2, max_length=8,
        help_text='The field: saved decks\' ids or "starter:<name>".')
    agent = serializers.ChoiceField(choices=AGENT_NAMES, default=DEFAULT_AGENT,
                                    help_text=agent_help())
    objective = serializers.ChoiceField(
        choices=Objective.choices, default=Objective.META,
        help_text="meta: every deck's field win rate in field_band, every matchup in "
                  "matchup_band and every deck at least min_share of the maximum-entropy "
                  "ε-equilibrium; band: every matchup in band; adapted: the meta's targets "
                  "on the lists players adapt to each candidate patch (a meta forecast) and "
                  "no deck one more tuning takes above the exploitability limit.")
    band = serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2,
                                 default=[0.45, 0.55],
                                 help_text="The band objective's win-rate band [low, high], "
                                           "e.g. [0.45, 0.55].")
    field_band = serializers.ListField(
        child=serializers.FloatField(), min_length=2, max_length=2, required=False,
        help_text="meta: each deck's win rate against the field in [low, high] (default "
                  "[0.47, 0.53]; adapted: [0.45, 0.55]).")
    matchup_band = serializers.ListField(
        child=serializers.FloatField(), min_length=2, max_length=2, required=False,
        help_text="meta: every matchup's win rate in [low, high]; holds the field band "
                  "(default [0.30, 0.70]; adapted: [0.25, 0.75]).")
    adapted = serializers.DictField(
        required=False, help_text="adapted: any of iterations (patches tried, 3), "
                                  "list_changes (cards an adapted list may differ, 15), "
                                  "exploit_limit (0.56), forecast_seeds (forecasts of each "
                                  "patch, judged by the worst, 2), forecast_budget_games, "
                                  "tune_games, "
                                  "round_games, final_games, max_rounds, swaps_per_round, "
                                  "exploit_swaps.")
    epsilon = serializers.FloatField(
        default=0.005, help_text="meta: win rate a deck may give up in the ε-equilibrium, "
                                 "from 0 up to 0.5 (0.005: half a point).")
    min_share = serializers.FloatField(
        default=0.05, help_text="meta: each deck's smallest share of the ε-equilibrium, from "
                                "0 to 1 ÷ the number of decks.")
    agents = serializers.ListField(
        child=serializers.CharField(max_length=20), required=False, min_length=1,
        help_text="meta: several agents, each listed once (in place of agent), e.g. "
                  '["greedy", "planner"]: every target must hold under each. The fastest '
                  "screens and races; the others check the finalists with "
                  "strong_budget_games and re-verify with strong_verify_games a matchup.")
    strong_budget_games = serializers.IntegerField(
        default=DEFAULT_STRONG_BUDGET,
        help_text="With agents: games the further agents may play while searching (all of "
                  "them together); too few is refused with the least the field needs.")
    strong_verify_games = serializers.IntegerField(
        default=DEFAULT_STRONG_VERIFY,
        help_text="With agents: re-verification games a matchup under each further agent.")
    max_changes = serializers.IntegerField(default=6)
    budget_games = serializers.IntegerField(default=300_000,
                                            help_text="Games the search may play.")
    verify_games = serializers.IntegerField(default=2000,
                                            help_text="Re-verification games a matchup.")
    # The input is named "fields" (the service's word): DRF's serializer metaclass moves it to
    # the declared fields, so it never hides ``Serializer.fields`` at run time.
    fields = serializers.ListField(child=serializers.ChoiceField(choices=FIELDS),  # type: ignore[assignment]
                                   default=["cost", "attack", "hp"])
    allowed_cards = serializers.ListField(child=serializers.CharField(max_length=32),
                                          required=False, allow_null=True,
                                          help_text="Codes that may change (default: all).")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    public = StrictBooleanField(default=False)
    live_patch = PatchInputSerializer(
        required=False, allow_null=True,
        help_text="A patch already live, the same shape as a --patch file (docs/patches.md): "
                  "the search starts from it and may extend it, change it or take its "
                  "changes back (adapted: it is the first pool forecast). Each change must be "
                  "one a search makes; max_changes must allow them all.")

    max_edits = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="With live_patch or the adapted objective: a patch the search proposes "
                  "differs from the patch it starts from in at most this many places (a "
                  "change added, taken back or given another value), 1 to 12; null: no cap.")

    def service_arguments(self) -> dict[str, Any]:
        d = self.validated_data
        adapted = d["objective"] == Objective.ADAPTED
        field_band = d.get("field_band") or ([0.45, 0.55] if adapted else [0.47, 0.53])
        matchup_band = d.get("matchup_band") or ([0.25, 0.75] if adapted else [0.30, 0.70])
        return {"adapted": (d.get("adapted") or {}) if adapted else None,
                "deck_specs": d["decks"], "agent": d["agent"],
                "band": (d["band"][0], d["band"][1]), "max_changes": d["max_changes"],
                "budget_games": d["budget_games"], "verify_games": d["verify_games"],
                "fields": d["fields"], "allowed_cards": d.get("allowed_cards"),
                "seed": d.get("seed"), "is_public": d["public"], "objective": d["objective"],
                "field_band": (field_band[0], field_band[1]),
                "matchup_band": (matchup_band[0], matchup_band[1]),
                "epsilon": d["epsilon"], "min_share": d["min_share"],
                "agents": d.get("agents"), "strong_budget_games": d["strong_budget_games"],
                "strong_verify_games": d["strong_verify_games"],
                "live_patch": d.get("live_patch"), "max_edits": d.get("max_edits")}


class SearchSerializer(JobSerializer):
    band = serializers.SerializerMethodField()
    field_band = serializers.SerializerMethodField()
    matchup_band = serializers.SerializerMethodField()
    agents = serializers.SerializerMethodField()
    adapted = serializers.SerializerMethodField()
    live_patch = serializers.SerializerMethodField()

    class Meta:
        model = BalanceJob
        fields = ["uid", "label", "owner", "is_public", "status", "error", "agent", "agents",
                  "adapted", "live_patch",
                  "strong_budget_games", "strong_verify_games", "objective",
                  "band", "field_band", "matchup_band", "epsilon", "min_share",
                  "max_changes", "max_edits", "fields", "allowed_cards", "budget_games",
                  "verify_games", "seed", "decks", "games_played", "progress", "result",
                  "created_at", "started_at", "finished_at", "url"]

    def get_band(self, job: BalanceJob) -> list[float]:
        return [job.band_low, job.band_high]

    def get_field_band(self, job: BalanceJob) -> list[float]:
        return [job.field_band_low, job.field_band_high]

    def get_matchup_band(self, job: BalanceJob) -> list[float]:
        return [job.matchup_band_low, job.matchup_band_high]

    def get_adapted(self, job: BalanceJob) -> dict[str, Any] | None:
        """The adapted objective's options (None for the other objectives)."""
        if job.objective != Objective.ADAPTED:
            return None
        return dict((job.tuning or {}).get("options") or {})

    def get_live_patch(self, job: BalanceJob) -> dict[str, Any] | None:
        """The patch the search started from (``name``, ``changes``, ``diff``), or null."""
        kept = job.live_patch
        return {k: kept[k] for k in ("name", "changes", "diff")} if kept else None

    def get_agents(self, job: BalanceJob) -> list[str]:
        """Every agent the patch is held under, the one that screens and races first."""
        return [job.agent, *(job.further_agents or [])]


class SearchListSerializer(SearchSerializer):
    class Meta(SearchSerializer.Meta):
        fields = ["uid", "label", "owner", "is_public", "status", "agent", "agents", "objective",
                  "band",
                  "field_band", "matchup_band", "max_changes", "budget_games", "games_played",
                  "progress", "created_at", "finished_at", "url"]


@extend_schema_view(
    get=extend_schema(operation_id="balance_searches_list",
                      responses=SearchListSerializer(many=True),
                      parameters=[ListFilterSerializer]),
    post=extend_schema(request=SearchInputSerializer, responses={201: SearchSerializer}))
class SearchListCreateApi(JobListCreateApi):
    """Your balance searches and public ones, newest first (``?mine=1``: yours only); POST
    starts a search owned by you."""

    kind = JobKind.BALANCE
    input = SearchInputSerializer
    output = SearchSerializer
    serializer_class = SearchListSerializer
    service = balance_job_request


class _SearchJob(JobApi):
    kind = JobKind.BALANCE
    output = SearchSerializer
    not_found = NO_SEARCH
    not_owner = NOT_OWNER


@extend_schema_view(get=extend_schema(operation_id="balance_searches_retrieve",
                                      parameters=[UID], responses=SearchSerializer))
class SearchDetailApi(_SearchJob, JobDetailApi):
    pass


@extend_schema_view(post=extend_schema(operation_id="balance_searches_cancel", parameters=[UID],
                                       request=None, responses=SearchSerializer))
class SearchCancelApi(_SearchJob, JobCancelApi):
    pass


class CandidateRunApi(_SearchJob):
    """A round-robin run (a match for two decks) of the field with front candidate
    ``index``'s patch; the run belongs to you."""

    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self) -> list[BaseThrottle]:
        return [SubmitThrottle()]

    @extend_schema(operation_id="balance_searches_candidate_run",
                   parameters=[UID, OpenApiParameter("index", int, OpenApiParameter.PATH)],
                   request=None, responses={201: dict})
    def post(self, request: Request, uid: str, index: int) -> Response:
        job = self.job(request, uid)
        try:
            run = balance_candidate_run(job=job, index=index, user=request.user)
        except BalanceInputError as exc:
            raise invalid_input(exc) from None
        return Response({"uid": run.uid, "url": run.get_absolute_url(),
                         "api": f"/api/simulations/{run.uid}/"}, status=status.HTTP_201_CREATED)
