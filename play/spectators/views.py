"""The spectator's page (``/play/<uid>/watch/``): the board as a shared replay shows it —
neither hand, no face-down minion — at the game's latest step with the whole log so far,
followed live (``static/play/watch.js`` on the spectator's stream fetches the board again at
each move), and no controls. A player of the game is sent to their seat; a game that may not
be watched is a 404. And a player's consent, changed from their board."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from common.htmx import HtmxHttpRequest
from play.clock.keep import play_read
from play.engine.adapter import game_history
from play.errors import PlayError
from play.models import PlayGame
from play.replays.context import replay_context
from play.spectators.presence import spectators_touch, watchers_count
from play.spectators.selectors import spectate_get
from play.spectators.services import spectators_allow
from play.spectators.state import spectator_lines
from play.views import change_response, seat_for

ALLOW_CHOICE = gettext_lazy("Give allow as 1 (allow spectators) or 0 (stop allowing them).")


def watch_context(record: PlayGame, user: Any) -> dict[str, Any]:
    """The replay viewer's context at the latest step, seen by a spectator (the shared
    replay's redaction), its log the whole game so far."""
    history = game_history(record)
    context = replay_context(record, history.steps, user)
    context["board"].events = [text for _, text in spectator_lines(record, history)]
    context["log_title"] = gettext_lazy("The game so far")
    context["watchers"] = watchers_count([record.pk]).get(record.pk, 0)
    return context


def _spectated(request: HttpRequest, uid: str) -> PlayGame | None:
    """The game for a spectator (404 if it may not be watched); None for one of its players."""
    record = spectate_get(uid=uid, user=request.user)
    if record.is_player(request.user):
        return None
    spectators_touch([(record.pk, request.user.pk)])
    return record


@login_required
@require_GET
def watch_page(request: HttpRequest, uid: str) -> HttpResponse:
    record = _spectated(request, uid)
    if record is None:
        return redirect("play:game", uid)          # a player watches from their own seat
    return render(request, "play/watch.html", watch_context(record, request.user))


@login_required
@require_GET
def watch_board(request: HttpRequest, uid: str) -> HttpResponse:
    """The spectator's board alone: the page fetches it when its stream says the game moved."""
    record = _spectated(request, uid)
    if record is None:
        return redirect("play:game", uid)
    return render(request, "play/_watch_board.html", watch_context(record, request.user))


@login_required
@require_POST
def spectators_change(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    """A player allows spectators, or stops allowing them (the board's own form)."""
    record = play_read(uid=uid, user=request.user)
    raw = request.POST.get("allow")

    def change() -> PlayGame:
        if raw not in ("0", "1"):
            raise PlayError(str(ALLOW_CHOICE), "allow")
        return spectators_allow(record=record, by=request.user, allow=raw == "1")

    return change_response(request, record, change, seat=seat_for(request, record))
