"""Request checks that hold for every page and API endpoint."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from django.contrib.auth import get_user
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponseBadRequest, JsonResponse, QueryDict
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import MethodNotAllowed

from config.views import request_too_large

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

NUL_MESSAGE = gettext_lazy(
    "The address or a query parameter contains a NUL character (\\x00), which no field "
    "accepts; remove it and try again."
)


GetResponse = Callable[[HttpRequest], HttpResponseBase]


def _has_nul(params: QueryDict) -> bool:
    return any("\x00" in key or any("\x00" in value for value in values)
               for key, values in params.lists())


class RejectNulCharactersMiddleware:
    """Refuse a request whose path or query string holds a NUL character, with a 400.

    PostgreSQL text cannot hold NUL. Views read URL parts and query parameters raw (deck uids,
    search queries, filters) and pass them to queries, which then failed with a 500; checking
    once here covers every such view, present and future. Bodies are left to the views: forms
    and the API's serializers refuse NUL with a field error on the page the user filled in
    (nothing typed is lost), and the builder's raw card code is checked where it is read."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if "\x00" in request.path or _has_nul(request.GET):
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": NUL_MESSAGE}, status=400)
            return HttpResponseBadRequest(NUL_MESSAGE, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


EMPTY_QUERY_VALUE = gettext_lazy(
    "An empty value: give one, or leave the parameter out of the address."
)


class RejectEmptyApiQueryValuesMiddleware:
    """Refuse an API request whose query string gives a parameter an empty value (``?mine=``),
    with a 400 naming each such parameter.

    DRF and django-filter read an empty query value as "not given" and fall back to a default,
    so ``?mine=`` or ``?page=`` quietly meant something the client did not write, and the schema
    could not say which values are accepted. One rule for every endpoint keeps the schema true
    (``config.schema``: string query parameters have ``minLength: 1``). The pages are left
    alone: their forms send empty selects, which mean "any". Runs after LocaleMiddleware, so
    the message is in the client's language."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path.startswith("/api/"):
            empty = sorted({key for key, values in request.GET.lists()
                            if any(value == "" for value in values)})
            if empty:
                return JsonResponse({key: [str(EMPTY_QUERY_VALUE)] for key in empty},
                                    status=400)
        return self.get_response(request)


class LangQueryMiddleware:
    """Honour the old ``?lang=zh`` / ``?lang=en`` links: the page (card names, rules text and
    images included) is shown in that language for this one request.

    The switcher in the header is the remembered choice; a shared link with ``?lang=`` must not
    overwrite the visitor's own preference, so nothing is stored here. Runs after
    LocaleMiddleware, which has already picked the cookie's or Accept-Language's language."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        wanted = request.GET.get("lang", "")
        if wanted:
            try:
                code = translation.get_supported_language_variant(wanted.lower())
            except LookupError:
                code = None
            if code:
                translation.activate(code)
                request.LANGUAGE_CODE = code
        return self.get_response(request)


class FormBodyTooLargeMiddleware:
    """Answer a page's form post over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` with the site's 413 page
    (the size, the limit, what to do, a link back to the form), in every mode.

    CSRF protection reads the form before any view, and Django answers the RequestDataTooBig
    that raises with its technical page when DEBUG is on (the error handler's 413 only with
    DEBUG off). Reading the form here first, before CsrfViewMiddleware, catches it for every
    page and form, present and future. The API is left to its views: its bodies are JSON,
    which Django does not read as a form. Runs after the language is chosen (the page is in
    the reader's language) and signs the user in for the page's header, as every page has.
    A body a view reads itself (the API's) is caught on its way out (``process_exception``)."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.method not in ("GET", "HEAD", "OPTIONS") and not request.path.startswith(
                "/api/"):
            try:
                request.POST  # noqa: B018  (reads the form: raises when it is over the cap)
            except RequestDataTooBig:
                _sign_in_for_the_page(request)
                return request_too_large(request)
        return self.get_response(request)

    def process_exception(self, request: HttpRequest,
                          exception: Exception) -> HttpResponseBase | None:
        """A body a view reads over the cap (the API's JSON, a file, plain text): the same
        413 naming the limit, with DEBUG on too (Django would answer its technical 400)."""
        if isinstance(exception, RequestDataTooBig):
            return request_too_large(request)
        return None


class ApiMethodNotAllowedMiddleware:
    """Answer an API request whose method its endpoint does not serve (``TRACE``, ``POST`` on a
    list that is only read) with a 405 and the ``Allow`` header, before authentication.

    DRF checks authentication and permissions before the method, so such a request got a 403
    ("credentials were not provided") from one endpoint and a 405 from another, which said
    nothing true about the method. The endpoint's methods are its view's (an address that
    names no endpoint is left to the 404)."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path.startswith("/api/"):
            allowed = _served_methods(request.path_info)
            if allowed and request.method not in allowed:
                detail = MethodNotAllowed(request.method or "").detail
                return JsonResponse({"detail": str(detail)}, status=405,
                                    headers={"Allow": ", ".join(allowed)})
        return self.get_response(request)


def _served_methods(path: str) -> list[str]:
    """The methods the view at ``path`` serves (empty: no view, or not a class-based one)."""
    try:
        view = resolve(path).func
    except Resolver404:
        return []
    view_class = getattr(view, "cls", None) or getattr(view, "view_class", None)
    if view_class is None:
        return []
    return [method.upper() for method in view_class.http_method_names
            if hasattr(view_class, method)]


def _sign_in_for_the_page(request: HttpRequest) -> None:
    """The signed-in user for a page answered before AuthenticationMiddleware runs (its header
    shows who is signed in, as every page's does)."""
    if not hasattr(request, "user"):
        # Lazy, as AuthenticationMiddleware sets it: a User or an AnonymousUser when read.
        request.user = cast("User | AnonymousUser", SimpleLazyObject(lambda: get_user(request)))


MAX_QUERY_STRING = 4096
QUERY_TOO_LONG = gettext_lazy(
    "The address's query is {length} characters long; this site reads at most {limit}. "
    "Shorten the search or the filters and try again."
)


class LongQueryStringMiddleware:
    """Answer a query string over ``MAX_QUERY_STRING`` characters with the site's own 414 (a
    page, or JSON under /api/) saying the limit, in the reader's language.

    No page or filter needs more; a longer one is a mistake or a probe, and reading it costs
    every middleware and filter after this. gunicorn's request line limit (``run.sh``) is set
    above this one, so the site answers rather than gunicorn's bare page."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        length = len(request.META.get("QUERY_STRING", ""))
        if length > MAX_QUERY_STRING:
            detail = QUERY_TOO_LONG.format(length=f"{length:,}", limit=f"{MAX_QUERY_STRING:,}")
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": detail}, status=414)
            _sign_in_for_the_page(request)
            return render(request, "414.html", {"detail": detail, "status": 414}, status=414)
        return self.get_response(request)
