"""The live stream of a game in the OpenAPI schema: ``/api/play/{uid}/events/`` is a plain
async Django view (a DRF view cannot stream under ASGI), so drf-spectacular does not find it;
this post-processing hook writes its operation in."""

from __future__ import annotations

from typing import Any


def stream_parameters() -> list[dict[str, Any]]:
    """What every game stream takes: the game, and the step and version the client has (new
    objects each time: a schema that shares one would be written with YAML aliases)."""
    return [
        {"name": "uid", "in": "path", "required": True, "schema": {"type": "string"},
         "description": "The game's id."},
        {"name": "since", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 0},
         "description": "The step you have (the `steps` of your last read)."},
        {"name": "version", "in": "query", "required": False,
         "schema": {"type": "integer", "minimum": 0},
         "description": "The version you have: another one now is sent at once."}]


EVENTS_PATH = "/api/play/{uid}/events/"
ERROR = {"$ref": "#/components/schemas/Error"}
VALIDATION = {"$ref": "#/components/schemas/ValidationError"}


def _json(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def stream_path(result: dict[str, Any], generator: Any, request: Any, public: bool
                ) -> dict[str, Any]:
    result.setdefault("paths", {})[EVENTS_PATH] = {"get": {
        "operationId": "play_events",
        "summary": "Follow a game live: server-sent events of your seat's state.",
        "description": (
            "A stream of `event: state` messages, one per change of the game (the other "
            "player's move, the clock ending a turn, a concession, a timeout), each `data:` the "
            "seat's state as `GET /api/play/{uid}/?since=<step>` sends it (the log and moves "
            "since the step you had, `clock`, `players`) and `id:` `<version>:<step>`. It "
            "starts at `since` (default: now; on reconnecting, the browser's `Last-Event-ID`) "
            "and ends after the game's last state. A comment line every 15 s keeps it open. "
            "Between people the seat is always your own; in another game, `seat` as for the "
            "state. A game between people's stream also sends `event: watchers` "
            "(`{\"watchers\": n}`) when the count of its spectators changes."),
        "tags": ["play"],
        "parameters": [
            *stream_parameters(),
            {"name": "seat", "in": "query", "required": False,
             "schema": {"type": "integer", "enum": [0, 1]},
             "description": "A hot-seat game's seat; ignored between people."}],
        "responses": {
            "200": {"description": "The stream.",
                    "content": {"text/event-stream": {"schema": {"type": "string"}}}},
            "400": _json("`since` is not a step of the game: {since: [what to give]}.",
                         VALIDATION),
            "401": _json("Not signed in, or HTTP basic credentials that are wrong (the "
                         "WWW-Authenticate header names the Basic challenge).", ERROR),
            "403": _json("Refused, as the API's permission checks answer (another's game is "
                         "a 404 here, as a missing one).", ERROR),
            "404": _json("No such game of yours.", ERROR),
            "429": _json("Too many failed log-ins with these credentials: Retry-After says "
                         "how long to wait.", ERROR)},
        "security": [{"basicAuth": []}, {"cookieAuth": []}]}}
    return result
