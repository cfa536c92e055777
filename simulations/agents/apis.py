"""The AI players' strength and cost (mounted at /api/simulations/agents/).

Ratings and costs come from the stored AI ladder result (``simulations.agents.strength``), the same
table as the page /simulations/agents/.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from simulations import conf
from simulations.agents.strength import agent_strength, run_costs, strength_rows

ESTIMATE_HELP = (
    "A run takes about run_costs.start + run_costs.finish + (its chunks ÷ workers, rounded "
    "up) × (run_costs.chunk + the seconds of a game between its agents here × the games of a "
    "chunk) from submission to figures (game_seconds of an agent is a game with it in both "
    "seats); the simulation form estimates with the same figures.")


class AgentRatingSerializer(serializers.Serializer[Mapping[str, Any]]):
    name = serializers.CharField(help_text="The agent's name (agent_a, agent_b, agent).")
    title = serializers.CharField(help_text="Its readable name, in the request's language.")
    # DRF declares fields by class attribute: this one shadows Field.label in the stubs only.
    label = serializers.CharField(  # type: ignore[assignment]
        help_text="Its label in menus, in the request's language.")
    elo = serializers.FloatField(help_text="Bradley–Terry rating on the Elo scale.")
    low = serializers.FloatField(help_text="Lower end of the 95 % interval.")
    high = serializers.FloatField(help_text="Upper end of the 95 % interval.")
    anchor = serializers.BooleanField(help_text="The zero point of the scale (no interval).")
    games = serializers.IntegerField(help_text="Ladder games it played.")
    seconds_per_game = serializers.FloatField(
        allow_null=True, help_text="CPU seconds its decisions take in one game (one seat), on "
                                   "the machine that played the ladder.")
    game_seconds = serializers.FloatField(
        allow_null=True, help_text="Seconds of one game with it in both seats on one worker "
                                   "process here: the ladder's CPU time at the pace this "
                                   "deployment measured and observed (what estimates use).")


class WinRateSerializer(serializers.Serializer[Mapping[str, Any]]):
    rate = serializers.FloatField(allow_null=True)
    low = serializers.FloatField(allow_null=True)
    high = serializers.FloatField(allow_null=True)


class LadderRungSerializer(serializers.Serializer[Mapping[str, Any]]):
    strong = serializers.CharField()
    weak = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    # a declared field, shadowing Serializer.errors in the stubs only (DRF reads it from
    # _declared_fields, the instance's errors stay the validation errors)
    errors = serializers.IntegerField()  # type: ignore[assignment]
    win_rate = WinRateSerializer(help_text="The stronger agent's win rate, 95 % interval on "
                                           "seat-swapped pairs.")


class RunCostsSerializer(serializers.Serializer[Mapping[str, Any]]):
    start = serializers.FloatField(help_text="Seconds from a run's submission to its first "
                                             "chunk's claim (the message's way to a worker).")
    chunk = serializers.FloatField(help_text="Seconds a worker process spends on each chunk "
                                             "besides its games (claim, result, next message).")
    finish = serializers.FloatField(help_text="Seconds from a run's last chunk to its figures.")
    observed = serializers.BooleanField(help_text="Medians of this deployment's latest "
                                                  "finished runs (false: the figures measured "
                                                  "on the development machine).")


class AgentStrengthSerializer(serializers.Serializer[Mapping[str, Any]]):
    anchor = serializers.CharField(allow_null=True, help_text="The agent rated 0.")
    ratings = AgentRatingSerializer(many=True, help_text="Best first.")
    rungs = LadderRungSerializer(many=True, help_text="The ladder's games the ratings fit.")
    engine_seconds_per_game = serializers.FloatField(
        help_text="CPU seconds of one game spent outside the agents (the rules).")
    workers = serializers.IntegerField(help_text="Worker processes playing simulations.")
    run_costs = RunCostsSerializer(help_text="What a run costs here besides its games.")


class AgentStrengthApi(APIView):
    """The AI players: Bradley–Terry ratings (Elo scale, 95 % intervals) fitted to the stored
    AI ladder result, the ladder's games, and what each agent costs. """ + ESTIMATE_HELP

    @extend_schema(operation_id="simulations_agents", responses=AgentStrengthSerializer)
    def get(self, request: Request) -> Response:
        table = agent_strength()
        return Response(AgentStrengthSerializer({
            "anchor": table["anchor"], "ratings": strength_rows(table), "rungs": table["rungs"],
            "engine_seconds_per_game": table["engine_seconds_per_game"],
            "workers": conf.workers(), "run_costs": run_costs().as_dict()}).data)
