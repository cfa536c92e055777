"""``GET /api/play/<uid>/watch/events/``: a game followed live by a spectator, as server-sent
events — the seats' stream (``play.streams.events``: async under ASGI, one watcher per process)
with the spectator's events: ``event: state`` is ``GET /api/play/<uid>/watch/?since=<step>``
(what happened since, as a spectator may know it), ``event: watchers`` the count of spectators
when it changes, and ``event: closed`` when the game may no longer be watched (a player stopped
allowing it), after which the stream ends. A player of the game is sent to their seat's stream;
anyone else gets the 404 of a game that does not exist."""

from __future__ import annotations

import json
from typing import Any

from asgiref.sync import sync_to_async
from django.http import Http404, HttpRequest, HttpResponseRedirect, JsonResponse
from django.http.response import HttpResponseBase
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt

from play.models import PlayGame
from play.spectators.presence import spectators_touch, watchers_count
from play.spectators.selectors import spectate_get
from play.spectators.state import spectator_data
from play.streams.events import Feed, stream_response, stream_user


def spectator_event(record: PlayGame, since: int) -> tuple[str, int, bool]:
    """The spectator's state event from ``since`` (text, the step it reaches, over)."""
    count = watchers_count([record.pk]).get(record.pk, 0)
    state = spectator_data(record, since=since, watchers=count)
    text = json.dumps(state, default=str, separators=(",", ":"))
    return (f"id: {record.version}:{state['steps']}\nevent: state\ndata: {text}\n\n",
            int(state["steps"]), record.over)


def _fresh(uid: str, user: Any, since: int) -> tuple[str, int, bool, int]:
    record = spectate_get(uid=uid, user=user)     # Http404 once it may not be watched
    spectators_touch([(record.pk, user.pk)])
    text, steps, over = spectator_event(record, since)
    return text, steps, over, record.version


def _open(uid: str, user: Any) -> PlayGame:
    record = spectate_get(uid=uid, user=user)
    if not record.is_player(user):
        spectators_touch([(record.pk, user.pk)])
    return record


@csrf_exempt        # it changes nothing: any method but GET is a 405, not a CSRF page
async def spectator_events(request: HttpRequest, uid: str) -> HttpResponseBase:
    user = await stream_user(request)
    if isinstance(user, HttpResponseBase):
        return user
    try:
        record = await sync_to_async(_open, thread_sensitive=False)(uid, user)
    except Http404 as exc:
        return JsonResponse({"detail": str(exc)}, status=404)
    if record.is_player(user):
        query = request.META.get("QUERY_STRING", "")
        url = reverse("play-api:events", args=[uid])
        return HttpResponseRedirect(f"{url}?{query}" if query else url)
    feed = Feed(record=record, event=spectator_event,
                fresh=lambda since: _fresh(uid, user, since), spectator=user.pk)
    return stream_response(request, feed)
