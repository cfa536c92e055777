"""The form that plays on from a replay's step: the AI player, and the seat where it is the
person's to choose."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from play.forms import agent_choice_label
from rules.ai.agents import AGENT_NAMES


class PlayOnForm(forms.Form):
    step = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    agent = forms.ChoiceField(label=_("Against"), help_text=_("The AI player of the new game."))
    seat = forms.TypedChoiceField(label=_("Your seat"), coerce=int, required=False,
                                  choices=[(0, "P1"), (1, "P2")],
                                  help_text=_("The seat you play from this position."))

    def __init__(self, *args: Any, seat_fixed: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["agent"]).choices = [
            (name, agent_choice_label(name)) for name in AGENT_NAMES]
        self.fields["agent"].initial = AGENT_NAMES[0]
        if seat_fixed:
            del self.fields["seat"]
        else:
            self.fields["seat"].required = True
