"""The patch page's forms: a card's printed fields to edit (with a live preview), and how to play
the patch — one run, or a sweep over a range of one field. They only shape input: the engine
(``rules.lab.patches``) and the services decide what is valid."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy

from cards.game_words import game_word, game_word_lazy
from common.forms import NUL_IN_FIELD, RefuseNulForm, holds_nul
from common.language import frozen_card_name
from rules.engine.cards import ATTRIBUTES, KEYWORDS, RARITIES
from rules.lab.patches import NAME_MAX, ability_changes, is_ability_path
from simulations.forms import SimulationForm
from simulations.patches.text import field_name, value_text
from simulations.sweeps.services import MAX_VALUE, MAX_VALUES, SWEEP_FIELDS

NOT_JSON = gettext_lazy("Abilities must be a JSON list (as on the card's page): {error}.")
TOO_DEEP = gettext_lazy("lists and objects nested too deeply")
NO_CHANGE = gettext_lazy("Change at least one field of the card.")
NO_RANGE = gettext_lazy("Give the range of values to try.")
RANGE_ORDER = gettext_lazy("The range must go up: 'from' below 'to'.")
RANGE_SIZE = gettext_lazy("A sweep tries from 2 to {n} values: narrow the range or raise the "
                          "step.")


def _keyword_choices() -> list[tuple[str, str]]:
    """Every registered keyword, read when the form is built (a later keyword is offered)."""
    return [(k, game_word("keyword", k, prose=True)) for k in KEYWORDS]


class PatchForm(RefuseNulForm):
    """The new values of one card's fields; ``changes(data)`` lists those that differ."""

    name = forms.CharField(max_length=NAME_MAX, required=False, label=gettext_lazy("Patch name"),
                           help_text=gettext_lazy("Empty: named after the changes."))
    cost = forms.IntegerField(required=False, min_value=0, max_value=MAX_VALUE,
                              label=game_word_lazy("field", "cost"))
    attack = forms.IntegerField(required=False, min_value=0, max_value=MAX_VALUE,
                                label=game_word_lazy("field", "attack"))
    hp = forms.IntegerField(required=False, min_value=0, max_value=MAX_VALUE,
                            label=game_word_lazy("field", "hp"))
    attribute = forms.ChoiceField(
        required=False, label=game_word_lazy("field", "attribute"),
        choices=[("", gettext_lazy("none")),
                 *[(a, game_word_lazy("attribute", a, prose=True)) for a in ATTRIBUTES]])
    rarity = forms.ChoiceField(choices=[(r, r) for r in RARITIES],
                               label=game_word_lazy("field", "rarity"))
    keywords = forms.MultipleChoiceField(required=False,
                                         label=game_word_lazy("field", "keywords", prose=True),
                                         choices=_keyword_choices,
                                         widget=forms.CheckboxSelectMultiple)
    abilities = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 6}),
                                label=game_word_lazy("field", "abilities"),
                                help_text=gettext_lazy("The effect vocabulary, as JSON."))

    def __init__(self, *args: Any, card_data: dict[str, Any], **kwargs: Any) -> None:
        self.card_data = card_data
        initial = {name: card_data.get(name) for name in ("cost", "attack", "hp", "attribute",
                                                          "rarity")}
        initial["keywords"] = list(card_data.get("keywords") or [])
        initial["abilities"] = json.dumps(card_data.get("abilities") or [], ensure_ascii=False,
                                          indent=1)
        super().__init__(*args, initial=initial, **kwargs)
        for name in ("cost", "attack", "hp"):
            if name not in card_data:    # a hero has no cost, a minion no HP …
                del self.fields[name]

    def clean_abilities(self) -> Any:     # the effect vocabulary's JSON, checked by the patch
        text = self.cleaned_data.get("abilities") or "[]"
        try:
            value = json.loads(text)
        except RecursionError:     # Python's reader recurses once per level
            raise forms.ValidationError(str(NOT_JSON).format(error=TOO_DEEP)) from None
        except ValueError as exc:  # bad JSON, or a number too long to convert
            raise forms.ValidationError(str(NOT_JSON).format(error=exc)) from None
        if holds_nul(value):       # "\u0000" in the JSON: no store takes it
            raise forms.ValidationError(NUL_IN_FIELD, code="null_characters_not_allowed")
        return value

    def changes(self) -> list[dict[str, Any]]:
        """One change per field whose value differs from the card's."""
        data, out = self.cleaned_data, []
        for name in ("cost", "attack", "hp", "attribute", "rarity", "keywords", "abilities"):
            if name not in self.fields or name not in data:
                continue
            if name != "keywords" and name not in self.data:   # not sent: left as it is
                continue
            new = data[name]
            if name == "attribute":
                new = new or None
            old = self.card_data.get(name)
            if name == "keywords" and set(new or ()) == set(old or ()):
                continue
            if (new or None) != (old or None) and not (new is None and name in ("cost",
                                                                                "attack", "hp")):
                if name == "abilities":     # numbers moved, an effect removed: said as such
                    parts = ability_changes(old or [], new or [])
                    if parts:
                        out += [{"card": self.card_data["code"], "field": path, "value": value}
                                for path, value in parts]
                        continue
                out.append({"card": self.card_data["code"], "field": name, "value": new})
        return out

    def patch(self) -> dict[str, Any]:
        changes = self.changes()
        name = self.cleaned_data.get("name") or self._generated_name(changes)
        return {"name": name or str(NO_CHANGE), "changes": changes}

    def patch_names(self) -> dict[str, str] | None:
        """The generated name in each of the site's languages ("Blazing Charger attack 5",
        "烈焰冲锋者 攻击力 5"); None when the user named the patch (their words, as typed)."""
        if self.cleaned_data.get("name"):
            return None
        changes = self.changes()
        names = {}
        for code, _label in settings.LANGUAGES:
            with translation.override(code):
                names[code] = self._generated_name(changes) or str(NO_CHANGE)
        return names

    def _generated_name(self, changes: list[dict[str, Any]]) -> str:
        card = frozen_card_name({self.card_data["code"]: self.card_data},
                                self.card_data["code"])
        return ", ".join(
            f"{card} {field_name(c['field'])} {value_text(c['field'], c['value'])}"
            if not is_ability_path(c["field"]) else f"{card} {c['field']} {c['value']}"
            for c in changes)[:NAME_MAX]


class PlayForm(SimulationForm):
    """Decks, games and agents to play the patch with; a sweep adds a field and a range."""

    sweep_field = forms.ChoiceField(required=False, label=gettext_lazy("Sweep over"),
                                    choices=[(f, game_word_lazy("field", f, prose=True))
                                             for f in SWEEP_FIELDS])
    sweep_from = forms.IntegerField(required=False, min_value=0, max_value=MAX_VALUE,
                                    label=gettext_lazy("from"))
    sweep_to = forms.IntegerField(required=False, min_value=0, max_value=MAX_VALUE,
                                  label=gettext_lazy("to"))
    sweep_step = forms.IntegerField(required=False, min_value=1, max_value=MAX_VALUE,
                                    initial=1, label=gettext_lazy("step"))

    def sweep_values(self) -> list[int] | None:
        data = self.cleaned_data
        low, high, step = data.get("sweep_from"), data.get("sweep_to"), data.get("sweep_step")
        if low is None or high is None:
            return None
        if low >= high:
            self.add_error("sweep_to", RANGE_ORDER)
            return None
        values = list(range(low, high + 1, step or 1))
        if not 2 <= len(values) <= MAX_VALUES:
            self.add_error("sweep_step", str(RANGE_SIZE).format(n=MAX_VALUES))
            return None
        return values
