"""The "Tune a deck" form: the deck is chosen first (its page links here with ``?deck=``), then
its field, agent, the cards to keep and the budget; the service decides what is valid and its
messages land on the matching field."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from balance.forms import JobForm, choice_field, grouped_decks, public_field, seed_field
from cards.game_words import agent_menu
from common.forms import RefuseNulForm
from rules.ai.agents import DEFAULT_AGENT

if TYPE_CHECKING:
    from common.visitor import Visitor

FIELD_OF = {"deck": "deck", "field": "field", "gauntlet": "gauntlet", "agent": "agent",
            "keep": "keep", "heroes": "any_hero", "max_swaps": "max_swaps",
            "budget_games": "budget_games", "verify_games": "verify_games", "seed": "seed",
            "shares": "shares", "patch": "patch"}
BAD_SHARES = _("Give numbers separated by commas, one for each deck of the field.")
BAD_PATCH = _("Give a balance patch as JSON: {\"name\": …, \"changes\": [{\"card\": …, "
              "\"field\": …, \"value\": …}]}.")


def patch_of_text(text: str | None) -> dict[str, Any] | None:
    """A form's patch field: its JSON object, None when empty; a form error otherwise (the
    service checks what the patch changes)."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict):
        raise forms.ValidationError(BAD_PATCH)
    return data


class TuningDeckForm(RefuseNulForm):
    """Step one: which deck (GET)."""

    deck = forms.ChoiceField(label=_("Deck to tune"))

    def __init__(self, *args: Any, user: Visitor = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choice_field(self, "deck").choices = grouped_decks(user)

    @classmethod
    def refusing(cls, errors: Iterable[str], *, user: Visitor) -> TuningDeckForm:
        """The picker again, its field showing why the deck asked for was refused: the page's
        reading of ``?deck=`` (``PickForm``: too long, or holding NUL), not this menu's own
        check of a choice, which a deck from another page's link need not be."""
        form = cls({}, user=user)
        form.errors.clear()   # bound to nothing chosen: the refusal is its only error
        for message in errors:
            form.add_error("deck", message)
        return form


class TuningForm(JobForm):
    FIELD_OF = FIELD_OF

    deck = forms.CharField(widget=forms.HiddenInput)
    field = forms.MultipleChoiceField(
        label=_("Field"), required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "opponent"}),
        help_text=_("The decks it should beat more often. None ticked: the starter decks."))
    gauntlet = forms.CharField(
        label=_("Or a gauntlet run"), required=False, max_length=40,
        help_text=_("A simulation run's id (from its address): its decks become the field."))
    agent = forms.ChoiceField(label=_("Agent"), choices=agent_menu, initial=DEFAULT_AGENT)
    # Its own field group (a plainer box than a list of decks). Django takes template_name on
    # every field; django-stubs lists it on Field only.
    keep = forms.MultipleChoiceField(  # type: ignore[call-arg]
        label=_("Cards to keep"), required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("Every copy of these stays in the deck."),
        template_name="forms/field_keep_list.html")
    any_hero = forms.BooleanField(label=_("The hero may change too"), required=False)
    max_swaps = forms.IntegerField(label=_("Most swaps"), initial=3, min_value=1, max_value=6)
    budget_games = forms.IntegerField(
        label=_("Budget (games)"), initial=100_000, min_value=1,
        help_text=_("Games the search may play before it re-verifies."))
    verify_games = forms.IntegerField(label=_("Re-verification (games against each opponent)"),
                                      initial=1000, min_value=1)
    shares = forms.CharField(
        label=_("Play shares"), required=False, max_length=200,
        help_text=_("How often each deck of the field is met, in the field's order, e.g. "
                    "3,1,1. Empty: every deck alike."))
    patch = forms.CharField(
        label=_("Balance patch (JSON)"), required=False, max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Tune against the card pool as this patch changes it (the format of a "
                    "patch.json file). Empty: the catalogue as it is."))
    seed = seed_field()
    public = public_field()

    def __init__(self, *args: Any, user: Visitor = None,
                 keep_choices: Iterable[tuple[str, str]] = (), **kwargs: Any):
        super().__init__(*args, **kwargs)
        choice_field(self, "field").choices = grouped_decks(user)
        choice_field(self, "keep").choices = list(keep_choices)

    def clean_shares(self) -> list[float] | None:
        text = (self.cleaned_data.get("shares") or "").strip()
        if not text:
            return None
        try:
            return [float(part) for part in text.split(",")]
        except ValueError:
            raise forms.ValidationError(BAD_SHARES) from None

    def clean_patch(self) -> dict[str, Any] | None:
        return patch_of_text(self.cleaned_data.get("patch"))

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {"shares": data.get("shares"), "patch": data.get("patch"),
                "deck_spec": data["deck"], "field_specs": data.get("field") or [],
                "gauntlet": (data.get("gauntlet") or "").strip() or None,
                "agent": data["agent"], "keep": data.get("keep") or [],
                "any_hero": data.get("any_hero", False), "max_swaps": data["max_swaps"],
                "budget_games": data["budget_games"], "verify_games": data["verify_games"],
                "seed": data.get("seed"), "is_public": data.get("public", False)}
