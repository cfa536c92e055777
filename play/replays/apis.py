"""Play on from a replay's step through the API: ``POST /api/play/<uid>/play-on/``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api_fields import StrictSerializer
from play.apis import STATE, UID, state_answer
from play.errors import PlayError
from play.replays.play_on import play_on_start
from play.selectors import play_replay_get
from rules.ai.agents import AGENT_NAMES


class PlayOnInputSerializer(StrictSerializer):
    step = serializers.IntegerField(min_value=0, help_text=(
        "The replay's step to play on from: a main-phase move (not inside an effect's choice "
        "or the set-up, not after the end)."))
    agent = serializers.CharField(max_length=40, help_text=(
        f"The AI player of the new game: one of {', '.join(AGENT_NAMES)}."))
    seat = serializers.IntegerField(min_value=0, max_value=1, required=False, allow_null=True,
                                    help_text=(
        "0 (P1) or 1 (P2): the seat you play, needed only where it is yours to choose (a "
        "hot-seat game, someone else's shared replay); else the seat you had."))


class PlayOnApi(APIView):
    """A new game against an AI player from a step of a finished game's replay you may see:
    your seat's cards as they were, the other seat's hidden cards dealt anew from what you
    could know (never the real ones), a fresh seed. A 400 names the field at fault: a step
    that does not exist or cannot be played on (inside an effect's choice or the set-up, after
    the end), an unknown agent, a seat that is not yours to choose. A replay you may not see
    is a 404."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_on", parameters=[UID], request=PlayOnInputSerializer,
                   responses={201: STATE})
    def post(self, request: Request, uid: str) -> Response:
        record = play_replay_get(uid=uid, user=request.user)
        data = PlayOnInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        try:
            game = play_on_start(record=record, user=request.user, step=given["step"],
                                 agent=given["agent"], seat=given.get("seat"))
        except PlayError as exc:
            raise ValidationError({exc.field or "detail": [str(exc)]}) from None
        return Response(state_answer(game), status=status.HTTP_201_CREATED)
