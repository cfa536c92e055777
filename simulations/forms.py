"""The "Simulate" form and the meta view's ε. They only shape input for the services; the
services decide what is valid and their messages land on the matching field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy

from cards.game_words import agent_menu, game_word
from common.forms import RefuseNulForm
from rules.ai.agents import DEFAULT_AGENT
from simulations import conf
from simulations.agents.strength import cost_lines
from simulations.meta.field import EPSILON_DEFAULT_POINTS, EpsilonError, epsilon_share
from simulations.models import RunKind
from simulations.services import SimulationInputError
from simulations.sources import DeckChoice, deck_choices
from simulations.templatetags.simulations_extras import ms

if TYPE_CHECKING:
    from common.visitor import Visitor

_ = gettext_lazy
STOP_CHOICES = [("", _("No: play every game")), ("0.1", _("when the interval is ±5 %")),
                ("0.05", _("when the interval is ±2.5 %")),
                ("0.02", _("when the interval is ±1 %"))]
AGENT_COST = gettext_lazy("Time of one game with the agent in both seats on this site's "
                          "workers: {costs}.")
MS_A_GAME = gettext_lazy("{agent} {ms} ms")
PICK_ONE = gettext_lazy("Pick exactly one opponent for a match (or choose a gauntlet).")
PICK_SOME = gettext_lazy("Pick at least {n} opponent(s).")


FIELD_OF = {"decks": "opponents", "kind": "kind", "games": "games", "agent_a": "agent_a",
            "agent_b": "agent_b", "seed": "seed", "stop_width": "stop_width", "public": "public"}


def _grouped(choices: list[DeckChoice]) -> list[tuple[str, list[tuple[str, str]]]]:
    groups: dict[str, list[tuple[str, str]]] = {}
    for choice in choices:
        groups.setdefault(choice.group, []).append((choice.spec, choice.label))
    return list(groups.items())


class SimulationForm(RefuseNulForm):
    kind = forms.ChoiceField(choices=RunKind.choices, initial=RunKind.MATCH,
                             widget=forms.RadioSelect, label=_("Kind of run"))
    deck = forms.ChoiceField(label=_("Deck A"))
    opponents = forms.MultipleChoiceField(
        label=_("Opponents"),
        help_text=_("A match plays one; a gauntlet each of them; a round-robin all together."),
        widget=forms.CheckboxSelectMultiple(attrs={"class": "opponent"}))
    games = forms.IntegerField(min_value=2, initial=200, label=_("Games"),
                               help_text=_("Per pairing, in seat-swapped pairs."))
    agent_a = forms.ChoiceField(label=_("Agent for deck A"), choices=agent_menu,
                                initial=DEFAULT_AGENT)
    agent_b = forms.ChoiceField(label=_("Agent for the opponents"), choices=agent_menu,
                                initial=DEFAULT_AGENT)
    seed = forms.IntegerField(
        required=False, min_value=0, label=_("Seed"),
        help_text=_("Empty: a random one (kept, so the run can be repeated)."))
    stop_width = forms.TypedChoiceField(label=_("Stop early"), choices=STOP_CHOICES, coerce=float,
                                        empty_value=None, required=False)
    public = forms.BooleanField(required=False, label=_("Public: anyone can see the results"))

    def __init__(self, *args: Any, user: Visitor = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        grouped = _grouped(deck_choices(user))
        # Declared as choice fields above: their menus are the decks this user may simulate.
        cast(forms.ChoiceField, self.fields["deck"]).choices = grouped
        cast(forms.MultipleChoiceField, self.fields["opponents"]).choices = grouped
        self.fields["games"].widget.attrs["max"] = conf.max_games()
        costs = cost_lines()
        if costs:
            listed = ", ".join(
                MS_A_GAME.format(agent=game_word("agent", name), ms=ms(seconds))
                for name, seconds in costs)
            self.fields["agent_a"].help_text = AGENT_COST.format(costs=listed)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or self.cleaned_data
        kind, opponents = data.get("kind"), data.get("opponents") or []
        if kind == RunKind.MATCH and len(opponents) != 1:
            self.add_error("opponents", PICK_ONE)
        elif kind == RunKind.ROUND_ROBIN and len(opponents) < 2:
            self.add_error("opponents", PICK_SOME.format(n=2))
        return data

    def deck_specs(self) -> list[str]:
        return [self.cleaned_data["deck"], *self.cleaned_data["opponents"]]

    def add_service_error(self, exc: SimulationInputError) -> None:
        self.add_error(FIELD_OF.get(exc.field), exc.message)


class MetaForm(forms.Form):
    """ε for the meta view, in points of win rate: a GET form (``?epsilon=1``) on any page that
    shows ``simulations/_meta.html``. ``share()`` is ε as ``rules.lab.meta`` takes it — the default
    when the query has none or a bad one (the bad one is this form's error)."""

    epsilon = forms.CharField(
        required=False, max_length=12, label=_("ε: win rate a deck may give up (points)"),
        widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 4}))

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> MetaForm:
        if (query.get("epsilon") or "").strip():
            return cls(query)
        return cls(initial={"epsilon": number_format(EPSILON_DEFAULT_POINTS, 1)})

    def clean_epsilon(self) -> float:
        try:
            return epsilon_share(self.cleaned_data.get("epsilon"))
        except EpsilonError as exc:
            raise forms.ValidationError(str(exc)) from None

    def share(self) -> float:
        if self.is_bound and self.is_valid():
            share: float = self.cleaned_data["epsilon"]
            return share
        return epsilon_share(None)
