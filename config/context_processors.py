"""Template context shared by every page."""

from __future__ import annotations

from django.http import HttpRequest


def language_switch(request: HttpRequest) -> dict[str, str]:
    """Where the header's language switcher returns to: this page, without an old ``lang=``
    parameter (which would override the choice just made)."""
    params = request.GET.copy()
    params.pop("lang", None)
    query = params.urlencode()
    return {"switch_next": request.path + (f"?{query}" if query else "")}


def csrf_placeholder(request: HttpRequest) -> dict[str, str]:
    """A page rendered to be stored carries a placeholder for the CSRF token, replaced by each
    visitor's own token when served (common/page_cache.py); other pages keep Django's token."""
    from common.page_cache import CSRF_PLACEHOLDER, RENDERING_FOR_CACHE

    if getattr(request, RENDERING_FOR_CACHE, False):
        return {"csrf_token": CSRF_PLACEHOLDER}
    return {}
