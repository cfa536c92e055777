"""API input fields the site's serializers share (``cards`` is the lowest app: every other
app may use them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.http import QueryDict
from django.utils.translation import gettext_lazy
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


UNKNOWN_FIELD = gettext_lazy("Unknown field: this request takes {fields}.")
NO_FIELDS_TAKEN = gettext_lazy("Unknown field: this request takes no fields.")


class StrictSerializer(serializers.Serializer[Mapping[str, Any]]):
    """Input that names its fields exactly: a field the request does not take is a 400 naming
    it, not ignored. DRF drops unknown keys, so a misspelt ``{"oponent": "bob"}`` made an open
    link anyone could accept instead of a challenge to bob, and ``{"seat": 1}`` was silently
    not honoured. A form's CSRF token is not a field of the request."""

    def to_internal_value(self, data: Any) -> Any:
        unknown: dict[str, list[str]] = {}
        if isinstance(data, Mapping):
            taken = ", ".join(self.fields)
            text = str(UNKNOWN_FIELD).format(fields=taken) if taken else str(NO_FIELDS_TAKEN)
            unknown = {str(name)[:40]: [text] for name in data
                       if name not in self.fields and name != "csrfmiddlewaretoken"}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if unknown and isinstance(exc.detail, dict):
                raise serializers.ValidationError({**unknown, **exc.detail}) from None
            raise
        if unknown:
            raise serializers.ValidationError(unknown)
        return value
