"""The play pages: the new-game form, the game page, its board (refreshed in place by
``static/play/play.js``) and the person's actions.

The board is one partial (``templates/play/_board.html``): the page includes it, and a script
replaces it with the answer of every action and of every step of an agent's turn (``?step=``).
Without the script the forms post and redirect back to the page. Errors come back as the board
with the message, with status 400 (refused) or 409 (the game moved on: the fresh board).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from cards.rulesets import ruleset_words
from common.htmx import HtmxHttpRequest
from common.numbers import whole_number
from play import conf, services
from play.ai.runner import agent_busy, agent_failure, agent_retry, agent_schedule
from play.clock.keep import play_read
from play.clock.periods import clock_state
from play.engine.deck_sources import deck_resolve, play_deck_choices
from play.errors import AGENT_FAILED, BAD_ACTION, PlayError
from play.forms import NewGameForm
from play.models import PlayGame
from play.seat.state import SeatState, seat_state
from play.selectors import game_end_context, plays_listed, viewer_seat
from play.spectators.presence import watchers_count
from play.spectators.selectors import lobby_context

RECENT = 100


@login_required
@require_http_methods(["GET", "POST"])
def play_new(request: HttpRequest) -> HttpResponse:
    decks = play_deck_choices(request, request.GET.get("deck") or request.POST.get("deck"))
    initial = {"deck": request.GET.get("deck"), "opponent_deck": request.GET.get("against")}
    form = NewGameForm(request.POST or None, decks=decks,
                       initial={k: v for k, v in initial.items() if v})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            record = services.play_start(
                owner=request.user, deck=deck_resolve(request, data["deck"], "deck"),
                opponent_deck=deck_resolve(request, data["opponent_deck"], "opponent_deck"),
                opponent=data["opponent"], ruleset=form.ruleset(), first=data["first"],
                seed=data["seed"])
        except PlayError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            return redirect(record)
    return render(request, "play/new.html", {
        "form": form, "games": plays_listed(request.user)[:RECENT],
        **lobby_context(request.user)},
        status=400 if form.errors else 200)


def _seat_param(request: HttpRequest) -> int | None:
    raw = request.GET.get("seat") or request.POST.get("seat")
    return int(raw) if raw in ("0", "1") else None


def _step_param(request: HttpRequest) -> int | None:
    raw = request.GET.get("step", "")
    return whole_number(raw)


def board_context(request: HttpRequest, state: SeatState, *, shown_seat: int | None,
                  error: str = "") -> dict[str, Any]:
    """What ``_board.html`` needs. ``shown_seat``: the seat whose cards this screen may show;
    in a hot-seat game another seat to move gets a cover instead (pass the device)."""
    record, board = state.record, state.board
    to_move = state.history.game.to_move
    cover = (record.hot_seat and not record.over and to_move is not None
             and shown_seat != to_move and board.step == board.steps)
    failure = agent_failure(record.uid, record.version) if state.agent else None
    if state.agent is not None and failure is None and not agent_busy(record.uid):
        agent_schedule(record.uid)
    if failure and not error:
        error = str(AGENT_FAILED).format(problem=failure)
    clock = clock_state(record)
    end = game_end_context(record, request.user) if record.friendly and record.over else None
    return {"game": record, "game_end": end, "board": board, "state": state, "cover": cover,
            "to_move": to_move, "error": error, "agent_failed": bool(failure),
            "delay_ms": int(conf.ai_step_seconds() * 1000),
            "clock": clock, "clock_json": clock, "friendly": record.friendly,
            "my_turn": record.friendly and to_move == board.seat and not record.over,
            "watchers": (watchers_count([record.pk]).get(record.pk, 0) if record.friendly
                         else 0),
            "pending": (state.agent is not None and failure is None)
            or board.step < board.steps}


def _board_response(request: HttpRequest, record: PlayGame, *, seat: int | None,
                    step: int | None = None, error: str = "", status: int = 200) -> HttpResponse:
    state = seat_state(record, seat=seat, step=step)
    context = board_context(request, state, shown_seat=seat, error=error)
    return render(request, "play/_board.html", context, status=status)


def seat_for(request: HttpRequest, record: PlayGame) -> int | None:
    """The seat this person's page shows: their own between people, else the one asked."""
    return viewer_seat(record, request.user, _seat_param(request))


@login_required
@require_GET
def play_game(request: HttpRequest, uid: str) -> HttpResponse:
    record = play_read(uid=uid, user=request.user)
    agent_retry(record.uid)                  # a reload tries an agent that failed once more
    seat = seat_for(request, record)
    state = seat_state(record, seat=seat)
    shown = seat if seat is not None else state.board.seat
    context = board_context(request, state, shown_seat=shown)
    context["rules_summary"] = ruleset_words(record.ruleset).summary
    return render(request, "play/game.html", context)


@login_required
@require_GET
def play_board(request: HttpRequest, uid: str) -> HttpResponse:
    """The board alone, at ``?step=`` (the page steps through an agent's moves with it)."""
    record = play_read(uid=uid, user=request.user)
    return _board_response(request, record, seat=seat_for(request, record),
                           step=_step_param(request))


def change_response(request: HtmxHttpRequest, record: PlayGame, change: Callable[[], PlayGame], *,
                    seat: int | None) -> HttpResponse:
    """Run ``change()`` (a service call); answer with the board (script) or a redirect."""
    try:
        record = change()
    except PlayError as exc:
        return _board_response(request, record, seat=seat, error=str(exc), status=exc.status)
    if request.htmx:
        return _board_response(request, record, seat=seat, step=_step_param(request))
    url = record.get_absolute_url()
    return redirect(f"{url}?seat={seat}" if seat is not None else url)


def _version(request: HttpRequest) -> int:
    raw = request.POST.get("version", "")
    number = whole_number(raw)
    return -1 if number is None else number


@login_required
@require_POST
def play_act(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    record = play_read(uid=uid, user=request.user)

    def act() -> PlayGame:
        try:
            action = json.loads(request.POST.get("action", ""))
        except ValueError as exc:
            raise PlayError(str(BAD_ACTION).format(problem=exc), "action") from None
        if not isinstance(action, dict):
            raise PlayError(str(BAD_ACTION).format(problem=action), "action")
        return services.play_act(record=record, action=action, version=_version(request),
                                 by=request.user)

    return change_response(request, record, act, seat=seat_for(request, record))
