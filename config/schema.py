"""The OpenAPI schema's error responses, applied to every operation in one place.

Views document their successful answers; the errors come from mechanisms every endpoint shares,
so this ``AutoSchema`` adds them from what the operation is:

- 400 for every operation (query parameters are checked, and NUL is refused in any of them);
  the body is a ``ValidationError`` (field → messages) or an ``Error`` (``detail``);
- 401 and 403 for every operation (HTTP basic auth with a wrong password; a write that needs an
  account, a deck that is not yours, a form without its CSRF token);
- 404 for operations with a path parameter or a paginated list (``?page=`` past the end), and
  for views that find objects named in the query (``schema_not_found = True`` on the view);
- 413 and 415 for operations with a request body (over the size cap; a media type the API does
  not read);
- 429 for every operation (log-in failures through basic auth; the action throttles).

The API refuses an empty query value (``?order=``) with a 400 before any view reads it
(``config.middleware.RejectEmptyApiQueryValuesMiddleware``), so every string query parameter
says ``minLength: 1``.

``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]`` names this class; ``tests/test_api_schema.py`` checks
that every status the API can answer is in the schema, and schemathesis checks it against a live
server (``tests/test_api_contract.py``).
"""

from __future__ import annotations

from typing import Any, Literal

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent

ERROR = {
    "type": "object",
    "properties": {"detail": {"type": "string", "description": "What went wrong and what to do."}},
    "required": ["detail"],
}
MESSAGES = {"type": "array", "items": {"type": "string"}}
VALIDATION_ERROR = {
    "type": "object",
    "description": "Each field that was refused, with its messages (a nested object for the "
                   "entries of a list or dict field); or a `detail` for the request as a whole. "
                   "An import's `problems` name their line (and column) or path.",
    "properties": {
        "detail": {"type": "string"},
        "non_field_errors": MESSAGES,
        "problems": {"type": "array", "items": {"$ref": "#/components/schemas/ImportProblem"}},
    },
    "additionalProperties": {"oneOf": [MESSAGES, {"type": "object"}]},
}
IMPORT_PROBLEM = {
    "type": "object",
    "properties": {
        "line": {"type": "integer", "nullable": True},
        "column": {"type": "integer", "nullable": True},
        "where": {"type": "string", "nullable": True},
        "code": {"type": "string", "nullable": True,
                 "description": "A deck rule the list breaks, by the code validation gives it "
                                "(e.g. copy_limit); null for a problem reading the input."},
        "message": {"type": "string"},
        "suggestions": MESSAGES,
        "text": {"type": "string", "description": "The problem in one line, with its place."},
    },
    "required": ["line", "column", "where", "code", "message", "suggestions", "text"],
}

DESCRIPTIONS = {
    400: "The request was refused: each field's problems, or a detail.",
    401: "Not signed in, or the credentials sent are wrong: sign in (HTTP basic auth, or the "
         "session cookie of the log-in page); WWW-Authenticate names the way.",
    403: "Not allowed: the object is not yours, or the CSRF token of a session is missing.",
    404: "No such object (another user's private object is not found either), or no such page.",
    413: "The request body is larger than this operation accepts.",
    414: "The address's query string is longer than the site reads (4,096 characters).",
    415: "The request body's media type is not one the API reads.",
    429: "Too many requests of this kind from you; the detail and Retry-After say how long to "
         "wait.",
}
BODY_METHODS = {"POST", "PUT", "PATCH"}


class SiteAutoSchema(AutoSchema):
    def _component(self, name: str, schema: dict[str, Any]) -> dict[str, str]:
        component = ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, schema=schema,
                                      object=name)
        self.registry.register_on_missing(component)
        return component.ref

    def _error_statuses(self) -> list[int]:
        statuses = [400, 401, 403]
        has_path_parameter = "{" in self.path
        if has_path_parameter or getattr(self.view, "schema_not_found", False) or (
                # drf-spectacular leaves its AutoSchema helpers unannotated.
                self.method == "GET"
                and self._get_paginator() is not None  # type: ignore[no-untyped-call]
                and self._is_list_view()):
            statuses.append(404)
        if self.method in BODY_METHODS:
            statuses += [413, 415]
        statuses += [414, 429]         # 414: config.middleware.LongQueryStringMiddleware
        return statuses

    def _get_response_bodies(self, direction: Literal["request", "response"] = "response"
                             ) -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        self._component("ImportProblem", IMPORT_PROBLEM)
        error = self._component("Error", ERROR)
        invalid = self._component("ValidationError", VALIDATION_ERROR)
        for status in self._error_statuses():
            body = invalid if status == 400 else error
            responses.setdefault(str(status), {
                "description": DESCRIPTIONS[status],
                "content": {"application/json": {"schema": body}},
            })
        return responses

    def _get_parameters(self) -> list[dict[str, Any]]:
        parameters = super()._get_parameters()
        for parameter in parameters:
            _refuse_empty(parameter)
        return parameters


def _refuse_empty(parameter: dict[str, Any]) -> None:
    """A string query parameter has at least one character (see the module's docstring)."""
    if not isinstance(parameter, dict) or parameter.get("in") != "query":
        return
    schema = parameter.get("schema", {})
    if schema.get("type") == "string" and "enum" not in schema:
        schema.setdefault("minLength", 1)

