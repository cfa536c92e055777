"""Rate limits: one budget per client and action, whichever door the action comes through —
the machinery every app's limits use, and the limits several apps share.

A counter in Django's ``default`` cache whose window opens at the first hit and ends a fixed
time later: the counter expires then (the backends in ``config/cache.py`` keep its expiry when it
is incremented), and the wait a refused client is told (the message, ``Retry-After``) is the
time left to that end, rounded up — so a client that waits as told gets through. The cache is
shared by every server process (Redis when one is configured, the database otherwise: see
``config/settings.py``), so the limits do not multiply with processes. Pages call ``hit`` and
the API's ``LimitThrottle`` calls the same ``hit`` with the same key, so the import page and the
import API, or the simulation page and the simulation API, draw on one budget per user. Each
limit's rate can be changed by its scope in ``settings.THROTTLE_RATES``.

The limits shared here: deck and collection imports (``IMPORT_PER_CLIENT``, pages and API),
deck images (``DECK_IMAGE_PER_IP``), and the submission budget every kind of long work shares —
simulation runs, what-ifs, sweeps, balance searches and deck tunings, pages and API together:

| setting | default | meaning |
|---|---|---|
| ``SIMULATIONS_SUBMIT_RATE`` | ``30/hour`` | submissions per user (API and pages) |

The log-in, sign-up and password limits are the accounts' own (``accounts.throttles``).
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import Throttled
from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import BaseThrottle

if TYPE_CHECKING:
    # Annotations only: DRF's settings import this module while rest_framework.views loads.
    from django_stubs_ext import StrOrPromise
    from rest_framework.request import Request
    from rest_framework.views import APIView

TOO_MANY = gettext_lazy("Too many {what} from you; wait {wait} seconds and try again.")
BAD_RATE = "A rate is a count per period, like '30/hour' or '5/min', not {rate!r}."
PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600,
           "hour": 3600, "d": 86400, "day": 86400}


@dataclass(frozen=True)
class Limit:
    scope: str
    count: int
    seconds: int
    what: StrOrPromise  # plural noun, translatable

    @classmethod
    def from_rate(cls, scope: str, rate: str, what: StrOrPromise) -> Limit:
        """A limit from a rate such as ``30/hour``, ``5/min`` or ``20/600s``."""
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d*)\s*([a-z]+)\s*", rate.lower())
        if match is None or match.group(3) not in PERIODS:
            raise ValueError(BAD_RATE.format(rate=rate))
        seconds = int(match.group(2) or 1) * PERIODS[match.group(3)]
        return cls(scope, int(match.group(1)), seconds, what)

    def effective(self) -> Limit:
        """This limit with its rate from ``settings.THROTTLE_RATES`` when that names its scope."""
        rate = getattr(settings, "THROTTLE_RATES", {}).get(self.scope)
        return self if rate is None else Limit.from_rate(self.scope, rate, self.what)


def client_ip(request: HttpRequest) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is client-controlled unless a proxy rewrites it.
    return request.META.get("REMOTE_ADDR") or "unknown"


def client_key(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    return f"user:{user.pk}" if user is not None and user.is_authenticated else (
        f"ip:{client_ip(request)}")


def allowed(limit: Limit) -> int:
    """Hits allowed per window: the limit's count times ``settings.THROTTLE_SCALE`` (1; the API
    contract test raises it so a fuzzer's thousands of requests exercise the logic behind the
    throttles, which stay on)."""
    return max(1, int(limit.effective().count * getattr(settings, "THROTTLE_SCALE", 1)))


def cache_keys(scope: str, ident: str) -> tuple[str, str]:
    """The counter's key and the key of its window's end."""
    # Hashed: a user name may hold any character, and every cache backend takes hex.
    digest = hashlib.sha256(ident.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    base = f"throttle:{scope}:{digest}"
    return base, base + ":until"


def seconds_until(end: float, *, now: float | None = None) -> int:
    """Whole seconds from ``now`` (the clock, unless the caller read it already) to ``end``,
    rounded up (at least 1): waiting that long is enough."""
    return max(1, math.ceil(end - (time.time() if now is None else now)))


def _open(end_key: str, seconds: int) -> float:
    # The end is read after the counter is written and rounded up to a whole second (the
    # database cache's expiry is one), so it is never before the counter expires.
    end = math.ceil(time.time() + seconds)
    cache.set(end_key, end, seconds)
    return end


def count_hit(limit: Limit, ident: str) -> tuple[int, float]:
    """Count one hit: ``(hits in the window so far, when the window ends)``.

    The window opens at the first hit (``add`` is atomic: of concurrent first hits, one opens
    it and the others count in it) and both keys expire at its end, so a burst is never split
    across two windows."""
    key, end_key = cache_keys(limit.scope, ident)
    seconds = limit.effective().seconds
    if cache.add(key, 1, seconds):
        return 1, _open(end_key, seconds)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: this hit opens the next window
        cache.set(key, 1, seconds)
        return 1, _open(end_key, seconds)
    end = cache.get(end_key)
    return count, end if end is not None else time.time() + seconds


def wait_seconds(limit: Limit, ident: str) -> int | None:
    """Seconds until ``ident`` may act again under ``limit``, or None if it may act now."""
    key, end_key = cache_keys(limit.scope, ident)
    if (cache.get(key) or 0) < allowed(limit):
        return None
    end = cache.get(end_key)
    now = time.time()
    return seconds_until(end if end is not None else now + limit.effective().seconds, now=now)


def blocked_wait(limit: Limit, ident: str) -> tuple[str, int] | None:
    """``(message, seconds to wait)`` if ``ident`` has used up ``limit`` (without counting a
    hit), else None: both from one reading of the clock, so the page's sentence and its
    ``Retry-After`` say the same wait however long the request takes between them."""
    wait = wait_seconds(limit, ident)
    return None if wait is None else (TOO_MANY.format(what=limit.what, wait=wait), wait)


def hit_wait(limit: Limit, ident: str) -> tuple[str, int] | None:
    """Count one hit; ``(message, seconds to wait)`` when this hit is over the limit."""
    count, end = count_hit(limit, ident)
    if count > allowed(limit):
        wait = seconds_until(end)
        return TOO_MANY.format(what=limit.what, wait=wait), wait
    return None


def hit(limit: Limit, ident: str) -> str | None:
    """Count one hit; the message to show when this hit is over the limit, else None."""
    found = hit_wait(limit, ident)
    return found[0] if found else None


def refused(response: HttpResponse, wait: int) -> HttpResponse:
    """A page's 429: the status and the ``Retry-After`` header the API's 429 has too."""
    response.status_code = 429
    response["Retry-After"] = str(wait)
    return response


class LimitThrottle(BaseThrottle):
    """A DRF throttle over ``hit``: the same counter as the page doing the same action.

    Only requests that act (POST, PUT, PATCH, DELETE) are counted: reading, HEAD and OPTIONS
    never use up an action's budget. Over the limit, the answer is a 429 saying how long to
    wait (and a ``Retry-After`` header)."""

    def get_limit(self) -> Limit:
        raise NotImplementedError

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        found = hit_wait(self.get_limit(), client_key(request))
        if found:
            message, wait = found
            raise Throttled(wait=wait, detail=message)
        return True


IMPORT_PER_CLIENT = Limit("import", 30, 60, gettext_lazy("imports"))
# Deck images fetched by visitors who are not signed in, per address (a stored image is cheap;
# this bounds what a crawler or a script can make the site draw and send).
DECK_IMAGE_PER_IP = Limit("deck-image", 60, 60, gettext_lazy("deck images"))


class ImportThrottle(LimitThrottle):
    """Deck imports per user (or per address for anonymous clients), page and API together."""

    def get_limit(self) -> Limit:
        return IMPORT_PER_CLIENT


def submit_rate() -> str:
    """Read when used, so tests can override it."""
    return str(getattr(settings, "SIMULATIONS_SUBMIT_RATE", "30/hour"))


def submit_limit() -> Limit:
    """Submissions per user (rate: settings.SIMULATIONS_SUBMIT_RATE), what-ifs included, pages
    and API together."""
    return Limit.from_rate("simulation-submit", submit_rate(),
                           gettext_lazy("simulation submissions"))


class SubmitThrottle(LimitThrottle):
    def get_limit(self) -> Limit:
        return submit_limit()


def submit_allowed(request: HttpRequest) -> bool:
    """Count a submission made on a page: False once the user's budget is used up (the page
    shows its own message; ``SubmitThrottle`` raises the API's 429, which a page cannot)."""
    return hit(submit_limit(), client_key(request)) is None
