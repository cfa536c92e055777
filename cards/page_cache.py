"""Rendered pages kept per process, so the site's busiest pages cost about what a bare response
costs (issue: hundreds of requests a second on two cores).

A page is stored under everything it depends on: the view's own stamp (the catalogue's
generation, a deck's last change…), the address with its query string, the language, the host,
whether htmx asked for a fragment, and who is looking (each signed-in user has their own copy,
so a name in the header or an owner's buttons never reach anyone else). Nothing is ever
invalidated by hand: a change moves the stamp, and the old copies age out of the LRU.

The page is rendered with a placeholder for the CSRF token and each answer gets a fresh token
for its own visitor (``config.context_processors.csrf_placeholder``), so a stored page never
hands one visitor's token to another. The ETag covers the page and the visitor's CSRF cookie:
a browser revalidating with ``If-None-Match`` gets a 304 (``ConditionalGetMiddleware``) only
when the copy it holds is the same page with a token still valid for it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Hashable

from django.conf import settings
from django.contrib import messages
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
from django.utils.cache import quote_etag
from django.utils.translation import get_language

CSRF_PLACEHOLDER = "cardlab-csrf-token-placeholder-5b1c"
RENDERING_FOR_CACHE = "_cardlab_rendering_for_cache"
# Each web process keeps its own pages in memory (a network cache would cost what the page
# saves); it is not one of settings.CACHES, which deployments and tests replace.
_STORE = LocMemCache("cardlab-pages", {"OPTIONS": {"MAX_ENTRIES": 2_000}})


def clear_stored_pages() -> None:
    """Forget every stored page of this process (tests start from none)."""
    _STORE.clear()


def cached_page(request: HttpRequest, build: Callable[[], HttpResponse], *,
                stamp: tuple[Hashable, ...]) -> HttpResponse:
    """The response ``build()`` makes, from the store when the same page for the same ``stamp``
    (and language, address, visitor) was built before.

    Pages showing one-off messages ("Deck saved") are built afresh and not stored, and so is
    any answer that is not a plain page (a redirect, a file, one that sets cookies).
    """
    if request.method not in ("GET", "HEAD") or len(messages.get_messages(request)):
        return build()
    store = _STORE
    key = _key(request, stamp)
    stored = store.get(key)
    if stored is None:
        setattr(request, RENDERING_FOR_CACHE, True)
        try:
            response = build()
        finally:
            setattr(request, RENDERING_FOR_CACHE, False)
        if response.streaming or response.cookies or response.status_code not in (200, 400):
            return _with_token(request, response)
        stored = (response.status_code, response["Content-Type"], bytes(response.content),
                  hashlib.blake2b(response.content, digest_size=12).hexdigest())
        store.set(key, stored, timeout=settings.PAGE_CACHE_SECONDS)
    status_code, content_type, body, digest = stored
    answer = HttpResponse(body, content_type=content_type, status=status_code)
    answer = _with_token(request, answer)
    # The CSRF secret this answer's token belongs to (the cookie set now, or the one sent).
    cookie = request.META.get("CSRF_COOKIE") or request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    answer["ETag"] = quote_etag(digest + "-" + hashlib.blake2b(
        cookie.encode(), digest_size=6).hexdigest())
    return answer


def _with_token(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The visitor's own CSRF token in place of the placeholder."""
    if not response.streaming and CSRF_PLACEHOLDER.encode() in response.content:
        response.content = response.content.replace(CSRF_PLACEHOLDER.encode(),
                                                     csrf_token(request).encode())
    return response


def csrf_token(request: HttpRequest) -> str:
    """What ``django.middleware.csrf.get_token`` answers, drawn from one ``os.urandom`` call.

    Django draws each of a token's 64 characters (and a new visitor's 32-character secret) with
    its own call to the system's random source: half the cost of serving a stored page. The
    token is the same: the visitor's secret (a new one when they have no CSRF cookie, which the
    middleware then sets) masked with 32 random characters, which CsrfViewMiddleware unmasks.
    """
    alphabet = CSRF_ALLOWED_CHARS
    secret = request.META.get("CSRF_COOKIE")
    draws = _random_indexes(CSRF_SECRET_LENGTH if secret else 2 * CSRF_SECRET_LENGTH)
    if not secret:
        secret = "".join(alphabet[i] for i in draws[CSRF_SECRET_LENGTH:])
        request.META["CSRF_COOKIE"] = secret
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = draws[:CSRF_SECRET_LENGTH]
    cipher = (alphabet[(alphabet.index(c) + m) % len(alphabet)]
              for c, m in zip(secret, mask, strict=True))
    return "".join(alphabet[i] for i in mask) + "".join(cipher)


def _random_indexes(count: int) -> list[int]:
    """``count`` positions in the CSRF alphabet, uniform: bytes past the last whole multiple of
    the alphabet's length are dropped rather than folded onto its first letters."""
    size = len(CSRF_ALLOWED_CHARS)
    limit = 256 - 256 % size
    out: list[int] = []
    while len(out) < count:
        out.extend(b % size for b in os.urandom(count + count // 4) if b < limit)
    return out[:count]


def _key(request: HttpRequest, stamp: tuple[Hashable, ...]) -> str:
    user = request.user.pk if request.user.is_authenticated else 0
    view = request.resolver_match.view_name if request.resolver_match else ""
    parts = (view, stamp, request.get_full_path(), request.get_host(), get_language(),
             bool(request.headers.get("HX-Request")), request.headers.get("HX-Boosted", ""),
             user)
    return "page:" + hashlib.blake2b(repr(parts).encode(), digest_size=20).hexdigest()
