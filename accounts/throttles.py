"""The accounts' rate limits: log-ins, sign-ups, password resets and changes (the machinery:
``common.throttles``).

Log-in failures are counted where every log-in is decided, in the authentication backend
(``accounts.auth``): the log-in page, HTTP basic auth on the API and the admin's log-in all pass
through it. Each limit's rate can be changed by its scope in ``settings.THROTTLE_RATES``.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from common.throttles import Limit

LOGIN_PER_IP = Limit("login-ip", 20, 600, gettext_lazy("log-in attempts"))
# Failed log-ins (accounts.auth): one name from one address is locked after a few; one address is
# locked after many, whatever the names; one name across addresses is slowed down, never locked.
LOGIN_FAILURES_PER_PAIR = Limit("login-pair", 5, 600,
                                gettext_lazy("failed log-ins for this name"))
LOGIN_FAILURES_PER_IP = Limit("login-fail-ip", 20, 600, gettext_lazy("failed log-ins"))
LOGIN_FAILURES_PER_NAME = Limit("login-name", 10, 3600,
                                gettext_lazy("failed log-ins for this name"))
SIGNUP_PER_IP = Limit("signup-ip", 10, 3600, gettext_lazy("sign-ups"))
RESET_PER_IP = Limit("reset-ip", 5, 3600, gettext_lazy("password reset requests"))
# Mails to one address, whoever asks: the page's answer stays the same past it (nothing leaks).
RESET_PER_RECIPIENT = Limit("reset-recipient", 3, 3600,
                            gettext_lazy("password reset mails to this address"))
PASSWORD_CHANGE_FAILURES_PER_USER = Limit("password-change-user", 5, 600,
                                          gettext_lazy("wrong current passwords"))
PASSWORD_CHANGE_FAILURES_PER_IP = Limit("password-change-ip", 20, 600,
                                        gettext_lazy("wrong current passwords"))


def login_name(raw: object) -> str:
    """A user name as the log-in throttles count it (case and surrounding spaces ignored)."""
    return str(raw or "").strip().casefold()[:150]
