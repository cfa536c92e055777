"""The game page's other controls: undo, restart, concede, the planner's hint and sharing
(a finished game's replay: ``play.replays.views``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from common.htmx import HtmxHttpRequest
from play import services
from play.ai.hint import hint_of, hint_words
from play.ai.runner import agent_retry
from play.clock.keep import play_read
from play.engine.adapter import agent_rng, game_at
from play.errors import HINT_NO_DECISION, NO_HINT_BETWEEN_PEOPLE
from play.models import HUMAN, PlayGame
from play.seat.board import hint_labels
from play.selectors import acting_seat, play_get
from play.views import _board_response, _seat_param, _version, change_response, seat_for


def _seat(request: HttpRequest, record: PlayGame) -> int:
    return acting_seat(record, request.user, _seat_param(request))


@login_required
@require_POST
def play_undo(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    record = play_read(uid=uid, user=request.user)
    return change_response(request, record, lambda: services.play_undo(
        record=record, seat=_seat(request, record), version=_version(request)),
        seat=seat_for(request, record))


@login_required
@require_POST
def play_restart(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    record = play_read(uid=uid, user=request.user)
    return change_response(request, record, lambda: services.play_restart(
        record=record, version=_version(request)), seat=seat_for(request, record))


@login_required
@require_POST
def play_concede(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    record = play_read(uid=uid, user=request.user)
    return change_response(request, record, lambda: services.play_concede(
        record=record, seat=_seat(request, record), version=_version(request),
        by=request.user), seat=seat_for(request, record))


@login_required
@require_POST
def play_retry(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    """Let the AI try its failed move again, without a reload: the board comes back with the AI
    set to play (the page then polls it as after any action)."""
    record = play_read(uid=uid, user=request.user)
    agent_retry(record.uid)
    if request.htmx:
        return _board_response(request, record, seat=seat_for(request, record))
    url = record.get_absolute_url()
    return redirect(url)


@login_required
@require_GET
def play_hint(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    """The planner's pick and the rated candidates: a small panel for the game page's script,
    a page of the site when opened on its own (a new tab)."""
    record = play_get(uid=uid, user=request.user)
    template = "play/_hint.html" if request.htmx else "play/hint.html"
    if record.friendly:
        return render(request, template, {"error": NO_HINT_BETWEEN_PEOPLE, "game": record},
                      status=400)
    game = game_at(record)
    seat = game.to_move
    if record.over or seat is None or record.seats[seat] != HUMAN:
        return render(request, template, {"error": HINT_NO_DECISION, "game": record},
                      status=400)
    labels = hint_labels(game, seat, record.cards)
    hint = hint_of(game, seat, agent_rng(record.seed, len(record.actions)))
    rows = [{"label": labels[c.action], "rating": c.rating, "games": c.games,
             "pick": c.pick} for c in hint.candidates]
    return render(request, template, {"rows": rows, "game": record, **hint_words(hint)})


@login_required
@require_POST
def play_share(request: HttpRequest, uid: str) -> HttpResponse:
    record = play_get(uid=uid, user=request.user)
    services.play_share(record=record, shared=request.POST.get("shared") == "1")
    return redirect("play:replay", uid=record.uid)
