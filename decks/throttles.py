"""Rate limits for log-in and deck import, on the pages and in the API.

A counter in Django's cache whose window opens at the first hit: cheap, and good enough to stop
a password-guessing loop or an import flood. The API uses DRF throttle classes with the same
rates, so the limits hold whichever door a client comes through.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest
from rest_framework.throttling import SimpleRateThrottle

TOO_MANY = "Too many {what} from you; wait {wait} seconds and try again."


@dataclass(frozen=True)
class Limit:
    scope: str
    count: int
    seconds: int
    what: str

    @property
    def rate(self) -> str:
        return f"{self.count}/{self.seconds}s"


LOGIN_PER_IP = Limit("login-ip", 20, 600, "log-in attempts")
LOGIN_FAILURES_PER_NAME = Limit("login-name", 5, 600, "failed log-ins for this name")
SIGNUP_PER_IP = Limit("signup-ip", 10, 3600, "sign-ups")
IMPORT_PER_CLIENT = Limit("import", 30, 60, "imports")


def client_ip(request: HttpRequest) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is client-controlled unless a proxy rewrites it.
    return request.META.get("REMOTE_ADDR") or "unknown"


def client_key(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    return f"user:{user.pk}" if user is not None and user.is_authenticated else (
        f"ip:{client_ip(request)}")


def _keys(limit: Limit, ident: str) -> tuple[str, str]:
    base = f"throttle:{limit.scope}:{ident}"
    return base, base + ":since"


def _wait(limit: Limit, since_key: str) -> int:
    since = cache.get(since_key) or time.time()
    return max(1, int(limit.seconds - (time.time() - since)))


def blocked(limit: Limit, ident: str) -> str | None:
    """The message to show if ``ident`` has used up ``limit`` (without counting a hit)."""
    key, since_key = _keys(limit, ident)
    if (cache.get(key) or 0) >= limit.count:
        return TOO_MANY.format(what=limit.what, wait=_wait(limit, since_key))
    return None


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
    if count > limit.count:
        return TOO_MANY.format(what=limit.what, wait=_wait(limit, since_key))
    return None


class ImportThrottle(SimpleRateThrottle):
    """The API's import limit (per user, or per address for anonymous clients)."""

    scope = IMPORT_PER_CLIENT.scope
    rate = f"{IMPORT_PER_CLIENT.count}/min"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": client_key(request)}
