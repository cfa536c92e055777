"""Log-in throttling at the one place every log-in is decided: the authentication backend.

The log-in page, HTTP basic auth on the API and the admin's log-in page all call Django's
``authenticate()``, which asks ``ThrottledModelBackend``. It counts failed log-ins three ways:

- per user name *and* address: after a few failures that name is locked from that address (the
  right password included, so a guessing loop learns nothing and cannot finish the job later
  in the window);
- per address, whatever the names: an address trying many names is locked;
- per user name, from any address: past a free allowance, each failure makes the name wait a
  little longer before its next try (1 s, 2 s, 4 s … at most ``LOGIN_NAME_MAX_DELAY``), from
  every address. Guessing from many addresses is slowed to about one try a minute, and the
  owner, from an address of their own, is never locked out: at worst they wait that minute.

The doors then say why and for how long: the pages show the message (429), basic auth answers
429 with ``Retry-After``.
"""

from __future__ import annotations

import time
from functools import wraps
from typing import TYPE_CHECKING, Any, Protocol

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BasicAuthentication, get_authorization_header
from rest_framework.exceptions import Throttled

from accounts.throttles import (
    LOGIN_FAILURES_PER_IP,
    LOGIN_FAILURES_PER_NAME,
    LOGIN_FAILURES_PER_PAIR,
    login_name,
)
from common.throttles import (
    allowed,
    blocked_wait,
    cache_keys,
    client_ip,
    count_hit,
    hit,
    refused,
    seconds_until,
)

if TYPE_CHECKING:
    # Annotations only: DRF's settings import this module while rest_framework.views loads.
    from rest_framework.request import Request

NAME_SLOWED = gettext_lazy("This user name has had many failed log-ins lately; wait {wait} "
                           "seconds and try again.")
LOGIN_NAME_MAX_DELAY = 60   # seconds: the longest a name waits between tries, from anywhere


def _address(request: HttpRequest | None) -> str:
    return client_ip(request) if request is not None else "unknown"


def _gate_key(name: str) -> str:
    return cache_keys("login-name-gate", name)[0]


def name_wait(username: object) -> int | None:
    """Seconds before this name may be tried again from any address, or None if it may now."""
    end = cache.get(_gate_key(login_name(username)))
    now = time.time()   # one reading: "not yet" and the seconds left agree
    return seconds_until(end, now=now) if end is not None and end > now else None


def login_failed(request: HttpRequest | None, username: object) -> None:
    """Count a failed log-in for the name from this address, the address, and the name."""
    name = login_name(username)
    hit(LOGIN_FAILURES_PER_PAIR, f"{name}\n{_address(request)}")
    if request is not None:
        hit(LOGIN_FAILURES_PER_IP, client_ip(request))
    count, _ = count_hit(LOGIN_FAILURES_PER_NAME, name)
    over = count - allowed(LOGIN_FAILURES_PER_NAME)
    if over > 0:
        delay = min(LOGIN_NAME_MAX_DELAY, 2 ** min(over - 1, 16))
        cache.set(_gate_key(name), time.time() + delay, delay)


def login_blocked(request: HttpRequest | None, username: object) -> tuple[str, int] | None:
    """``(message, seconds to wait)`` while log-ins for this name from this address, from this
    address, or for this name from anywhere are refused, else None."""
    name = login_name(username)
    checks = [(LOGIN_FAILURES_PER_PAIR, f"{name}\n{_address(request)}")]
    if request is not None:
        checks.append((LOGIN_FAILURES_PER_IP, client_ip(request)))
    for limit, ident in checks:
        found = blocked_wait(limit, ident)   # the sentence and Retry-After: one wait
        if found:
            return found
    wait = name_wait(name)
    if wait is not None:
        return NAME_SLOWED.format(wait=wait), wait
    return None


class ThrottledModelBackend(ModelBackend):
    """Django's user-and-password backend, counting failures and refusing while blocked."""

    def authenticate(
            self, request: HttpRequest | None, username: str | None = None,
            password: str | None = None, **kwargs: Any) -> User | None:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        if login_blocked(request, username):
            raise PermissionDenied  # authenticate() stops here: no other backend is asked
        # No user name holds a NUL (PostgreSQL text cannot store one, so looking it up would
        # fail with a 500): a wrong log-in like any other, counted as one.
        has_nul = "\x00" in str(username)
        user = None if has_nul else super().authenticate(request, username=username,
                                                          password=password, **kwargs)
        if user is None:
            login_failed(request, username)
        return user


class ThrottledBasicAuthentication(BasicAuthentication):
    """HTTP basic auth that answers 429 (with the wait) while the name or address is blocked,
    rather than a 401 that would invite the next guess.

    A request the API refuses for want of credentials is a 401 with the ``WWW-Authenticate``
    challenge HTTP requires with it (DRF takes the challenge from the first authentication
    class, so this one comes first in ``REST_FRAMEWORK``). The challenge names the way in that
    fits the client: ``Basic`` to a client without the site's cookies (a script, curl), and to
    one that sent basic credentials; to a browser that has the site's cookies (a session that
    has expired, a page's script) the cookie scheme — the log-in form and the session cookie —
    so it is not met with the browser's own password dialog."""

    def authenticate_header(self, request: Request) -> str | None:
        scheme = get_authorization_header(request).split(b" ", 1)[0]
        cookies = request.COOKIES
        if scheme.lower() == b"basic" or not (
                settings.SESSION_COOKIE_NAME in cookies or settings.CSRF_COOKIE_NAME in cookies):
            return super().authenticate_header(request)
        return COOKIE_CHALLENGE.format(realm=self.www_authenticate_realm,
                                       login=reverse("accounts:login"),
                                       cookie=settings.SESSION_COOKIE_NAME)

    def authenticate_credentials(self, userid: str, password: str, request: Request | None = None
                                 ) -> tuple[Any, None]:
        found = login_blocked(request, userid)
        if found:
            message, wait = found
            raise Throttled(wait=wait, detail=message)
        return super().authenticate_credentials(userid, password, request)


class ThrottledBasicScheme(OpenApiAuthenticationExtension):
    """The schema names it as the plain HTTP basic auth it is."""

    target_class = ThrottledBasicAuthentication
    name = "basicAuth"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {"type": "http", "scheme": "basic"}


# The challenge of the cookie scheme (draft-broyer-http-cookie-auth): where to log in, and the
# cookie that carries the session after.
COOKIE_CHALLENGE = 'Cookie realm="{realm}", form-action="{login}", cookie-name={cookie}'


# The admin log-in's refusal as its view worked it out, kept on the request for its form: the
# message and Retry-After come from one reading of the clock.
BLOCKED_ATTRIBUTE = "cardlab_login_blocked"


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    """The admin's log-in form, saying why a blocked log-in is refused."""

    def clean(self) -> dict[str, Any]:
        # The view worked the wait out already (its Retry-After): the message says that one.
        found = getattr(self.request, BLOCKED_ATTRIBUTE, None) if hasattr(
            self.request, BLOCKED_ATTRIBUTE) else login_blocked(
            self.request, self.data.get("username"))
        if found:
            raise forms.ValidationError(found[0], code="throttled")
        return super().clean()


class AdminLogin(Protocol):
    """The admin site's log-in view (``AdminSite.login``)."""

    def __call__(self, request: HttpRequest,
                 extra_context: dict[str, Any] | None = None) -> HttpResponse: ...


def throttled_admin_login(login: AdminLogin) -> AdminLogin:
    """The admin's log-in view, answering a blocked log-in as every other door does: 429 with
    ``Retry-After`` (the form says why, ``ThrottledAdminAuthenticationForm``)."""

    @wraps(login)
    def view(request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        found = login_blocked(request, request.POST.get("username")) if (
            request.method == "POST") else None
        setattr(request, BLOCKED_ATTRIBUTE, found)   # the form's message says this wait too
        response = login(request, extra_context)
        return refused(response, found[1]) if found else response

    return view
