"""Log-in throttling at the one place every log-in is decided: the authentication backend.

The log-in page, HTTP basic auth on the API and the admin's log-in page all call Django's
``authenticate()``, which asks ``ThrottledModelBackend``. It counts failed log-ins per user name
and per address, and while either is over its limit it refuses every attempt, a right password
included (so a guessing loop learns nothing and cannot finish the job later in the window). The
doors then say why: the pages show the throttle's message, basic auth answers 429.
"""

from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework.authentication import BasicAuthentication
from rest_framework.exceptions import Throttled

from decks.throttles import (
    LOGIN_FAILURES_PER_IP,
    LOGIN_FAILURES_PER_NAME,
    blocked,
    client_ip,
    hit,
    login_name,
    wait_seconds,
)


def login_blocked(request, username: object) -> tuple[str, int] | None:
    """``(message, seconds to wait)`` while log-ins for this name or from this address are
    refused, else None."""
    checks = [(LOGIN_FAILURES_PER_NAME, login_name(username))]
    if request is not None:
        checks.append((LOGIN_FAILURES_PER_IP, client_ip(request)))
    for limit, ident in checks:
        message = blocked(limit, ident)
        if message:
            return message, wait_seconds(limit, ident) or 1
    return None


class ThrottledModelBackend(ModelBackend):
    """Django's user-and-password backend, counting failures and refusing while blocked."""

    def authenticate(self, request, username=None, password=None, **kwargs):
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
            hit(LOGIN_FAILURES_PER_NAME, login_name(username))
            if request is not None:
                hit(LOGIN_FAILURES_PER_IP, client_ip(request))
        return user


class ThrottledBasicAuthentication(BasicAuthentication):
    """HTTP basic auth that answers 429 (with the wait) while the name or address is blocked,
    rather than a 401 that would invite the next guess."""

    def authenticate_credentials(self, userid, password, request=None):
        found = login_blocked(request, userid)
        if found:
            message, wait = found
            raise Throttled(wait=wait, detail=message)
        return super().authenticate_credentials(userid, password, request)


class ThrottledBasicScheme(OpenApiAuthenticationExtension):
    """The schema names it as the plain HTTP basic auth it is."""

    target_class = ThrottledBasicAuthentication
    name = "basicAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "basic"}


class ThrottledAdminAuthenticationForm(AdminAuthenticationForm):
    """The admin's log-in form, saying why a blocked log-in is refused."""

    def clean(self):
        found = login_blocked(self.request, self.data.get("username"))
        if found:
            raise forms.ValidationError(found[0], code="throttled")
        return super().clean()
