"""The new-game form: the two decks, the opponent (an AI player or yourself), who goes first,
the seed and the ruleset's options (each labelled by the engine's own sentence for it)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, cast

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from cards.game_words import game_word
from play.models import HUMAN
from rules.ai.agents import AGENT_NAMES
from rules.engine.cards import Ruleset
from simulations.agents.strength import agent_rating
from simulations.sources import DeckChoice

# Numbers a person may change; the other number options keep the rule book's values.
NUMBER_OPTIONS = ("turn_limit",)


def agent_choice_label(name: str) -> str:
    """An AI player with its strength on the ladder: "Planner (strong) — Elo 865 (95 %:
    772–959)"."""
    label = game_word("agent_label", name)
    rating = agent_rating(name)
    if rating is None:
        return label
    if rating.get("anchor"):
        return gettext("{label} — Elo 0 (the ladder's zero point)").format(label=label)
    return gettext("{label} — Elo {elo:.0f} (95 %: {low:.0f}–{high:.0f})").format(
        label=label, elo=rating["elo"], low=rating["low"], high=rating["high"])


def _grouped(choices: list[DeckChoice]) -> list[tuple[str, list[tuple[str, str]]]]:
    groups: dict[str, list[tuple[str, str]]] = {}
    for choice in choices:
        groups.setdefault(choice.group, []).append((choice.spec, choice.label))
    return list(groups.items())


class NewGameForm(forms.Form):
    deck = forms.ChoiceField(label=_("Your deck"))
    opponent_deck = forms.ChoiceField(label=_("The opponent's deck"))
    opponent = forms.ChoiceField(label=_("Opponent"), widget=forms.RadioSelect)
    first = forms.ChoiceField(label=_("Who goes first"), initial="random",
                              choices=[("me", _("I do")), ("opponent", _("The opponent")),
                                       ("random", _("Decided by the seed"))])
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=0,
                              max_value=2**31 - 1,
                              help_text=_("Empty: a new random seed. The same seed, decks and "
                                          "moves play the same game."))

    def __init__(self, *args: Any, decks: list[DeckChoice], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        grouped = _grouped(decks)
        # Declared as choice fields above: their menus are the decks and agents of this page.
        cast(forms.ChoiceField, self.fields["deck"]).choices = grouped
        cast(forms.ChoiceField, self.fields["opponent_deck"]).choices = grouped
        cast(forms.ChoiceField, self.fields["opponent"]).choices = [
            *[(name, agent_choice_label(name)) for name in AGENT_NAMES],
            (HUMAN, gettext("Yourself: both seats on this device (hot-seat)"))]
        self.fields["opponent"].initial = AGENT_NAMES[0]
        standard = Ruleset()
        for option in fields(Ruleset):
            value = getattr(standard, option.name)
            if isinstance(value, bool):
                self.fields[f"rule_{option.name}"] = forms.BooleanField(
                    required=False, initial=value,
                    label=game_word("ruleset_option", option.name, value=True))
            elif option.name in NUMBER_OPTIONS:
                self.fields[f"rule_{option.name}"] = forms.IntegerField(
                    min_value=1, max_value=99, initial=value,
                    label=game_word("ruleset_option", option.name, value="…"))

    def rule_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith("rule_")]

    def ruleset(self) -> dict[str, Any]:
        """The options that differ from the rule book's."""
        standard = Ruleset().to_dict()
        chosen = {name.removeprefix("rule_"): value for name, value in self.cleaned_data.items()
                  if name.startswith("rule_")}
        return {k: v for k, v in chosen.items() if v != standard.get(k)}
