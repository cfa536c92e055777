"""Rate limits: one budget per client and action, whichever door the action comes through.

A counter in Django's ``default`` cache whose window opens at the first hit. The cache is shared
by every server process (Redis when one is configured, the database otherwise: see
``config/settings.py``), so the limits do not multiply with processes. Pages call ``hit`` and
the API's ``LimitThrottle`` calls the same ``hit`` with the same key, so the import page and the
import API, or the simulation page and the simulation API, draw on one budget per user.

Log-in failures are counted where every log-in is decided, in the authentication backend
(``decks.auth``): the log-in page, HTTP basic auth on the API and the admin's log-in all pass
through it.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import Throttled
from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import BaseThrottle

TOO_MANY = gettext_lazy("Too many {what} from you; wait {wait} seconds and try again.")
BAD_RATE = "A rate is a count per period, like '30/hour' or '5/min', not {rate!r}."
PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600,
           "hour": 3600, "d": 86400, "day": 86400}


@dataclass(frozen=True)
class Limit:
    scope: str
    count: int
    seconds: int
    what: str  # plural noun, translatable

    @classmethod
    def from_rate(cls, scope: str, rate: str, what: str) -> Limit:
        """A limit from a rate such as ``30/hour``, ``5/min`` or ``20/600s``."""
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*", rate.lower())
        if match is None or match.group(3) not in PERIODS:
            raise ValueError(BAD_RATE.format(rate=rate))
        seconds = int(match.group(2) or 1) * PERIODS[match.group(3)]
        return cls(scope, int(match.group(1)), seconds, what)


LOGIN_PER_IP = Limit("login-ip", 20, 600, gettext_lazy("log-in attempts"))
LOGIN_FAILURES_PER_NAME = Limit("login-name", 5, 600,
                                gettext_lazy("failed log-ins for this name"))
LOGIN_FAILURES_PER_IP = Limit("login-fail-ip", 20, 600, gettext_lazy("failed log-ins"))
SIGNUP_PER_IP = Limit("signup-ip", 10, 3600, gettext_lazy("sign-ups"))
RESET_PER_IP = Limit("reset-ip", 5, 3600, gettext_lazy("password reset requests"))
IMPORT_PER_CLIENT = Limit("import", 30, 60, gettext_lazy("imports"))


def client_ip(request: HttpRequest) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is client-controlled unless a proxy rewrites it.
    return request.META.get("REMOTE_ADDR") or "unknown"


def client_key(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    return f"user:{user.pk}" if user is not None and user.is_authenticated else (
        f"ip:{client_ip(request)}")


def login_name(raw: object) -> str:
    """A user name as the log-in throttles count it (case and surrounding spaces ignored)."""
    return str(raw or "").strip().casefold()[:150]


def allowed(limit: Limit) -> int:
    """Hits allowed per window: the limit's count times ``settings.THROTTLE_SCALE`` (1; the API
    contract test raises it so a fuzzer's thousands of requests exercise the logic behind the
    throttles, which stay on)."""
    return max(1, int(limit.count * getattr(settings, "THROTTLE_SCALE", 1)))


def _keys(limit: Limit, ident: str) -> tuple[str, str]:
    # Hashed: a user name may hold any character, and every cache backend takes hex.
    digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    base = f"throttle:{limit.scope}:{digest}"
    return base, base + ":since"


def _wait(limit: Limit, since_key: str) -> int:
    since = cache.get(since_key) or time.time()
    return max(1, int(limit.seconds - (time.time() - since)))


def wait_seconds(limit: Limit, ident: str) -> int | None:
    """Seconds until ``ident`` may act again under ``limit``, or None if it may act now."""
    key, since_key = _keys(limit, ident)
    if (cache.get(key) or 0) >= allowed(limit):
        return _wait(limit, since_key)
    return None


def blocked(limit: Limit, ident: str) -> str | None:
    """The message to show if ``ident`` has used up ``limit`` (without counting a hit)."""
    wait = wait_seconds(limit, ident)
    return None if wait is None else TOO_MANY.format(what=limit.what, wait=wait)


def hit(limit: Limit, ident: str) -> str | None:
    """Count one hit; the message to show when this hit is over the limit, else None.

    The window starts at the first hit and lasts ``limit.seconds`` (both keys expire then), so
    a burst is never split across two windows."""
    key, since_key = _keys(limit, ident)
    if cache.add(key, 0, limit.seconds):
        cache.set(since_key, time.time(), limit.seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, limit.seconds)
        cache.set(since_key, time.time(), limit.seconds)
        count = 1
    if count > allowed(limit):
        return TOO_MANY.format(what=limit.what, wait=_wait(limit, since_key))
    return None


class LimitThrottle(BaseThrottle):
    """A DRF throttle over ``hit``: the same counter as the page doing the same action.

    Only requests that act (POST, PUT, PATCH, DELETE) are counted: reading, HEAD and OPTIONS
    never use up an action's budget. Over the limit, the answer is a 429 saying how long to
    wait (and a ``Retry-After`` header)."""

    def get_limit(self) -> Limit:
        raise NotImplementedError

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        limit = self.get_limit()
        message = hit(limit, client_key(request))
        if message:
            raise Throttled(wait=wait_seconds(limit, client_key(request)), detail=message)
        return True


class ImportThrottle(LimitThrottle):
    """Deck imports per user (or per address for anonymous clients), page and API together."""

    def get_limit(self) -> Limit:
        return IMPORT_PER_CLIENT
