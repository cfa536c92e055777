"""Template context shared by every page."""

from __future__ import annotations

from django.http import HttpRequest


def language_switch(request: HttpRequest) -> dict:
    """Where the header's language switcher returns to: this page, without an old ``lang=``
    parameter (which would override the choice just made)."""
    params = request.GET.copy()
    params.pop("lang", None)
    query = params.urlencode()
    return {"switch_next": request.path + (f"?{query}" if query else "")}
