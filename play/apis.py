"""The play API (mounted at /api/play/): start a game, read a seat's state, act, undo,
restart, concede, share, and ask for a hint.

A seat is sent only its own view (``game.view(seat)``) with its legal actions in words; another
user's game is a 404. Every change names the ``version`` it was made on: a stale one is a 409
whose body holds the game as it stands (``state``). An action the engine refuses is a 400
naming it and the legal ones. After a change the agent to move (if any) plays off the request;
poll the state until ``agent_to_move`` is null.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django.utils.http import parse_etags, quote_etag
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api_fields import StrictBooleanField, StrictSerializer
from common.numbers import whole_number
from play import services
from play.ai.hint import hint_of, hint_words
from play.ai.runner import agent_retry, agent_wake
from play.ai.turn import agent_to_move
from play.clock.keep import play_read
from play.engine.action_input import ActionInputError, action_read, action_schema
from play.engine.adapter import agent_rng, game_at
from play.engine.deck_sources import deck_resolve
from play.errors import (
    HINT_NO_DECISION,
    HINT_NOT_SEAT,
    NO_HINT_BETWEEN_PEOPLE,
    NOTHING_TO_RETRY,
    SEAT_CHOICE,
    STALE,
    STEP_RANGE,
    PlayConflict,
    PlayError,
)
from play.models import HUMAN, PlayGame
from play.seat.board import hint_labels
from play.seat.state import StateData, state_data
from play.selectors import acting_seat, play_get, plays_listed, viewer_seat
from rules.ai.agents import AGENT_NAMES
from rules.engine import Action

UID = OpenApiParameter("uid", str, OpenApiParameter.PATH, description="The game's id.")
SEAT = OpenApiParameter("seat", int, description="0 or 1: the seat whose view to send (a "
                        "hot-seat game's other seat); default: yours, or the seat to move.")
SINCE = OpenApiParameter("since", int, description=(
    "Follow the game from this step on (the `steps` of your last read): `log` holds only the "
    "lines of later steps, and `moves` lists the actions played since, each {step, seat, "
    "action, label}; a move of the other seat from its hidden hand names that hand "
    "`\"hand-theirs\"` as its card, never the card's position in it. An AI's turn is "
    "followed by polling with the last `steps` read."))
AT_STEP = OpenApiParameter("step", int, description=(
    "The seat's state at this earlier step (no legal actions): an AI's moves one by one."))
STATE = OpenApiResponse(OpenApiTypes.OBJECT, description=(
    "The seat's state: uid, version, status, result, seats, seat, step, steps, agent_to_move, "
    "agent_error (why the agent could not move, if it failed), can_undo, view (the engine's "
    "view of the seat: game.view(seat).to_dict()), actions ([{action, label}]: every legal "
    "action and its words), log ([{step, text}]); with `?since=`: since and moves ([{step, "
    "seat, action, label}]). A game between people adds players (the two user names, P1 "
    "first) and clock ({turn, reserve, away: seconds; started; to_move; turn_ends and "
    "deadline: epoch ms; now: the server's epoch ms; reserves: each seat's seconds left}), "
    "and carries an ETag (send it back in If-None-Match: 304 while nothing changed)."))
UNCHANGED = OpenApiResponse(description=(
    "A game between people that has not changed since the ETag sent in `If-None-Match`: no "
    "body (the state you hold is current)."))
CONFLICT = OpenApiResponse(OpenApiTypes.OBJECT, description=(
    "The game moved on since `version`: {detail, state} with the fresh state."))


def state_answer(record: PlayGame, seat: int | None = None, *, step: int | None = None,
                 since: int | None = None) -> StateData:
    """The seat's state as the API sends it, the agent to move (if any) set to play first and
    its failure, if any, said (``play.ai.runner.agent_wake``; the state is built by
    ``play.seat.state``)."""
    record, failure = agent_wake(record)
    return state_data(record, seat, step=step, since=since, agent_error=failure)


def _step_param(request: Request, name: str, record: PlayGame) -> int | None:
    """A step given in the query (``?since=``, ``?step=``): a whole number from 0 to the
    game's steps."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    steps, number = len(record.actions), whole_number(raw)
    if number is None or number > steps:
        raise ValidationError({name: [str(STEP_RANGE).format(steps=steps)]})
    return number


def _refused(exc: PlayError, record: PlayGame, seat: int | None = None) -> Response:
    if exc.status == status.HTTP_409_CONFLICT:
        return Response({"detail": str(exc), "state": state_answer(record, seat)},
                        status=status.HTTP_409_CONFLICT)
    if exc.status == status.HTTP_403_FORBIDDEN:
        raise PermissionDenied(str(exc))
    raise ValidationError({exc.field: [str(exc)]} if exc.field else {"detail": str(exc)})


class StartInputSerializer(StrictSerializer):
    deck = serializers.CharField(max_length=120, help_text=(
        'Your deck: a saved deck\'s id, "starter:<name>" or "draft" (the builder\'s).'))
    opponent_deck = serializers.CharField(max_length=120, help_text="The other seat's deck.")
    opponent = serializers.ChoiceField(choices=[HUMAN, *AGENT_NAMES], default=AGENT_NAMES[0],
                                       help_text='An AI player, or "human" to play both seats.')
    first = serializers.ChoiceField(choices=services.FIRST_CHOICES, default="random")
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=0,
                                    max_value=2**31 - 1)
    ruleset = serializers.DictField(required=False, help_text='e.g. {"hero_advantage": false}')


class VersionSerializer(StrictSerializer):
    version = serializers.IntegerField(min_value=0, help_text="The version the change is on.")
    seat = serializers.IntegerField(min_value=0, max_value=1, required=False,
                                    help_text="Undo and concede: whose (default: yours).")


@extend_schema_field(action_schema())
class ActionField(serializers.Field):  # type: ignore[type-arg]
    """An action read strictly (``play.engine.action_input``): a 400 naming the field at fault."""

    def to_internal_value(self, data: Any) -> Action:
        try:
            return action_read(data)
        except ActionInputError as exc:
            raise ValidationError({name: [text] for name, text in exc.problems.items()}) \
                from None

    def to_representation(self, value: Any) -> Any:
        return value.to_dict() if isinstance(value, Action) else value


class ActInputSerializer(VersionSerializer):
    action = ActionField(help_text='One of the legal actions, e.g. {"kind": "end"}.')


class ShareSerializer(StrictSerializer):
    shared = StrictBooleanField(help_text="Anyone with the link may watch the replay.")


def _seat(request: Request, record: PlayGame) -> int | None:
    raw = request.query_params.get("seat")
    if raw is None:
        return None
    if raw not in ("0", "1"):
        raise ValidationError({"seat": [str(SEAT_CHOICE)]})
    return int(raw)


def _own_seat(record: PlayGame, data: Mapping[str, Any], user: Any) -> int:
    return acting_seat(record, user, data.get("seat"))


class PlayListCreateApi(APIView):
    """Your games, the latest first; POST starts one (you play P1)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="play_list",
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT)})
    def get(self, request: Request) -> Response:
        games = plays_listed(request.user)[:100]
        return Response({"results": [{"uid": g.uid, "title": str(g), "status": g.status,
                                      "seats": g.seats, "result": g.result,
                                      "updated_at": g.updated_at} for g in games]})

    @extend_schema(operation_id="play_create", request=StartInputSerializer,
                   responses={201: STATE})
    def post(self, request: Request) -> Response:
        data = StartInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            record = services.play_start(
                owner=request.user, deck=deck_resolve(request, v["deck"], "deck"),
                opponent_deck=deck_resolve(request, v["opponent_deck"], "opponent_deck"),
                opponent=v["opponent"], ruleset=v.get("ruleset"), first=v["first"],
                seed=v.get("seed"))
        except PlayError as exc:
            raise ValidationError({exc.field or "detail": [str(exc)]}) from None
        return Response(state_answer(record), status=status.HTTP_201_CREATED)


class PlayDetailApi(APIView):
    """A seat's state of your game (the agent to move, if any, is set to play)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[UID, SEAT, SINCE, AT_STEP], responses={200: STATE, 304: UNCHANGED})
    def get(self, request: Request, uid: str) -> Response:
        record = play_read(uid=uid, user=request.user)
        seat = viewer_seat(record, request.user, _seat(request, record))
        since = _step_param(request, "since", record)
        step = _step_param(request, "step", record)
        tag = _unchanged_tag(record, seat, since, step)
        if tag is not None and tag in parse_etags(request.headers.get("If-None-Match", "")):
            response = Response(status=status.HTTP_304_NOT_MODIFIED)
        else:
            response = Response(state_answer(record, seat, step=step, since=since))
        if tag is not None:
            response["ETag"] = tag
        return response


def _unchanged_tag(record: PlayGame, seat: int | None, since: int | None,
                   step: int | None) -> str | None:
    """The ETag of a game between people's state as this read would send it: every change of
    the game (a move, the clock) raises its version, so a poll that sends the last tag back
    (``If-None-Match``) while nothing changed gets a 304 and costs no replay. None against an
    agent, whose poll also sets the agent to play (and may report its failure)."""
    if not record.friendly:
        return None
    return quote_etag(f"{record.uid}.{record.version}.{seat}.{since}.{step}.{get_language()}")


class _ChangeApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    input_class: type[serializers.Serializer[Mapping[str, Any]]] = VersionSerializer

    def change(self, record: PlayGame, data: Mapping[str, Any]) -> PlayGame:
        raise NotImplementedError

    def post(self, request: Request, uid: str) -> Response:
        record = play_read(uid=uid, user=request.user)
        data = self.input_class(data=request.data)
        data.is_valid(raise_exception=True)
        seat = viewer_seat(record, request.user, None)
        try:
            record = self.change(record, data.validated_data)
        except PlayError as exc:
            return _refused(exc, record, seat)
        return Response(state_answer(record, seat))


_View = TypeVar("_View", bound=Callable[..., Response])


def _change_schema(request_class: type[serializers.Serializer[Mapping[str, Any]]],
                   summary: str) -> Callable[[_View], _View]:
    return extend_schema(parameters=[UID], request=request_class, summary=summary,
                         responses={200: STATE, 409: CONFLICT})


class PlayActApi(_ChangeApi):
    input_class = ActInputSerializer

    @_change_schema(ActInputSerializer, "Play one of the legal actions of the seat to move.")
    def post(self, request: Request, uid: str) -> Response:
        return super().post(request, uid)

    def change(self, record: PlayGame, data: Mapping[str, Any]) -> PlayGame:
        return services.play_act(record=record, action=data["action"], version=data["version"],
                                 by=self.request.user)


class PlayUndoApi(_ChangeApi):
    @_change_schema(VersionSerializer, "Back to the start of the seat's latest turn.")
    def post(self, request: Request, uid: str) -> Response:
        return super().post(request, uid)

    def change(self, record: PlayGame, data: Mapping[str, Any]) -> PlayGame:
        return services.play_undo(record=record, seat=_own_seat(record, data, self.request.user),
                                  version=data["version"])


class PlayRestartApi(_ChangeApi):
    @_change_schema(VersionSerializer, "The same game again from the start (same seed).")
    def post(self, request: Request, uid: str) -> Response:
        return super().post(request, uid)

    def change(self, record: PlayGame, data: Mapping[str, Any]) -> PlayGame:
        return services.play_restart(record=record, version=data["version"])


class PlayConcedeApi(_ChangeApi):
    @extend_schema(parameters=[UID], request=VersionSerializer,
                   summary="The seat gives up; the other wins (your own seat only: conceding "
                           "for the AI is a 403).",
                   responses={200: STATE, 409: CONFLICT})
    def post(self, request: Request, uid: str) -> Response:
        return super().post(request, uid)

    def change(self, record: PlayGame, data: Mapping[str, Any]) -> PlayGame:
        return services.play_concede(record=record, seat=_own_seat(record, data,
                                                                   self.request.user),
                                     version=data["version"], by=self.request.user)


class PlayRetryApi(APIView):
    """Let the AI try its failed move again (the state's `agent_error`): the answer is the state,
    the AI set to play; poll it as after any change."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[UID], request=VersionSerializer,
                   summary="Let the AI try again after a failed move.",
                   responses={200: STATE, 409: CONFLICT})
    def post(self, request: Request, uid: str) -> Response:
        record = play_read(uid=uid, user=request.user)
        data = VersionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seat = viewer_seat(record, request.user, None)
        if data.validated_data["version"] != record.version:
            return _refused(PlayConflict(str(STALE)), record, seat)
        if agent_to_move(record) is None:
            raise ValidationError({"detail": str(NOTHING_TO_RETRY)})
        agent_retry(record.uid)
        return Response(state_answer(record, seat))


class PlayShareApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[UID], request=ShareSerializer,
                   responses={200: OpenApiResponse(OpenApiTypes.OBJECT)})
    def post(self, request: Request, uid: str) -> Response:
        record = play_get(uid=uid, user=request.user)
        data = ShareSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        record = services.play_share(record=record, shared=data.validated_data["shared"])
        return Response({"uid": record.uid, "shared": record.is_shared})


class PlayHintApi(APIView):
    """What would the planner do: its pick and the candidates' ratings (the share of games
    greedy players win from here after the move, hidden cards guessed). ``?seat=`` must be the
    seat to move. ``complete`` is false when the cost cap cut the hint short (``note`` says
    how); ``pick_note`` says how the pick is chosen when it is not the best-rated move."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(parameters=[UID, SEAT], responses={200: OpenApiResponse(OpenApiTypes.OBJECT)})
    def get(self, request: Request, uid: str) -> Response:
        record = play_get(uid=uid, user=request.user)
        asked = _seat(request, record)
        if record.friendly:
            raise ValidationError({"detail": str(NO_HINT_BETWEEN_PEOPLE)})
        game = game_at(record)
        seat = game.to_move
        if record.over or seat is None or record.seats[seat] != HUMAN:
            raise ValidationError({"detail": str(HINT_NO_DECISION)})
        if asked is not None and asked != seat:
            raise ValidationError({"seat": [str(HINT_NOT_SEAT).format(seat=asked + 1)]})
        labels = hint_labels(game, seat, record.cards)
        hint = hint_of(game, seat, agent_rng(record.seed, len(record.actions)))
        return Response({"seat": seat, "step": len(record.actions), "moves": hint.moves,
                         "complete": hint.complete, **hint_words(hint),
                         "candidates": [{**c.as_dict(), "label": labels[c.action]}
                                        for c in hint.candidates]})
