"""Django's minimum-length password rule with its message in the site's catalogue.

Django 5.2 rewrote the rule's message ("at least %d characters") and its own Chinese catalogue
still translates only the older wording, so on a Chinese sign-up page that one message came
out in English while the other rules spoke Chinese. The rule is Django's; only the sentence is
ours."""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.utils.translation import ngettext


class MinimumLengthValidator(password_validation.MinimumLengthValidator):
    def get_error_message(self) -> str:
        return ngettext(
            "This password is too short. It must contain at least %(min_length)d character.",
            "This password is too short. It must contain at least %(min_length)d characters.",
            self.min_length,
        ) % {"min_length": self.min_length}
