"""The "Forecast the meta" form: the archetypes, the agent that adapts the lists, the agents that
also play the settled lists, the verdicts' band, an optional patch and the caps; the service
decides what is valid and its messages land on the matching field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from balance.forecast.services import BAND, DEFAULTS
from balance.forms import JobForm, choice_field, grouped_decks, public_field, seed_field
from balance.tuning.forms import patch_of_text
from cards.game_words import agent_menu
from rules.ai.agents import DEFAULT_AGENT

if TYPE_CHECKING:
    from common.visitor import Visitor

class ForecastForm(JobForm):
    FIELD_OF = {"decks": "decks", "agent": "agent", "further_agents": "further_agents",
                "band": "band_low", "patch": "patch",
                "max_changes": "max_changes", "settle": "settle", "max_rounds": "max_rounds",
                "budget_games": "budget_games", "verify_games": "verify_games", "seed": "seed"}

    decks = forms.MultipleChoiceField(
        label=_("Archetypes"), required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "opponent"}),
        help_text=_("The decks whose players adapt. None ticked: the starter decks."))
    agent = forms.ChoiceField(label=_("Agent"), choices=agent_menu, initial=DEFAULT_AGENT,
                              help_text=_("Adapts the lists: it plays every round and tuning."))
    further_agents = forms.MultipleChoiceField(
        label=_("Also play the settled lists with"), required=False, choices=agent_menu,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "opponent"}),
        help_text=_("Each plays the settled lists on fresh games of its own; leave the agent "
                    "above unticked. None ticked: the agent above alone."))
    band_low = forms.FloatField(label=_("Band from (%)"), initial=BAND[0], required=False)
    band_high = forms.FloatField(
        label=_("Band to (%)"), initial=BAND[1], required=False,
        help_text=_("The verdicts: a field win rate over the band under any agent calls for a "
                    "nerf, under it under every agent for a buff; otherwise fine."))
    patch = forms.CharField(
        label=_("Balance patch (JSON)"), required=False, max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Forecast the meta after this patch (the format of a patch.json file). "
                    "Empty: the catalogue as it is."))
    max_changes = forms.IntegerField(
        label=_("Most changed cards"), initial=DEFAULTS.max_changes, min_value=1,
        help_text=_("How many cards of a list may differ from its printed list, in all."))
    settle = forms.FloatField(
        label=_("Settle at (points)"), initial=DEFAULTS.settle * 100, min_value=0,
        help_text=_("The rounds stop when no archetype's verified gain is larger."))
    max_rounds = forms.IntegerField(label=_("Most rounds"), initial=DEFAULTS.max_rounds,
                                    min_value=1)
    budget_games = forms.IntegerField(label=_("Budget (games)"),
                                      initial=DEFAULTS.budget_games, min_value=1)
    verify_games = forms.IntegerField(
        label=_("Re-verification (games against each opponent)"),
        initial=DEFAULTS.verify_games, min_value=1)
    seed = seed_field()
    public = public_field()

    def __init__(self, *args: Any, user: Visitor = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choice_field(self, "decks").choices = grouped_decks(user)

    def clean_patch(self) -> dict[str, Any] | None:
        return patch_of_text(self.cleaned_data.get("patch"))

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"deck_specs": data.get("decks") or [], "agent": data["agent"],
                "further_agents": data.get("further_agents") or [],
                "band": tuple(BAND[i] if data.get(k) is None else data[k]
                              for i, k in enumerate(("band_low", "band_high"))),
                "patch": data.get("patch"),
                "max_changes": data["max_changes"],
                "settle": data["settle"], "max_rounds": data["max_rounds"],
                "budget_games": data["budget_games"], "verify_games": data["verify_games"],
                "seed": data.get("seed"), "is_public": data.get("public", False)}
