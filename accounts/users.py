"""The user of a request that a log-in check let through, typed as the signed-in user it is."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib.auth.models import User
from django.http import HttpRequest

if TYPE_CHECKING:
    from rest_framework.request import Request


def request_user(request: HttpRequest | Request) -> User:
    """``request.user`` of a view behind ``login_required`` or an API behind
    ``IsAuthenticated``: signed in, so a ``User`` (the type says either, the check says which)."""
    return cast(User, request.user)
