"""The spectators' API (mounted under /api/play/): a game as a spectator sees it, the lobby's
games that may be watched, and a player's consent to spectators during the game. The live
stream is ``play.spectators.events``."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponseRedirect
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api_fields import StrictBooleanField, StrictSerializer
from common.numbers import whole_number
from play.errors import STEP_RANGE, PlayError
from play.models import PlayGame
from play.selectors import play_get
from play.spectators.presence import spectators_touch, watchers_count
from play.spectators.selectors import WatchRow, games_to_watch, spectate_get
from play.spectators.services import spectators_allow
from play.spectators.state import spectator_data

UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The game's id.")
SINCE = OpenApiParameter("since", int, description=(
    "Only what happened after this step (the `steps` of your last read): `log` and `moves` "
    "hold the later steps' lines and actions."))
SPECTATOR_STATE = OpenApiResponse(OpenApiTypes.OBJECT, description=(
    "The game as a spectator sees it — what both players were shown, neither hand, no "
    "face-down minion: uid, version, status, result, players (P1 first), steps, turn, to_move, "
    "view ({turn, active, phase, to_move, decision: its kind, players: [{hero, hp, energy, "
    "hand: how many cards, deck: how many, display, graveyard, minions: [null | {hidden: true} "
    "| {card, awake, public, attack_buff, turn_attack_buff, keywords, turn_keywords}]}]}), "
    "log ([{step, text}]: the whole game so far, or since `since`), moves ([{step, seat, "
    "action, label}]: a card from either hand is \"hand-theirs\", never its position), clock, "
    "watchers (how many watch now)."))
GAMES = OpenApiResponse(OpenApiTypes.OBJECT, description=(
    "{games: [{uid, url (the spectator's page), api, players: [P1, P2], format, turn, "
    "started_at, watchers}]}: games between people in progress whose two players allow "
    "spectators, the latest moved first; your own are not listed."))


class SpectatorStateApi(APIView):
    """A game between people as a spectator sees it. A game that may not be watched is a
    404, as a missing one; a player of the game is sent to their seat's state (302)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_watch", parameters=[UID, SINCE],
                   responses={200: SPECTATOR_STATE,
                              302: OpenApiResponse(description="You play this game: your "
                                                   "seat's state (GET /api/play/{uid}/).")})
    def get(self, request: Request, uid: str) -> Any:
        record = spectate_get(uid=uid, user=request.user)
        if record.is_player(request.user):
            return HttpResponseRedirect(reverse("play-api:detail", args=[uid]))
        since = _since(request, record)
        spectators_touch([(record.pk, request.user.pk)])
        count = watchers_count([record.pk]).get(record.pk, 0)
        return Response(spectator_data(record, since=since, watchers=count))


def _since(request: Request, record: PlayGame) -> int | None:
    raw = request.query_params.get("since")
    if raw is None:
        return None
    steps, number = len(record.actions), whole_number(raw)
    if number is None or number > steps:
        raise ValidationError({"since": [str(STEP_RANGE).format(steps=steps)]})
    return number


def watch_row(row: WatchRow) -> dict[str, Any]:
    game = row.game
    return {"uid": game.uid, "url": reverse("play:watch", args=[game.uid]),
            "api": reverse("play-api:watch", args=[game.uid]), "players": list(row.players),
            "format": row.format_label, "turn": game.turn, "started_at": game.created_at,
            "watchers": row.watchers}


class WatchableListApi(APIView):
    """The lobby's games that may be watched."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_watchable", responses={200: GAMES})
    def get(self, request: Request) -> Response:
        return Response({"games": [watch_row(r) for r in games_to_watch(request.user)]})


class SpectatorsInputSerializer(StrictSerializer):
    allow = StrictBooleanField(help_text=(
        "true: you allow spectators (the game may be watched while the other player allows "
        "it too); false: you stop allowing them, and anyone watching is cut off at once."))


class SpectatorsAllowApi(APIView):
    """A player of a game between people allows spectators, or stops allowing them, at any
    moment of the game."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_spectators", parameters=[UID],
                   request=SpectatorsInputSerializer,
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description=(
                       "{uid, allowed: [P1 allows, P2 allows], watchable: both allow}"))})
    def post(self, request: Request, uid: str) -> Response:
        record = play_get(uid=uid, user=request.user)
        data = SpectatorsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            record = spectators_allow(record=record, by=request.user,
                                      allow=data.validated_data["allow"])
        except PlayError as exc:
            if exc.status == status.HTTP_409_CONFLICT:
                return Response({"detail": str(exc)}, status=status.HTTP_409_CONFLICT)
            raise ValidationError({exc.field or "detail": [str(exc)]}) from None
        return Response(consent_data(record))


def consent_data(record: PlayGame) -> dict[str, Any]:
    return {"uid": record.uid, "allowed": [record.watch_p1, record.watch_p2],
            "watchable": record.watchable}
