"""What every form on the site's pages shares: a NUL character in any field is a form error.

PostgreSQL text cannot hold NUL, and a value holding one failed in the database with a 500.
Django's ``CharField`` refuses NUL (``ProhibitNullCharactersValidator``), but its validators run
after the value is read, and most fields that pick something never get there: a
``ModelChoiceField`` looks its value up in ``to_python``, a ``ChoiceField`` echoes it back in its
error, and values read from ``request.POST`` outside any form (the card a patch page edits, the
deck a tuning starts from) reached their queries with no field at all. ``RefuseNulForm`` checks
the raw value of every field first, whatever its type, so nothing holding NUL reaches a field's
cleaning or a query; views read such values through a form too (``PickForm``). Query strings and
addresses are refused earlier, by ``config.middleware.RejectNulCharactersMiddleware``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy

NUL_IN_FIELD = gettext_lazy(
    "This holds a NUL character (\\x00), which no field accepts; remove it and try again."
)


def holds_nul(value: Any) -> bool:
    """Whether a value holds NUL: text, the list of a multiple choice, or parsed JSON (keys
    and values at any depth)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


# The mixin's methods use a form's attributes: mypy reads it as the form it is mixed into.
if TYPE_CHECKING:
    _FormBase = forms.BaseForm
else:
    _FormBase = object


class RefuseNulMixin(_FormBase):
    """Give every field of the form a NUL check that runs before the field's own cleaning, on
    what was posted for it (a checkbox's widget would have turned it into True already).

    ``nul_named_by_cleaning`` lists fields whose cleaning reports a NUL better itself (the deck
    import's text names the line and column)."""

    nul_named_by_cleaning: tuple[str, ...] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if name not in self.nul_named_by_cleaning and not field.disabled:
                # This field object's own cleaning, wrapped: it belongs to this form alone.
                field.clean = self._refusing_nul(  # type: ignore[method-assign]
                    name, field.clean)

    def _refusing_nul(self, name: str, clean: Callable[..., Any]) -> Callable[..., Any]:
        def checked(value: object, *args: Any, **kwargs: Any) -> Any:
            key = self.add_prefix(name)
            posted = self.data.getlist(key) if hasattr(self.data, "getlist") else (
                self.data.get(key))
            if holds_nul(value) or holds_nul(posted):
                raise forms.ValidationError(NUL_IN_FIELD, code="null_characters_not_allowed")
            return clean(value, *args, **kwargs)

        return checked


class RefuseNulForm(RefuseNulMixin, forms.Form):
    """A ``forms.Form`` that refuses NUL in any field (see the module's docstring)."""


class PickForm(RefuseNulForm):
    """One identifier a view reads from a request (a card code, a deck spec) before it can
    build its real form: read through here, it is refused like any field's value."""

    value = forms.CharField(required=False, max_length=200)

    @classmethod
    def read(cls, data: QueryDict, name: str) -> tuple[str, list[str]]:
        """``(value, errors)``: the stripped value of ``name`` in ``data`` (a QueryDict), or
        an empty value and the messages that say why it was refused."""
        form = cls({"value": data.get(name, "")})
        if form.is_valid():
            return form.cleaned_data["value"].strip(), []
        return "", [str(e) for e in form.errors["value"]]
