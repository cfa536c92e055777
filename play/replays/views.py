"""The replay page of a finished game, and playing on from one of its steps."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from common.numbers import whole_number
from play.errors import PlayError
from play.models import PlayGame
from play.replays.context import replay_context
from play.replays.forms import PlayOnForm
from play.replays.play_on import play_on_refusal, play_on_seat, play_on_start
from play.selectors import play_replay_get


@require_GET
def play_replay(request: HttpRequest, uid: str) -> HttpResponse:
    """A finished game in the replay viewer: the owner's, or anyone's once it is shared."""
    record = play_replay_get(uid=uid, user=request.user)
    step = request.GET.get("step", "")
    context = replay_context(record, (whole_number(step) or 0), request.user)
    context["is_owner"] = record.is_player(request.user)
    context["play_on"] = _play_on_context(request, record, context["board"].step)
    return render(request, "play/replay.html", context)


def _play_on_context(request: HttpRequest, record: PlayGame, step: int,
                     form: PlayOnForm | None = None) -> dict[str, Any]:
    """The "Play on from here" form of the step shown, or why that step cannot be played on."""
    fixed = play_on_seat(record, request.user) is not None
    if form is None:
        form = PlayOnForm(initial={"step": step}, seat_fixed=fixed)
    return {"form": form, "refusal": play_on_refusal(record, step), "step": step,
            "choose_seat": "seat" in form.fields}


@login_required
@require_POST
def play_on(request: HttpRequest, uid: str) -> HttpResponse:
    """A new game against an AI player from the step of the replay shown."""
    record = play_replay_get(uid=uid, user=request.user)
    form = PlayOnForm(request.POST, seat_fixed=play_on_seat(record, request.user) is not None)
    if form.is_valid():
        data = form.cleaned_data
        try:
            game = play_on_start(record=record, user=request.user, step=data["step"],
                                 agent=data["agent"], seat=data.get("seat"))
        except PlayError as exc:
            # The step is a hidden field: its errors are the form's own.
            visible = exc.field in form.fields and exc.field != "step"
            form.add_error(exc.field if visible else None, str(exc))
        else:
            return redirect(game)
    step = whole_number(request.POST.get("step", "")) or 0
    context = replay_context(record, step, request.user)
    context["is_owner"] = record.is_player(request.user)
    context["play_on"] = {**_play_on_context(request, record, context["board"].step, form),
                          "open": True}
    return render(request, "play/replay.html", context, status=400)
