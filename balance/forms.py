"""What the forms of every kind of job share (``balance.search.forms``,
``balance.tuning.forms``): the decks a user may pick, grouped; the seed and public fields; and
putting a service's refusal on the field it names. A form shapes input for its service, which
decides what is valid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from balance.services import BalanceInputError
from common.forms import RefuseNulForm
from simulations.sources import deck_choices

if TYPE_CHECKING:
    from common.visitor import Visitor

# Grouped choices: (group label, [(value, label), …]) for each group.
DeckGroups = list[tuple[str, list[tuple[str, str]]]]


def grouped_decks(user: Visitor) -> DeckGroups:
    """The decks ``user`` may pick (theirs, public ones, the starters), as grouped choices."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for choice in deck_choices(user):
        groups.setdefault(choice.group, []).append((choice.spec, choice.label))
    return list(groups.items())


def seed_field() -> forms.IntegerField:
    return forms.IntegerField(label=_("Seed"), required=False, min_value=0,
                              help_text=_("Empty: a random one. The same seed and budget give "
                                          "the same search."))


def public_field() -> forms.BooleanField:
    return forms.BooleanField(required=False, label=_("Public: anyone can see the results"))


def choice_field(form: forms.BaseForm, name: str) -> forms.ChoiceField:
    """The form's own copy of its choice field ``name`` (to set its choices)."""
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field


class JobForm(RefuseNulForm):
    """``FIELD_OF``: the form field that shows the service's refusal of each input; a refusal of
    an input it does not name, or of a hidden one, is shown above the form."""

    FIELD_OF: dict[str, str] = {}

    def add_service_error(self, exc: BalanceInputError) -> None:
        name = self.FIELD_OF.get(exc.field)
        shown = name in self.fields and not self.fields[name].widget.is_hidden
        self.add_error(name if shown else None, exc.message)

    def service_arguments(self) -> dict[str, Any]:
        """The service's keyword arguments from the cleaned data (each kind's form says)."""
        raise NotImplementedError
