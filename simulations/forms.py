"""The "Simulate" form and the what-if form. They only shape input for the services; the
services decide what is valid and their messages land on the matching field."""

from __future__ import annotations

from django import forms

from simulations import conf
from simulations.models import RunKind, SimulationRun
from simulations.services import SimulationInputError
from simulations.sources import deck_choices

AGENT_CHOICES = [("greedy", "Greedy (fast heuristic)"), ("random", "Random"),
                 ("search", "Search (strong, ~0.05-0.2 s a game)")]
STOP_CHOICES = [("", "No: play every game"), ("0.1", "when the interval is ±5 %"),
                ("0.05", "when the interval is ±2.5 %"), ("0.02", "when the interval is ±1 %")]
PICK_ONE = "Pick exactly one opponent for a match (or choose a gauntlet)."
PICK_SOME = "Pick at least {n} opponent(s)."
FIELD_OF = {"decks": "opponents", "kind": "kind", "games": "games", "agent_a": "agent_a",
            "agent_b": "agent_b", "seed": "seed", "stop_width": "stop_width", "public": "public"}


def _grouped(choices) -> list:
    groups: dict[str, list] = {}
    for choice in choices:
        groups.setdefault(choice.group, []).append((choice.spec, choice.label))
    return list(groups.items())


class SimulationForm(forms.Form):
    kind = forms.ChoiceField(choices=RunKind.choices, initial=RunKind.MATCH,
                             widget=forms.RadioSelect)
    deck = forms.ChoiceField(label="Deck A")
    opponents = forms.MultipleChoiceField(
        help_text="A match plays one; a gauntlet each of them; a round-robin all together.",
        widget=forms.CheckboxSelectMultiple(attrs={"class": "opponent"}))
    games = forms.IntegerField(min_value=2, initial=200,
                               help_text="Per pairing, in seat-swapped pairs.")
    agent_a = forms.ChoiceField(label="Agent for deck A", choices=AGENT_CHOICES,
                                initial="greedy")
    agent_b = forms.ChoiceField(label="Agent for the opponents", choices=AGENT_CHOICES,
                                initial="greedy")
    seed = forms.IntegerField(required=False, min_value=0,
                              help_text="Empty: a random one (kept, so the run can be repeated).")
    stop_width = forms.TypedChoiceField(label="Stop early", choices=STOP_CHOICES, coerce=float,
                                        empty_value=None, required=False)
    public = forms.BooleanField(required=False, label="Public: anyone can see the results")

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        grouped = _grouped(deck_choices(user))
        self.fields["deck"].choices = grouped
        self.fields["opponents"].choices = grouped
        self.fields["games"].widget.attrs["max"] = conf.max_games()

    def clean(self):
        data = super().clean()
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


class WhatIfForm(forms.Form):
    deck = forms.TypedChoiceField(coerce=int, label="In deck")
    card_out = forms.ChoiceField(label="Swap out")
    card_in = forms.ChoiceField(label="Swap in")

    def __init__(self, *args, run: SimulationRun, catalogue: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["deck"].choices = [(i, run.deck_name(i)) for i in range(len(run.decks))]
        outs = []
        for i, deck in enumerate(run.decks):
            codes = [deck["hero"], *sorted(deck["cards"])]
            outs.append((run.deck_name(i), [(c, _card_label(run, c)) for c in codes]))
        self.fields["card_out"].choices = outs
        self.fields["card_in"].choices = catalogue

    def add_service_error(self, exc: SimulationInputError) -> None:
        self.add_error(exc.field if exc.field in self.fields else None, exc.message)


def _card_label(run: SimulationRun, code: str) -> str:
    data = run.cards.get(code, {})
    return f"{data.get('name_en', code)} ({code})"
