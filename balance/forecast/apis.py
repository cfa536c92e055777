"""The meta forecast API, mounted at /api/meta-forecasts/: start a forecast, follow it, cancel
it. What every kind of job's API does is ``balance.apis``'s; a forecast's input and output are
here. No logic: the service decides what is valid."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers

from balance.apis import (
    JobApi,
    JobCancelApi,
    JobDetailApi,
    JobInputSerializer,
    JobListCreateApi,
    JobSerializer,
)
from balance.forecast.problem import forecast_band, forecast_further_agents
from balance.forecast.services import BAND, DEFAULTS, SIZES, forecast_job_request
from balance.models import BalanceJob, JobKind
from common.api_fields import StrictBooleanField
from rules.ai.agents import AGENT_NAMES, DEFAULT_AGENT
from simulations.agents.strength import agent_help
from simulations.apis import PatchInputSerializer
from simulations.serializers import ListFilterSerializer

NOT_OWNER = gettext_lazy("Only the forecast's owner can do this.")
NO_FORECAST = gettext_lazy("No meta forecast here.")
UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The forecast's id.")


class ForecastInputSerializer(JobInputSerializer):
    decks = serializers.ListField(
        child=serializers.CharField(max_length=120), required=False, max_length=10,
        help_text='The archetypes: saved decks\' ids or "starter:<name>" (empty: the starter '
                  'decks).')
    agent = serializers.ChoiceField(choices=AGENT_NAMES, default=DEFAULT_AGENT,
                                    help_text=agent_help())
    agents = serializers.ListField(
        child=serializers.ChoiceField(choices=AGENT_NAMES), required=False, min_length=1,
        max_length=len(AGENT_NAMES),
        help_text='In place of agent, each listed once, e.g. ["greedy", "lean"]: the first '
                  "adapts the lists; every one plays the settled lists on fresh seeds, and "
                  "each archetype gets a verdict (over the band under any agent: nerf; under "
                  "it under every agent: buff; otherwise fine).")
    band = serializers.ListField(
        child=serializers.FloatField(), min_length=2, max_length=2, default=list(BAND),
        help_text="The verdicts' field win-rate band in percent [low, high], e.g. [45, 55].")
    patch = PatchInputSerializer(
        required=False, allow_null=True,
        help_text="A balance patch: forecast the pool as patched (docs/patches.md).")
    max_changes = serializers.IntegerField(
        default=DEFAULTS.max_changes,
        help_text="Cards a list may differ from its printed list, in all.")
    settle = serializers.FloatField(
        default=DEFAULTS.settle * 100,
        help_text="Points: the rounds stop when no archetype's verified gain exceeds it.")
    max_rounds = serializers.IntegerField(default=DEFAULTS.max_rounds)
    budget_games = serializers.IntegerField(default=DEFAULTS.budget_games,
                                            help_text="Games the rounds may play.")
    verify_games = serializers.IntegerField(
        default=DEFAULTS.verify_games,
        help_text="Each tuning's fresh games against each opponent.")
    tune_games = serializers.IntegerField(required=False,
                                          help_text="One tuning's search games.")
    round_games = serializers.IntegerField(required=False,
                                           help_text="Games a matchup in each round.")
    final_games = serializers.IntegerField(
        required=False, help_text="Fresh games a matchup of the settled field.")
    swaps_per_round = serializers.IntegerField(required=False)
    exploit_swaps = serializers.IntegerField(
        required=False, help_text="Exploitability: the swaps of one more tuning.")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    public = StrictBooleanField(default=False)

    def service_arguments(self) -> dict[str, Any]:
        d = self.validated_data
        sizes = {k: d[k] for k in SIZES if d.get(k) is not None}
        agent, *further = d.get("agents") or [d["agent"]]
        return {"deck_specs": d.get("decks") or [], "agent": agent,
                "further_agents": further, "band": d["band"], "patch": d.get("patch"),
                "max_changes": d["max_changes"],
                "settle": d["settle"], "max_rounds": d["max_rounds"],
                "budget_games": d["budget_games"], "verify_games": d["verify_games"],
                "seed": d.get("seed"), "is_public": d["public"], **sizes}


class ForecastSerializer(JobSerializer):
    agents = serializers.SerializerMethodField()
    band = serializers.SerializerMethodField()
    decks = serializers.SerializerMethodField()
    patch = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()

    class Meta:
        model = BalanceJob
        fields = ["uid", "label", "owner", "is_public", "status", "error", "agent", "agents",
                  "band", "decks", "patch", "max_changes", "budget_games", "verify_games", "seed",
                  "games_played", "progress", "result", "created_at", "started_at",
                  "finished_at", "url"]

    def get_agents(self, job: BalanceJob) -> list[str]:
        """Every agent that plays the settled lists, the one that adapts them first."""
        return [job.agent, *forecast_further_agents(job)]

    def get_band(self, job: BalanceJob) -> list[float]:
        """The verdicts' band in percent."""
        return [round(x * 100, 2) for x in forecast_band(job)]

    def get_decks(self, job: BalanceJob) -> list[dict[str, Any]]:
        return list(job.decks)

    def get_patch(self, job: BalanceJob) -> dict[str, Any] | None:
        """The patch the forecast plays (``name``, ``changes``, ``diff``), or null."""
        kept = (job.tuning or {}).get("patch")
        return {k: kept[k] for k in ("name", "changes", "diff")} if kept else None

    def get_result(self, job: BalanceJob) -> dict[str, Any] | None:
        """When done: ``final`` (``decks``, ``field``, ``matchups``, ``shares``, ``nash``,
        ``relaxed``, ``agents``: each further agent's ``field`` and ``matchups``), ``rounds``,
        ``cards`` (``adopted``, ``dropped``), ``band``, ``verdicts``, ``exploitability``,
        ``games`` and ``stopped`` — the shape of ``meta_forecast --json``."""
        return job.result if job.status == "done" else None


class ForecastListSerializer(ForecastSerializer):
    class Meta(ForecastSerializer.Meta):
        fields = ["uid", "label", "owner", "is_public", "status", "agent", "agents",
                  "max_changes",
                  "budget_games", "games_played", "progress", "created_at", "finished_at",
                  "url"]


@extend_schema_view(
    get=extend_schema(operation_id="meta_forecasts_list",
                      responses=ForecastListSerializer(many=True),
                      parameters=[ListFilterSerializer]),
    post=extend_schema(operation_id="meta_forecasts_create", request=ForecastInputSerializer,
                       responses={201: ForecastSerializer}))
class ForecastListCreateApi(JobListCreateApi):
    """Your meta forecasts and public ones, newest first (``?mine=1``: yours only); POST starts
    a forecast owned by you."""

    kind = JobKind.FORECAST
    input = ForecastInputSerializer
    output = ForecastSerializer
    serializer_class = ForecastListSerializer
    service = forecast_job_request
    field_of = {"further_agents": "agents"}


class _ForecastJob(JobApi):
    kind = JobKind.FORECAST
    output = ForecastSerializer
    not_found = NO_FORECAST
    not_owner = NOT_OWNER


@extend_schema_view(get=extend_schema(operation_id="meta_forecasts_retrieve", parameters=[UID],
                                      responses=ForecastSerializer))
class ForecastDetailApi(_ForecastJob, JobDetailApi):
    pass


@extend_schema_view(post=extend_schema(operation_id="meta_forecasts_cancel", parameters=[UID],
                                       request=None, responses=ForecastSerializer))
class ForecastCancelApi(_ForecastJob, JobCancelApi):
    pass
