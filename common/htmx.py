"""The request as django-htmx's middleware leaves it, for the views' annotations (every app with
pages uses it)."""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """Every request of the site: ``HtmxMiddleware`` sets ``htmx`` on each one."""

    htmx: HtmxDetails
