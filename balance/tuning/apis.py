"""The deck tuning API (mounted at /api/deck-tunings/): submit, list, status with progress and
suggestions, cancel, and save a suggestion as a deck version (or a new deck of yours).

What every kind of job's API does is ``balance.apis``'s; a tuning's input, body and saving a
suggestion are here.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.users import request_user
from balance.apis import (
    JobApi,
    JobCancelApi,
    JobDetailApi,
    JobInputSerializer,
    JobListCreateApi,
    JobSerializer,
    invalid_input,
)
from balance.models import BalanceJob, JobKind
from balance.services import BalanceInputError
from balance.tuning.selectors import tuning_result
from balance.tuning.services import tuning_job_request, tuning_suggestion_save
from common.api_fields import StrictBooleanField
from rules.ai.agents import AGENT_NAMES, DEFAULT_AGENT
from simulations.apis import PatchInputSerializer
from simulations.serializers import ListFilterSerializer

NOT_OWNER = gettext_lazy("Only the tuning's owner can do this.")
NO_TUNING = gettext_lazy("No deck tuning here.")
UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The tuning's id.")


class TuningInputSerializer(JobInputSerializer):
    deck = serializers.CharField(max_length=120,
                                 help_text='The deck to tune: a saved deck\'s id or '
                                           '"starter:<name>".')
    field = serializers.ListField(
        child=serializers.CharField(max_length=120), required=False, max_length=12,
        help_text='The opponents: saved decks\' ids or "starter:<name>" (empty, and no '
                  'gauntlet: the starter decks).')
    gauntlet = serializers.CharField(max_length=40, required=False, allow_null=True,
                                     help_text="A simulation run's id: its decks are the field.")
    agent = serializers.ChoiceField(choices=AGENT_NAMES, default=DEFAULT_AGENT)
    keep = serializers.ListField(child=serializers.CharField(max_length=32), required=False,
                                 help_text="Codes of cards whose copies stay.")
    heroes = serializers.ListField(child=serializers.CharField(max_length=32), required=False,
                                   help_text="Hero codes the deck may change to.")
    any_hero = StrictBooleanField(default=False,
                                        help_text="The hero may change to any hero.")
    max_swaps = serializers.IntegerField(default=3)
    budget_games = serializers.IntegerField(default=100_000,
                                            help_text="Games the search may play.")
    verify_games = serializers.IntegerField(
        default=1000, help_text="Re-verification games against each opponent.")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    public = StrictBooleanField(default=False)
    shares = serializers.ListField(
        child=serializers.FloatField(min_value=0), required=False, allow_null=True,
        max_length=12, help_text="Each field deck's play share, in the field's order (the "
                                 "field win rate is then their weighted mean); empty: alike.")
    patch = PatchInputSerializer(
        required=False, allow_null=True,
        help_text="A balance patch: the tuning plays the card pool as patched; the same shape "
                  "as a --patch file (docs/patches.md).")

    def service_arguments(self) -> dict[str, Any]:
        d = self.validated_data
        return {"shares": d.get("shares") or None, "patch": d.get("patch"),
                "deck_spec": d["deck"], "field_specs": d.get("field") or [],
                "gauntlet": d.get("gauntlet"), "agent": d["agent"], "keep": d.get("keep") or [],
                "heroes": d.get("heroes") or [], "any_hero": d["any_hero"],
                "max_swaps": d["max_swaps"], "budget_games": d["budget_games"],
                "verify_games": d["verify_games"], "seed": d.get("seed"),
                "is_public": d["public"]}


class TuningSerializer(JobSerializer):
    deck = serializers.SerializerMethodField()
    field = serializers.SerializerMethodField()
    max_swaps = serializers.IntegerField(source="max_changes", read_only=True)
    keep = serializers.SerializerMethodField()
    shares = serializers.SerializerMethodField()
    patch = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()

    class Meta:
        model = BalanceJob
        fields = ["uid", "label", "owner", "is_public", "status", "error", "agent", "deck",
                  "field", "shares", "patch", "keep", "max_swaps", "budget_games",
                  "verify_games", "seed",
                  "games_played", "progress", "result", "created_at", "started_at",
                  "finished_at", "url"]

    def get_deck(self, job: BalanceJob) -> dict[str, Any]:
        return job.decks[0] if job.decks else {}

    def get_field(self, job: BalanceJob) -> list[dict[str, Any]]:
        return list(job.decks[1:])

    def get_shares(self, job: BalanceJob) -> list[float] | None:
        """Each field deck's play share, as given (null: every deck alike)."""
        return (job.tuning or {}).get("shares")

    def get_patch(self, job: BalanceJob) -> dict[str, Any] | None:
        """The patch the tuning plays (``name``, ``changes``, ``diff``), or null."""
        kept = (job.tuning or {}).get("patch")
        return {k: kept[k] for k in ("name", "changes", "diff")} if kept else None

    def get_keep(self, job: BalanceJob) -> list[str]:
        return list((job.tuning or {}).get("keep") or [])

    def get_result(self, job: BalanceJob) -> dict[str, Any] | None:
        """When done: ``baseline`` (the unchanged deck on fresh games) and ``suggestions``,
        each with ``swaps``, ``diff`` (each swap in card names), ``changes`` (the net change
        of each card: signed ``copies``, ``name``), ``deck``, ``verified``, ``improvement``
        (paired ``change``, ``low``, ``high``, ``gained``, ``lost``, ``p_value``) and
        ``matchups``."""
        return tuning_result(job)


class TuningListSerializer(TuningSerializer):
    class Meta(TuningSerializer.Meta):
        fields = ["uid", "label", "owner", "is_public", "status", "agent", "max_swaps",
                  "budget_games", "games_played", "progress", "created_at", "finished_at",
                  "url"]


SAVED = inline_serializer("TuningSaved", {
    "deck": serializers.CharField(help_text="The deck's id."),
    "url": serializers.CharField(),
    "new_version": serializers.BooleanField(
        help_text="True: a new version of the tuned deck; false: a new deck of yours."),
    "note": serializers.CharField(help_text="Why it became a new deck, if it did."),
})


@extend_schema_view(
    get=extend_schema(operation_id="deck_tunings_list", responses=TuningListSerializer(many=True),
                      parameters=[ListFilterSerializer]),
    post=extend_schema(operation_id="deck_tunings_create", request=TuningInputSerializer,
                       responses={201: TuningSerializer}))
class TuningListCreateApi(JobListCreateApi):
    """Your deck tunings and public ones, newest first (``?mine=1``: yours only); POST starts
    a tuning owned by you."""

    kind = JobKind.TUNING
    input = TuningInputSerializer
    output = TuningSerializer
    serializer_class = TuningListSerializer
    service = tuning_job_request


class _TuningJob(JobApi):
    kind = JobKind.TUNING
    output = TuningSerializer
    not_found = NO_TUNING
    not_owner = NOT_OWNER


@extend_schema_view(get=extend_schema(operation_id="deck_tunings_retrieve", parameters=[UID],
                                      responses=TuningSerializer))
class TuningDetailApi(_TuningJob, JobDetailApi):
    pass


@extend_schema_view(post=extend_schema(operation_id="deck_tunings_cancel", parameters=[UID],
                                       request=None, responses=TuningSerializer))
class TuningCancelApi(_TuningJob, JobCancelApi):
    pass


class SuggestionSaveApi(_TuningJob):
    """Apply suggestion ``index``: a new version of the tuned deck if it is yours (and still
    holds what the swaps take out), otherwise a new private deck of yours."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="deck_tunings_suggestion_save",
                   parameters=[UID, OpenApiParameter("index", int, OpenApiParameter.PATH)],
                   request=None, responses={201: SAVED})
    def post(self, request: Request, uid: str, index: int) -> Response:
        job = self.job(request, uid)
        try:
            deck, as_version, note = tuning_suggestion_save(job=job, index=index,
                                                            user=request_user(request))
        except BalanceInputError as exc:
            raise invalid_input(exc) from None
        return Response({"deck": deck.uid, "url": deck.get_absolute_url(),
                         "new_version": as_version, "note": note},
                        status=status.HTTP_201_CREATED)
