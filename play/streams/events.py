"""``GET /api/play/<uid>/events/``: a game followed live, as server-sent events.

Each event is the reader's seat's state after a change, as ``GET /api/play/<uid>/?since=<step>``
sends it (``event: state``, ``id:`` the game's version): the log lines and moves since the
step the reader last had, the clock, whose turn it is. The stream starts from ``?since=`` (or
the browser's ``Last-Event-ID`` when it reconnects) and ends after the game's last state.

Under ASGI (``./run.sh``: gunicorn with uvicorn's workers) a stream is a coroutine waiting on an
``asyncio.Event`` that the process's watcher (``play.streams.watch``) sets when the game's version
moves: a waiting page costs no thread, no request and no replay — only its share of the
watcher's one query per 0.2 s. A comment line every ``KEEPALIVE`` seconds keeps proxies from
closing it. A reader behind the game when it connects (moves after its step, a version it
has not seen, the game over) gets the game as it stands first. Served by a synchronous (WSGI)
server (``./run.sh --dev``, the test server) the view checks the version every 0.2 s for
``PLAY_STREAM_HOLD`` seconds, then ends with ``retry:`` and the browser reconnects: the same
events, a held thread per page.

What a stream sends is its ``Feed``: a seat's state here, a spectator's in
``play.spectators.events``. Besides the state, a game between people's stream sends
``event: watchers`` (``{"watchers": n}``) as it opens when someone watches, and whenever the
count of spectators changes (the watcher counts them once a second); a stream whose reader may
no longer read the game sends ``event: closed`` and ends.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import AuthenticationFailed, MethodNotAllowed, Throttled
from rest_framework.request import Request

from accounts.auth import ThrottledBasicAuthentication
from common.numbers import whole_number
from play import conf
from play.ai.runner import agent_wake
from play.clock.keep import clock_keep, play_read
from play.models import PlayGame
from play.seat.state import state_data
from play.selectors import acting_seat, play_reread, viewer_seat
from play.spectators.presence import spectators_touch, watchers_count
from play.streams.watch import CLOCK_EVERY, WATCHER, Waiter

KEEPALIVE = 15.0
RETRY_MS = 1000
NOT_SIGNED_IN = gettext_lazy("Log in to follow a game (the site's session, or HTTP basic "
                             "credentials from a script).")
BAD_SINCE = gettext_lazy("Give since as a whole number from 0 to {steps} (the game's steps).")


def _since(request: HttpRequest, record: PlayGame) -> tuple[int, int | None]:
    """The step the reader has and the version it saw (None: not said): the browser's
    ``Last-Event-ID`` (``<version>:<step>``) when it reconnects, else ``?since=`` and
    ``?version=``."""
    last = request.headers.get("Last-Event-ID") or ""
    if ":" in last:
        seen, raw = last.split(":", 1)
    else:
        seen, raw = request.GET.get("version", ""), request.GET.get("since", "")
    if not raw:
        return len(record.actions), None
    since = whole_number(raw)
    if since is None or since > len(record.actions):
        raise ValueError(str(BAD_SINCE).format(steps=len(record.actions)))
    return since, whole_number(seen)


def _behind(record: PlayGame, since: int, version: int | None) -> bool:
    """Whether the reader lacks the game as it stands: moves after its step, a version it has
    not seen (the clock started, a turn ended by the clock), or the game's end."""
    return (since < len(record.actions) or record.over
            or (version is not None and version != record.version))


def _event(record: PlayGame, seat: int | None, since: int) -> tuple[str, int, bool]:
    """The state event for the reader (the ``?since=`` delta) and the step it reaches."""
    record, failure = agent_wake(record)
    state = state_data(record, seat, since=since, agent_error=failure)
    text = json.dumps(state, default=str, separators=(",", ":"))
    steps = int(state["steps"])
    return (f"id: {record.version}:{steps}\nevent: state\ndata: {text}\n\n", steps,
            record.over)


def _fresh(uid: str, user: Any, seat: int | None, since: int) -> tuple[str, int, bool, int]:
    record = play_read(uid=uid, user=user)
    text, steps, over = _event(record, seat, since)
    return text, steps, over, record.version


def _basic_user(request: HttpRequest) -> Any:
    """The user of HTTP basic credentials, the API's way in for a script, checked and throttled
    as on every other API address (None without them)."""
    found = ThrottledBasicAuthentication().authenticate(Request(request))
    return found[0] if found else None


def _challenge(request: HttpRequest) -> str:
    """The way in a refused reader is told of, as the rest of the API tells it: ``Basic`` to a
    script, the log-in form to a browser with the site's cookies (whose session ended), so an
    EventSource reconnecting never brings up the browser's own password dialog."""
    return ThrottledBasicAuthentication().authenticate_header(Request(request)) or ""


@dataclass
class Feed:
    """What one stream sends its reader: ``event`` is the reader's event at a step of ``record``
    (text, the step it reaches, whether the game is over); ``fresh`` reads the game again as
    the reader may (``Http404`` once they may not: the stream says so and ends). ``seat`` is
    a player's (their presence), ``spectator`` a spectator's user id (theirs)."""

    record: PlayGame
    event: Callable[[PlayGame, int], tuple[str, int, bool]]
    fresh: Callable[[int], tuple[str, int, bool, int]]
    seat: int | None = None
    spectator: int | None = None


def _seat_feed(uid: str, user: Any, seat: int | None, record: PlayGame) -> Feed:
    return Feed(record=record, event=lambda found, since: _event(found, seat, since),
                fresh=lambda since: _fresh(uid, user, seat, since), seat=seat)


def _watchers(record: PlayGame) -> int:
    """How many watch a game between people now (0 for any other game: none may)."""
    return watchers_count([record.pk]).get(record.pk, 0) if record.friendly else 0


def watchers_event(count: int) -> str:
    return f"event: watchers\ndata: {json.dumps({'watchers': count})}\n\n"


def closed_event(reason: str) -> str:
    return f"event: closed\ndata: {json.dumps({'detail': reason})}\n\n"


async def stream_user(request: HttpRequest) -> Any:
    """The reader of a stream (the site's session, or HTTP basic credentials), or the refusal
    to answer with: 405 for a method but GET, 401 without a way in, 429 when throttled."""
    if request.method != "GET":
        # Checked in the view, not by the URL conf alone: config/asgi.py routes this path
        # straight to the coroutine, so the view is what both servers answer with.
        refused = MethodNotAllowed(str(request.method))
        return JsonResponse({"detail": str(refused.detail)}, status=405,
                            headers={"Allow": "GET"})
    user = await request.auser()
    if not user.is_authenticated:
        try:
            user = await sync_to_async(_basic_user, thread_sensitive=False)(request) or user
        except Throttled as exc:
            wait = getattr(exc, "wait", None)       # DRF sets it; its stubs do not say so
            return JsonResponse({"detail": str(exc.detail)}, status=429,
                                headers={"Retry-After": str(wait)} if wait else None)
        except AuthenticationFailed as exc:
            return JsonResponse({"detail": str(exc.detail)}, status=401,
                                headers={"WWW-Authenticate": _challenge(request)})
    if not user.is_authenticated:
        return JsonResponse({"detail": str(NOT_SIGNED_IN)}, status=401,
                            headers={"WWW-Authenticate": _challenge(request)})
    return user


def stream_response(request: HttpRequest, feed: Feed) -> HttpResponseBase:
    """The stream of ``feed`` from the reader's step (``?since=`` or ``Last-Event-ID``): async
    under ASGI, held a while under a synchronous server; 400 for a step past the game's."""
    try:
        since, version = _since(request, feed.record)
    except ValueError as exc:
        return JsonResponse({"since": [str(exc)]}, status=400)
    behind = _behind(feed.record, since, version)
    if isinstance(request, ASGIRequest):
        body: Any = _stream(feed, since, behind)
    else:
        body = _held(feed, since, behind)
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


@csrf_exempt        # it changes nothing: any method but GET is a 405, not a CSRF page
async def play_events(request: HttpRequest, uid: str) -> HttpResponseBase:
    user = await stream_user(request)
    if isinstance(user, HttpResponseBase):
        return user
    try:
        record = await sync_to_async(play_read, thread_sensitive=False)(uid=uid, user=user)
    except Http404 as exc:
        return JsonResponse({"detail": str(exc)}, status=404)
    asked = request.GET.get("seat")
    seat = viewer_seat(record, user, int(asked) if asked in ("0", "1") else None)
    if seat is None and not record.friendly:
        seat = acting_seat(record, user, None)       # the person's own seat against an agent
    return stream_response(request, _seat_feed(uid, user, seat, record))


async def _stream(feed: Feed, since: int, behind: bool) -> AsyncIterator[str]:
    record = feed.record
    watchers = await sync_to_async(_watchers, thread_sensitive=False)(record)
    waiter = Waiter(game_id=record.pk, seat=feed.seat, version=record.version,
                    loop=asyncio.get_running_loop(), spectator=feed.spectator,
                    watchers=watchers)
    WATCHER.add(waiter)
    sent = record.version
    try:
        yield f"retry: {RETRY_MS}\n\n"
        if watchers > 0:
            yield watchers_event(watchers)       # the count as the stream opens
        if behind:
            text, since, over = await sync_to_async(feed.event, thread_sensitive=False)(
                record, since)
            yield text
            if over:
                return
        while True:
            try:
                await asyncio.wait_for(waiter.event.wait(), KEEPALIVE)
            except TimeoutError:
                yield ": still here\n\n"
                continue
            waiter.event.clear()
            if waiter.version == sent:          # not a change of the game: who watches
                if waiter.watchers != watchers:
                    watchers = waiter.watchers
                    yield watchers_event(watchers)
                continue
            try:
                text, since, over, sent = await sync_to_async(
                    feed.fresh, thread_sensitive=False)(since)
            except Http404 as exc:
                yield closed_event(str(exc))
                return
            waiter.version = sent
            yield text
            if over:
                return
    finally:
        WATCHER.remove(waiter)


def _held(feed: Feed, since: int, behind: bool) -> Iterator[str]:
    """The WSGI stand-in: hold the connection a while, checking the version every 0.2 s and
    the watchers every second."""
    yield f"retry: {RETRY_MS}\n\n"
    record = feed.record
    version, watchers = record.version, _watchers(record)
    if watchers > 0:
        yield watchers_event(watchers)
    if behind:
        text, since, over = feed.event(record, since)
        yield text
        if over:
            return
    deadline = time.monotonic() + conf.stream_hold_seconds()
    beats = 0
    while time.monotonic() < deadline:
        time.sleep(conf.watch_seconds())
        found = play_reread(record)
        if found is None:
            return
        found = clock_keep(found, seat=feed.seat)   # no watcher thread here: the clock is kept
        if feed.spectator is not None:
            spectators_touch([(record.pk, feed.spectator)])
        beats += 1
        if beats % CLOCK_EVERY == 0:            # who watches: counted once a second
            counted = _watchers(record)
            if counted != watchers:
                watchers = counted
                yield watchers_event(watchers)
        if found.version != version:
            try:
                text, since, over, version = feed.fresh(since)
            except Http404 as exc:
                yield closed_event(str(exc))
                return
            yield text
            if over:
                return
