"""Site-wide pages that belong to no app: the front page and the error pages.

The error handlers answer every status with the site's own page (navigation, a sentence, a way
back: ``templates/<status>.html``), never Django's debug or bare pages; under /api/ they answer
JSON like the API's own errors. A request body over Django's upload cap
(``DATA_UPLOAD_MAX_MEMORY_SIZE``) is a 413 saying so, as the import API answers, not a 400.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from common.language import reader_language
from config.checks import RUN_COLLECTSTATIC, static_manifest_missing
from config.rulebook import is_original, rule_book, rule_book_language

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

logger = logging.getLogger(__name__)

BAD_REQUEST = gettext_lazy("The request could not be read; check it and try again.")
FORBIDDEN = gettext_lazy("You do not have permission to do this.")
NOT_FOUND = gettext_lazy("There is nothing at this address.")
# The facts only: the 413 page gives the advice, once (templates/413.html).
TOO_LARGE = gettext_lazy(
    "What you sent is {size} bytes; a form on this site takes at most {limit} bytes. Nothing "
    "was saved."
)
SERVER_ERROR = gettext_lazy("The site failed to answer this request; try again in a moment.")
STATIC_NOT_COLLECTED_PAGE = gettext_lazy(
    "The site is running with DEBUG off but its static files are not collected, so no page can "
    "be shown.")


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what Cardlab is and where to go next."""
    return render(request, "home.html")


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The rule book in the page's language: RULES.md, or the original Chinese RULES.zh.md."""
    book = rule_book_language(reader_language())
    html, sections = rule_book(book)
    return render(request, "rules.html", {"rules_html": html, "sections": sections,
                                          "book_lang": book, "original": is_original(book)})


@require_safe
def health(request: HttpRequest) -> HttpResponse:
    """The least a page of this site can cost: the whole middleware stack, no template, no query.

    Load balancers poll it, and the load benchmark measures it beside every page as the ceiling
    of this stack on the machine (``manage.py loadtest``).
    """
    return HttpResponse(b"ok\n", content_type="text/plain")


@require_safe
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico on pages without an icon link (the admin's, say)."""
    return redirect(static("img/favicon.svg"), permanent=True)


def _answer(request: HttpRequest, status: int, detail: StrOrPromise = "") -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail}, status=status)
    return render(request, f"{status}.html", {"detail": detail, "status": status},
                  status=status)


def request_too_large(request: HttpRequest) -> HttpResponse:
    """The 413 for a body over Django's upload cap: the size, the limit and what to do, and
    on a page a link back to the form (what was typed is not kept: the body is never read)."""
    try:
        size = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        size = 0
    detail = TOO_LARGE.format(size=f"{size:,}", limit=f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}")
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": detail}, status=413)
    return render(request, "413.html", {"detail": detail, "status": 413,
                                        "back": request.get_full_path()}, status=413)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if isinstance(exception, RequestDataTooBig):
        return request_too_large(request)
    return _answer(request, 400, BAD_REQUEST)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    # PermissionDenied messages are the site's own sentences (e.g. "Only the deck's owner…").
    message = str(exception) if exception is not None and str(exception) else FORBIDDEN
    return _answer(request, 403, message)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _answer(request, 404, NOT_FOUND if request.path.startswith("/api/") else "")


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": SERVER_ERROR}, status=500)
    if static_manifest_missing():   # every page fails the same way: say what fixes it
        logger.error("%s %s", STATIC_NOT_COLLECTED_PAGE, RUN_COLLECTSTATIC)
        return HttpResponse(f"{STATIC_NOT_COLLECTED_PAGE}\n{RUN_COLLECTSTATIC}\n", status=500,
                            content_type="text/plain; charset=utf-8")
    try:
        # No request context: whatever failed may fail again in a context processor.
        return HttpResponse(render_to_string("500.html", {"status": 500}), status=500)
    except Exception:  # the error page itself must not fail
        logger.exception("the 500 page could not be rendered")
        return HttpResponse(SERVER_ERROR, status=500, content_type="text/plain; charset=utf-8")
