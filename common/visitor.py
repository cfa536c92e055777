"""Whoever asks a page, an API or a service: a signed-in user, an anonymous visitor, or nobody
(the command line, a page rendered without a request). One type for every app's selectors and
services."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

Visitor: TypeAlias = "User | AnonymousUser | None"
