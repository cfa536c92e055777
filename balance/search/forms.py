"""The "Balance search" form: it shapes input for the service, which decides what is valid;
the service's messages land on the matching field."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from balance.forms import JobForm, choice_field, grouped_decks, public_field, seed_field
from balance.models import Objective
from balance.search.adapted import (
    DEFAULT_ANSWER_CHECK,
    DEFAULT_FORECAST_SEEDS,
    DEFAULT_LIST_CHANGES,
    MAX_ANSWER_CHECK,
)
from balance.tuning.forms import patch_of_text
from cards.game_words import agent_menu, game_word_lazy
from rules.ai.agents import DEFAULT_AGENT
from rules.lab.balance_search.adapted import (
    DEFAULT_EXPLOIT_LIMIT,
    DEFAULT_ITERATIONS,
    MAX_FORECAST_SEEDS,
)
from rules.lab.balance_search.problem import DEFAULT_STRONG_BUDGET, DEFAULT_STRONG_VERIFY
from rules.lab.balance_search.space import FIELDS

if TYPE_CHECKING:
    from common.visitor import Visitor

PICK_TWO = _("Pick at least two decks.")
FIELD_CHOICES = [("cost", _("Cost (minions and items)")), ("attack", _("Attack (minions)")),
                 ("hp", _("HP (heroes)")), ("keywords", _("Keywords (add or remove one)")),
                 ("attribute", game_word_lazy("field", "attribute")),
                 ("abilities", _("Numbers inside abilities (and removing an effect)"))]
FIELD_OF = {"decks": "decks", "agent": "agent", "band": "band_low", "max_changes": "max_changes",
            "budget_games": "budget_games", "verify_games": "verify_games", "fields": "fields",
            "allowed_cards": "allowed_cards", "seed": "seed", "objective": "objective",
            "field_band": "field_band_low", "matchup_band": "matchup_band_low",
            "epsilon": "epsilon", "min_share": "min_share", "agents": "strong_agent",
            "strong_budget_games": "strong_budget_games",
            "strong_verify_games": "strong_verify_games", "iterations": "iterations",
            "list_changes": "list_changes", "exploit_limit": "exploit_limit",
            "forecast_seeds": "forecast_seeds", "answer_check": "answer_check",
            "adapted": "objective",
            "live_patch": "live_patch", "max_edits": "max_edits"}
OBJECTIVE_HELP = _(
    "A healthy meta: every deck's win rate against the field in the field band, every matchup "
    "in the matchup band, and a field that adapts (the ε-equilibrium) still playing every deck "
    "at least the minimum share. A healthy meta after players adapt: the same targets on the "
    "lists players re-tune to each candidate patch (a meta forecast), and no deck one more "
    "tuning takes above the highest exploitability. Every matchup in a band: every matchup "
    "near 50 %, which a rock-paper-scissors field rarely reaches in a few changes.")
assert [code for code, _ in FIELD_CHOICES] == list(FIELDS)
# The fields of some objectives only: the page shows them when one of those is chosen
# (static/js/site.js, data-shown-for; without the script every field shows).
OBJECTIVE_FIELDS = {
    f"{Objective.META}|{Objective.ADAPTED}": (
        "strong_agent", "strong_budget_games", "strong_verify_games", "field_band_low",
        "field_band_high", "matchup_band_low", "matchup_band_high", "epsilon", "min_share"),
    Objective.ADAPTED: ("iterations", "list_changes", "exploit_limit", "forecast_seeds",
                        "answer_check"),
    Objective.BAND: ("band_low", "band_high"),
}


def _field(form: forms.BaseForm, name: str) -> forms.Field:
    """The form's own copy of ``name`` (typed through the base class: this form declares a
    field called ``fields``)."""
    return form.fields[name]


class BalanceSearchForm(JobForm):
    FIELD_OF = FIELD_OF

    decks = forms.MultipleChoiceField(
        label=_("Field"), widget=forms.CheckboxSelectMultiple(attrs={"class": "opponent"}),
        help_text=_("Every pair of these decks is a matchup the search brings into the band."))
    agent = forms.ChoiceField(label=_("Agent"), choices=agent_menu, initial=DEFAULT_AGENT)
    strong_agent = forms.ChoiceField(
        label=_("Hold the meta under this agent too"), required=False,
        choices=lambda: [("", _("No other agent")), *agent_menu()],
        help_text=_("Meta objective: a stronger agent stands for skilled play. The agent above "
                    "screens and races; this one checks the finalists on its own games and "
                    "re-verifies the best, so the patch holds for both levels of play."))
    strong_budget_games = forms.IntegerField(
        label=_("Its budget (games)"), initial=DEFAULT_STRONG_BUDGET, min_value=1,
        required=False,
        help_text=_("Games the second agent may play while searching (the AI players page "
                    "gives each agent's CPU time a game)."))
    strong_verify_games = forms.IntegerField(
        label=_("Its re-verification (games a matchup)"), initial=DEFAULT_STRONG_VERIFY,
        min_value=1, required=False)
    objective = forms.ChoiceField(label=_("Objective"), choices=Objective.choices,
                                  initial=Objective.META, widget=forms.RadioSelect,
                                  help_text=OBJECTIVE_HELP)
    field_band_low = forms.FloatField(label=_("Field win rate from (%)"), initial=47,
                                      min_value=0, max_value=100)
    field_band_high = forms.FloatField(
        label=_("Field win rate to (%)"), initial=53, min_value=0, max_value=100,
        help_text=_("A healthy meta: each deck's win rate against the rest of the field."))
    matchup_band_low = forms.FloatField(label=_("Every matchup from (%)"), initial=30,
                                        min_value=0, max_value=100)
    matchup_band_high = forms.FloatField(
        label=_("Every matchup to (%)"), initial=70, min_value=0, max_value=100,
        help_text=_("A healthy meta: polarised matchups are fine within these bounds."))
    # In win-rate points, as the result pages speak of ε; the service takes a share (÷ 100).
    epsilon = forms.FloatField(
        label=_("ε (win-rate points a deck may give up)"), initial=0.5, min_value=0,
        max_value=49.99,
        help_text=_("A healthy meta: the ε-equilibrium is the most even mix of decks against "
                    "which no deck wins more than ε points above even (0.5: half a point)."))
    min_share = forms.FloatField(
        label=_("Smallest share of each deck (%)"), initial=5, min_value=0, max_value=100,
        help_text=_("A healthy meta: every deck's share of the ε-equilibrium."))
    iterations = forms.IntegerField(
        label=_("Patches to try"), initial=DEFAULT_ITERATIONS, min_value=1, max_value=6,
        required=False,
        help_text=_("After players adapt: each patch is searched on the lists players adapted "
                    "to the last one, then judged on a new forecast."))
    list_changes = forms.IntegerField(
        label=_("Cards an adapted list may change"), initial=DEFAULT_LIST_CHANGES, min_value=1,
        max_value=15, required=False)
    exploit_limit = forms.FloatField(
        label=_("Highest exploitability (%)"), initial=DEFAULT_EXPLOIT_LIMIT * 100,
        min_value=50, max_value=100, required=False,
        help_text=_("After players adapt: the best field win rate one more tuning may reach "
                    "against the adapted mix."))
    forecast_seeds = forms.IntegerField(
        label=_("Forecasts of each patch"), initial=DEFAULT_FORECAST_SEEDS, min_value=1,
        max_value=MAX_FORECAST_SEEDS, required=False,
        help_text=_("After players adapt: each patch is forecast on this many seeds and judged "
                    "by the worst, since forecasts on other seeds can settle in other metas. "
                    "Each one adds a forecast's games."))
    answer_check = forms.IntegerField(
        label=_("Patches priced against the lists' answer"), initial=DEFAULT_ANSWER_CHECK,
        min_value=0, max_value=MAX_ANSWER_CHECK, required=False,
        help_text=_("After players adapt: each search's best patches, up to this many, are "
                    "played once every list of each forecast seed has re-tuned once against "
                    "them; the one whose worse answer holds best is forecast. 0: the search's "
                    "own pick. Each costs about one round of a forecast a seed."))
    band_low = forms.FloatField(label=_("Band from (%)"), initial=45, min_value=0, max_value=50)
    band_high = forms.FloatField(
        label=_("Band to (%)"), initial=55, min_value=50, max_value=100,
        help_text=_("Every matchup in a band: the band each matchup's win rate must reach."))
    max_changes = forms.IntegerField(label=_("Most changes"), initial=6, min_value=1,
                                     max_value=12)
    # The input is named "fields" (the service's word): Django's form metaclass moves it to the
    # declared fields, so it never hides ``BaseForm.fields`` at run time.
    fields = forms.MultipleChoiceField(  # type: ignore[assignment]
        label=_("What may change"), choices=FIELD_CHOICES, initial=["cost", "attack", "hp"],
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Numbers move at most 2 from the printed value."))
    allowed_cards = forms.CharField(
        label=_("Only these cards"), required=False,
        help_text=_("Card codes separated by commas (empty: every card of the field's decks)."))
    budget_games = forms.IntegerField(
        label=_("Budget (games)"), initial=300_000, min_value=1,
        help_text=_("Games the search may play before it re-verifies; two worker processes play "
                    "about 4,000 greedy games a second."))
    verify_games = forms.IntegerField(label=_("Re-verification (games a matchup)"), initial=2000,
                                      min_value=1)
    live_patch = forms.CharField(
        label=_("Live patch (JSON)"), required=False, max_length=20_000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("A patch already out (the format of a patch.json file): the search starts "
                    "from it and may extend it, change it or take its changes back. Empty: "
                    "the printed cards."))
    max_edits = forms.IntegerField(
        label=_("Most edits of the starting patch"), required=False, min_value=1, max_value=12,
        help_text=_("With a live patch, or after players adapt (each search starts from the "
                    "patch the lists adapted to): a patch the search proposes differs from the "
                    "one it starts from in at most this many places. A short step keeps the "
                    "next patch from overshooting what players re-tune to. Empty: no cap."))
    seed = seed_field()
    public = public_field()

    def __init__(self, *args: Any, user: Visitor = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        choice_field(self, "decks").choices = grouped_decks(user)
        for objective, names in OBJECTIVE_FIELDS.items():
            for name in names:
                _field(self, name).widget.attrs["data-shown-for"] = f"objective={objective}"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None   # Form.clean returns the cleaned data
        if len(data.get("decks") or []) < 2:
            self.add_error("decks", PICK_TWO)
        return data

    def clean_live_patch(self) -> dict[str, Any] | None:
        return patch_of_text(self.cleaned_data.get("live_patch"))

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        cards = [c.strip() for c in (data.get("allowed_cards") or "").split(",") if c.strip()]
        second = data.get("strong_agent")
        return {"deck_specs": data["decks"], "agent": data["agent"],
                "agents": [data["agent"], second] if second else None,
                "strong_budget_games": data.get("strong_budget_games") or DEFAULT_STRONG_BUDGET,
                "strong_verify_games": data.get("strong_verify_games") or DEFAULT_STRONG_VERIFY,
                "objective": data["objective"],
                "field_band": (data["field_band_low"] / 100, data["field_band_high"] / 100),
                "matchup_band": (data["matchup_band_low"] / 100,
                                 data["matchup_band_high"] / 100),
                "epsilon": data["epsilon"] / 100, "min_share": data["min_share"] / 100,
                "band": (data["band_low"] / 100, data["band_high"] / 100),
                "max_changes": data["max_changes"], "budget_games": data["budget_games"],
                "verify_games": data["verify_games"], "fields": data["fields"],
                "allowed_cards": cards or None, "seed": data.get("seed"),
                "is_public": data.get("public", False),
                "live_patch": data.get("live_patch"), "max_edits": data.get("max_edits"),
                **self._adapted(data)}

    @staticmethod
    def _adapted(data: dict[str, Any]) -> dict[str, Any]:
        if data["objective"] != Objective.ADAPTED:
            return {}
        options = {"iterations": data.get("iterations"),
                   "list_changes": data.get("list_changes"),
                   "exploit_limit": None if data.get("exploit_limit") is None
                   else data["exploit_limit"] / 100,
                   "forecast_seeds": data.get("forecast_seeds"),
                   "answer_check": data.get("answer_check")}
        return {"adapted": {k: v for k, v in options.items() if v is not None}}
