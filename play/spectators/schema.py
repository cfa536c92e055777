"""The spectator's live stream in the OpenAPI schema: ``/api/play/{uid}/watch/events/`` is a
plain async Django view, as the seats' stream is (``play.streams.schema``); this
post-processing hook writes its operation in."""

from __future__ import annotations

from typing import Any

from play.streams.schema import ERROR, VALIDATION, _json, stream_parameters

WATCH_EVENTS_PATH = "/api/play/{uid}/watch/events/"


def spectator_stream_path(result: dict[str, Any], generator: Any, request: Any, public: bool
                          ) -> dict[str, Any]:
    result.setdefault("paths", {})[WATCH_EVENTS_PATH] = {"get": {
        "operationId": "play_watch_events",
        "summary": "Watch a game between people live: server-sent events for a spectator.",
        "description": (
            "`event: state` at each change of the game, its `data:` what "
            "`GET /api/play/{uid}/watch/?since=<step>` sends (the log and moves since the "
            "step you had, as a spectator may know them: neither hand, no face-down minion, "
            "a card from a hand named \"hand-theirs\"), `id:` `<version>:<step>`; "
            "`event: watchers` ({watchers}) when the count of spectators changes; "
            "`event: closed` ({detail}) when a player stops allowing spectators, after which "
            "the stream ends. It starts at `since` (default: now; on reconnecting, the "
            "browser's `Last-Event-ID`) and ends after the game's last state. A player of the "
            "game is sent to their seat's stream (302)."),
        "tags": ["play"],
        "parameters": [
            *stream_parameters()],
        "responses": {
            "200": {"description": "The stream.",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}}},
            "302": {"description": "You play this game: your seat's stream."},
            "400": _json("`since` is not a step of the game: {since: [what to give]}.",
                         VALIDATION),
            "401": _json("Not signed in, or HTTP basic credentials that are wrong.", ERROR),
            "403": _json("Refused, as the API's permission checks answer (a game you may "
                         "not watch is a 404 here, as a missing one).", ERROR),
            "404": _json("No game that you may watch: none by that id, or its players do "
                         "not both allow spectators.", ERROR),
            "405": _json("Any method but GET.", ERROR),
            "429": _json("Too many failed log-ins with these credentials: Retry-After says "
                         "how long to wait.", ERROR)},
        "security": [{"basicAuth": []}, {"cookieAuth": []}]}}
    return result
