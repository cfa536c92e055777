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
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, NamedTuple

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
from django.utils.translation import get_language

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser

CSRF_PLACEHOLDER = "cardlab-csrf-token-placeholder-5b1c"
RENDERING_FOR_CACHE = "_cardlab_rendering_for_cache"
_PLACEHOLDER = CSRF_PLACEHOLDER.encode()
MAX_STORED_PAGES = 2_000


class StoredPage(NamedTuple):
    status: int
    content_type: str
    parts: tuple[bytes, ...]    # the page cut at each CSRF placeholder
    digest: str
    expires: float


class PageStore:
    """Each web process keeps its own pages in memory (a network cache would cost what the page
    saves); it is not one of settings.CACHES, which deployments and tests replace. The least
    recently served page goes first when it is full. Keys are the tuples a page depends on and
    values are never changed, so nothing is pickled or hashed into a string on the way."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._pages: OrderedDict[Hashable, StoredPage] = OrderedDict()
        self._lock = threading.Lock()     # threaded servers (runserver) share the store

    def get(self, key: Hashable) -> StoredPage | None:
        with self._lock:
            page = self._pages.get(key)
            if page is None:
                return None
            if page.expires < time.monotonic():
                del self._pages[key]
                return None
            self._pages.move_to_end(key)
            return page

    def put(self, key: Hashable, page: StoredPage) -> None:
        with self._lock:
            self._pages[key] = page
            self._pages.move_to_end(key)
            while len(self._pages) > self.size:
                self._pages.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._pages.clear()


_STORE = PageStore(MAX_STORED_PAGES)


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
    key = _key(request, stamp)
    stored = _STORE.get(key)
    if stored is None:
        setattr(request, RENDERING_FOR_CACHE, True)
        try:
            response = build()
        finally:
            setattr(request, RENDERING_FOR_CACHE, False)
        if response.streaming or response.cookies or response.status_code not in (200, 400):
            return _with_token(request, response)
        body = response.content
        stored = StoredPage(response.status_code, response["Content-Type"],
                            tuple(body.split(_PLACEHOLDER)),
                            hashlib.blake2b(body, digest_size=12).hexdigest(),
                            time.monotonic() + settings.PAGE_CACHE_SECONDS)
        _STORE.put(key, stored)
    parts = stored.parts
    body = csrf_token(request).encode().join(parts) if len(parts) > 1 else parts[0]
    answer = HttpResponse(body, content_type=stored.content_type, status=stored.status)
    # The CSRF secret this answer's token belongs to (the cookie set now, or the one sent).
    cookie = request.META.get("CSRF_COOKIE") or request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    secret = hashlib.blake2b(cookie.encode(), digest_size=6).hexdigest()
    answer["ETag"] = f'"{stored.digest}-{secret}"'
    return answer


def _with_token(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The visitor's own CSRF token in place of the placeholder."""
    if not response.streaming and _PLACEHOLDER in response.content:
        response.content = response.content.replace(_PLACEHOLDER, csrf_token(request).encode())
    return response


_SIZE = len(CSRF_ALLOWED_CHARS)
# A random byte becomes a letter of the CSRF alphabet by one bytes.translate: bytes past the
# last whole multiple of the alphabet's length are dropped rather than folded onto its first
# letters, so every letter is equally likely.
_BYTE_TO_LETTER = bytes(ord(CSRF_ALLOWED_CHARS[b % _SIZE]) for b in range(256))
_UNEVEN_BYTES = bytes(range(256 - 256 % _SIZE, 256))
# A letter of the secret shifted by a letter of the mask, as Django's _mask_cipher_secret does.
_SHIFTED = {c + m: CSRF_ALLOWED_CHARS[(CSRF_ALLOWED_CHARS.index(c) + CSRF_ALLOWED_CHARS.index(m))
                                      % _SIZE]
            for c in CSRF_ALLOWED_CHARS for m in CSRF_ALLOWED_CHARS}


def csrf_token(request: HttpRequest) -> str:
    """What ``django.middleware.csrf.get_token`` answers, drawn from one ``os.urandom`` call.

    Django draws each of a token's 64 characters (and a new visitor's 32-character secret) with
    its own call to the system's random source: half the cost of serving a stored page. The
    token is the same: the visitor's secret (a new one when they have no CSRF cookie, which the
    middleware then sets) masked with 32 random characters, which CsrfViewMiddleware unmasks.
    """
    secret = request.META.get("CSRF_COOKIE")
    drawn = _random_letters(CSRF_SECRET_LENGTH if secret else 2 * CSRF_SECRET_LENGTH)
    if not secret:
        secret = drawn[CSRF_SECRET_LENGTH:]
        request.META["CSRF_COOKIE"] = secret
    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
    mask = drawn[:CSRF_SECRET_LENGTH]
    return mask + "".join([_SHIFTED[c + m] for c, m in zip(secret, mask, strict=True)])


def _random_letters(count: int) -> str:
    """``count`` letters of the CSRF alphabet, each equally likely."""
    letters = os.urandom(count + count // 4).translate(_BYTE_TO_LETTER, _UNEVEN_BYTES)
    while len(letters) < count:
        letters += os.urandom(count).translate(_BYTE_TO_LETTER, _UNEVEN_BYTES)
    return letters[:count].decode()


def _key(request: HttpRequest, stamp: tuple[Hashable, ...]) -> Hashable:
    view = request.resolver_match.view_name if request.resolver_match else ""
    meta = request.META
    # The host as sent (CommonMiddleware has already refused a host the site does not serve)
    # and the scheme: a page may hold absolute addresses (a deck's share link). Headers are
    # read from META: building request.headers costs more than the rest of the key.
    return (view, stamp, request.get_full_path(), request.scheme,
            meta.get("HTTP_X_FORWARDED_HOST"), meta.get("HTTP_HOST"), meta.get("SERVER_NAME"),
            meta.get("SERVER_PORT"), get_language(), bool(meta.get("HTTP_HX_REQUEST")),
            meta.get("HTTP_HX_BOOSTED", ""), viewer_id(request))


def signed_in_user(request: HttpRequest) -> AbstractBaseUser | None:
    """The signed-in user, or None for a visitor without a session cookie: nobody is signed in
    without one, so neither the session nor the user is read for them (most of what telling an
    anonymous visitor apart cost a stored page)."""
    if not request.COOKIES.get(settings.SESSION_COOKIE_NAME):
        return None
    user = request.user
    return user if user.is_authenticated else None


def viewer_id(request: HttpRequest) -> int:
    """Whose copy of a page this request gets: the signed-in user's id, 0 for a visitor."""
    user = signed_in_user(request)
    return user.pk if user is not None else 0
