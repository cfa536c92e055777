"""The API of games between people (mounted under /api/play/): challenges — make one (to a
named player or an open link), list yours, read one, accept it with a deck checked against its
format (a 400 lists every problem, as the builder does), decline or withdraw it — and a
rematch of a finished game, seats swapped. The challenger's deck is never sent to the other
player."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api_fields import StrictBooleanField, StrictSerializer
from play.engine.deck_sources import deck_resolve
from play.errors import DeckProblems, PlayError
from play.friends import services as friends
from play.models import Challenge
from play.seat.state import state_data
from play.selectors import challenge_get, challenges_for, play_get

UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The challenge's id.")
GAME_UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The game's id.")
CHALLENGE = OpenApiResponse(OpenApiTypes.OBJECT, description=(
    "A challenge: uid, url, challenger, opponent (null: an open link), format, first (random, "
    "me: the challenger, them), seat (the challenger's: 0 is P1), status (pending, accepted, "
    "declined, cancelled, expired), created_at (how long it has waited), expires_at, game "
    "(the game's uid once accepted), mine, spectators (whether the challenger lets anyone "
    "watch the game), and "
    "deck (the challenger's deck's name: sent to the challenger only)."))
PROBLEMS = OpenApiResponse(OpenApiTypes.OBJECT, description=(
    "{deck: [what to fix], problems: [{code, rule, message, fix, cards}]}: the deck is not "
    "legal in the challenge's format; or {field: [message]} for another refusal (a limit, an "
    "unknown player, a closed challenge), with the numbers."))


def challenge_data(challenge: Challenge, user: Any) -> dict[str, Any]:
    mine = user.pk == challenge.challenger_id
    out: dict[str, Any] = {
        "uid": challenge.uid, "url": challenge.get_absolute_url(),
        "challenger": challenge.challenger.get_username(),
        "opponent": challenge.opponent.get_username() if challenge.opponent else None,
        "format": challenge.format_code, "first": challenge.first, "seat": challenge.seat,
        "clock": challenge.clock, "status": challenge.status,
        "created_at": challenge.created_at, "expires_at": challenge.expires_at, "mine": mine,
        "spectators": challenge.spectators,
        "game": challenge.game.uid if challenge.game_id and challenge.game else None}
    if mine:
        out["deck"] = challenge.deck_name
    return out


def _refuse(exc: PlayError) -> ValidationError:
    if isinstance(exc, DeckProblems):
        return ValidationError({"deck": [str(exc)], "problems": list(exc.problems)})
    return ValidationError({exc.field or "detail": [str(exc)]})


class ChallengeInputSerializer(StrictSerializer):
    opponent = serializers.CharField(required=False, allow_blank=True, max_length=150,
                                     help_text="A user name; empty or absent: an open link.")
    deck = serializers.CharField(max_length=120, help_text=(
        'Your deck: a saved deck\'s id, "starter:<name>" or "draft" (the builder\'s).'))
    format = serializers.CharField(required=False, allow_blank=True, max_length=40,
                                   help_text="A format's code (default: the standard one).")
    first = serializers.ChoiceField(choices=friends.FIRST_CHOICES, default="random",
                                    help_text="Who goes first: random, me or them.")
    spectators = StrictBooleanField(required=False, help_text=(
        "Whether you let anyone signed in watch the game (it may be watched only if the one "
        "who accepts allows it too); default: your settings' choice."))


class AcceptInputSerializer(StrictSerializer):
    deck = serializers.CharField(max_length=120, help_text="Your deck, checked against the "
                                 "challenge's format.")
    spectators = StrictBooleanField(required=False, help_text=(
        "Whether you let anyone signed in watch the game (it may be watched only if the "
        "challenger allows it too); default: your settings' choice."))


class ChallengeListCreateApi(APIView):
    """Your pending challenges (to you and from you) and the lobby's open ones; POST makes
    one."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_challenges_list",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description=(
                       "{incoming: [challenge], outgoing: [challenge], open: [challenge]}: "
                       "open holds the lobby's open links of other players, anyone may "
                       "accept them, the longest waiting first (their decks hidden)."))})
    def get(self, request: Request) -> Response:
        found = challenges_for(request.user)
        return Response({key: [challenge_data(c, request.user) for c in rows]
                         for key, rows in found.items()})

    @extend_schema(operation_id="play_challenges_create", request=ChallengeInputSerializer,
                   responses={201: CHALLENGE, 400: PROBLEMS})
    def post(self, request: Request) -> Response:
        data = ChallengeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            challenge = friends.challenge_create(
                challenger=request.user, deck=deck_resolve(request, v["deck"], "deck"),
                opponent=(v.get("opponent") or "").strip() or None,
                format_code=v.get("format") or None, first=v["first"],
                site_url=request.build_absolute_uri("/"), spectators=v.get("spectators"))
        except PlayError as exc:
            raise _refuse(exc) from None
        return Response(challenge_data(challenge, request.user), status=status.HTTP_201_CREATED)


class ChallengeDetailApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_challenges_read", parameters=[UID],
                   responses={200: CHALLENGE})
    def get(self, request: Request, uid: str) -> Response:
        return Response(challenge_data(challenge_get(uid=uid, user=request.user), request.user))


class ChallengeAcceptApi(APIView):
    """Accept with your deck: the game starts (its state, your seat's view, is the answer)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_challenges_accept", parameters=[UID],
                   request=AcceptInputSerializer,
                   responses={201: OpenApiResponse(OpenApiTypes.OBJECT,
                                                   description="The game's state."),
                              400: PROBLEMS})
    def post(self, request: Request, uid: str) -> Response:
        challenge = challenge_get(uid=uid, user=request.user)
        data = AcceptInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            game = friends.challenge_accept(
                challenge=challenge, by=request.user,
                deck=deck_resolve(request, data.validated_data["deck"], "deck"),
                spectators=data.validated_data.get("spectators"))
        except PlayError as exc:
            raise _refuse(exc) from None
        return Response(state_data(game, game.seat_of(request.user)),
                        status=status.HTTP_201_CREATED)


class ChallengeDeclineApi(APIView):
    """Decline a challenge made to you, or withdraw your own."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_challenges_decline", parameters=[UID], request=None,
                   responses={200: CHALLENGE, 400: PROBLEMS})
    def post(self, request: Request, uid: str) -> Response:
        challenge = challenge_get(uid=uid, user=request.user)
        StrictSerializer(data=request.data).is_valid(raise_exception=True)   # takes no field
        try:
            friends.challenge_withdraw_or_decline(challenge=challenge, by=request.user)
        except PlayError as exc:
            raise _refuse(exc) from None
        return Response(challenge_data(challenge, request.user))


class PlayRematchApi(APIView):
    """Offer the other player of a finished game a rematch, seats swapped: a challenge to
    them with the deck you played."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_rematch", parameters=[GAME_UID], request=None,
                   responses={201: CHALLENGE, 400: PROBLEMS})
    def post(self, request: Request, uid: str) -> Response:
        record = play_get(uid=uid, user=request.user)
        StrictSerializer(data=request.data).is_valid(raise_exception=True)   # takes no field
        try:
            challenge = friends.rematch_offer(record=record, by=request.user,
                                              site_url=request.build_absolute_uri("/"))
        except PlayError as exc:
            raise _refuse(exc) from None
        return Response(challenge_data(challenge, request.user), status=status.HTTP_201_CREATED)
