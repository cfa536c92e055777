"""The submission budget every kind of long work shares: simulation runs, what-ifs, sweeps,
balance searches and deck tunings, pages and API together, count against one limit per user.

| setting | default | meaning |
|---|---|---|
| ``SIMULATIONS_SUBMIT_RATE`` | ``30/hour`` | submissions per user (API and pages) |
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from accounts.throttles import Limit, LimitThrottle, client_key, hit


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
