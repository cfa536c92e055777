"""The replay page of a finished game."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from common.numbers import whole_number
from play.replays.context import replay_context
from play.selectors import play_replay_get


@require_GET
def play_replay(request: HttpRequest, uid: str) -> HttpResponse:
    """A finished game in the replay viewer: the owner's, or anyone's once it is shared."""
    record = play_replay_get(uid=uid, user=request.user)
    step = request.GET.get("step", "")
    context = replay_context(record, (whole_number(step) or 0), request.user)
    context["is_owner"] = record.is_player(request.user)
    return render(request, "play/replay.html", context)
