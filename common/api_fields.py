"""API input fields the site's serializers share (``cards`` is the lowest app: every other
app may use them)."""

from __future__ import annotations

from typing import cast

from django.http import QueryDict
from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """Text that must be sent as a JSON string.

    DRF's CharField turns a number into its digits, so ``{"hero": 0}`` validated as the card
    "0" and a deck note of ``0`` was kept as "0": the client's mistake went unseen. This field
    refuses anything but a string with a 400 naming the field ("Not a valid string.", in the
    client's language through DRF's own catalogue)."""

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A yes/no that a JSON body must send as ``true`` or ``false``.

    DRF's BooleanField takes 0, 1, "yes" and "off" as well, so ``{"active": 0}`` switched a
    deck off while the API's schema says the field is a boolean. A JSON client now gets a 400
    naming the field; an HTML form (a QueryDict of strings) still sends "true"/"on" as forms
    do."""

    def to_internal_value(self, data: object) -> bool:
        if isinstance(data, bool):
            return data
        if isinstance(getattr(self.root, "initial_data", None), QueryDict):
            return super().to_internal_value(cast(str, data))   # a form's values are text
        self.fail("invalid", input=data)
