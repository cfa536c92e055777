"""Request checks that hold for every page and API endpoint."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBadRequest, JsonResponse, QueryDict

NUL_MESSAGE = ("A request parameter contains a NUL character (\\x00), which no field accepts; "
               "remove it and try again.")


def _has_nul(params: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values)
               for key, values in params.lists())


class RejectNulCharactersMiddleware:
    """Refuse a request whose path or parameters hold a NUL character, with a 400.

    PostgreSQL text cannot hold NUL: forms and API serializers already refuse it, but a view
    that reads a raw parameter (a card code, a deck uid) would pass it to a query and fail with
    a 500. Checking once here covers every view, present and future. Only form-encoded bodies
    are looked at (request.POST); JSON bodies go through the API's serializers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        if "\x00" in request.path or _has_nul(request.GET) or (
                request.method == "POST" and _has_nul(request.POST)):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": NUL_MESSAGE}, status=400)
            return HttpResponseBadRequest(NUL_MESSAGE, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
