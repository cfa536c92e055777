"""The what-if form: offers only swaps the service accepts.

"Swap out" lists the hero and cards of the deck chosen in "In deck" (nothing else); "Swap in"
lists what can take that card's place — another hero for the hero, any other minion or item
for a card — narrowed by a catalogue query (the query language of the card search, so
``a:fire c<=3`` works here too). The form re-renders as the choices change (htmx), and the
service still checks everything on submit.

Every field is drawn through the site's field groups (``templates/forms/field.html``). Each
shows the choice the form read from its state (``deck_index``, ``out_code``, ``query``), not the
raw value posted: a refused swap-out still shows the card whose swap-ins are listed. The
swap-ins are the candidates the query finds (``candidates``), not every legal card the field
accepts, so the page names the template that lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from django import forms
from django.db.models import QuerySet
from django.forms.boundfield import BoundField
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from cards.game_words import game_word
from cards.models import Card
from cards.query import QuerySyntaxError
from cards.selectors import card_search
from common.forms import RefuseNulForm, holds_nul
from common.language import frozen_card_name, in_english
from simulations.models import SimulationRun

if TYPE_CHECKING:
    from simulations.services import SimulationInputError

CANDIDATES_SHOWN = 40
CANNOT_SWAP_IN = gettext_lazy("That card cannot take the place of {out}: pick one from the list.")
NOT_IN_DECK = gettext_lazy("Pick the hero or a card of {deck} to swap out.")
PICK_A_CARD = gettext_lazy("Pick the card to swap in from the list.")
HERO_KINDS = ("hero",)
CARD_KINDS = ("minion", "item")
QUERY_HINT = "simulations/_what_if_query_hint.html"


def _int(value: Any, default: int = 0) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@dataclass
class Candidates:
    """The swap-in cards matching the query (at most ``CANDIDATES_SHOWN``) and how many match."""

    cards: list[Card] = field(default_factory=list)
    total: int = 0
    error: QuerySyntaxError | None = None


class ReadBoundField(BoundField):
    """A field that shows what the form read (its initial, set from the form's state), posted
    or not: the menus and the search box agree with the swap-ins listed beside them."""

    def value(self) -> Any:
        return self.field.prepare_value(self.initial)


# The search box: each keystroke (after a pause) lists the swap-ins matching it again (htmx).
QUERY_ATTRS = {"autocomplete": "off", "autocapitalize": "off", "spellcheck": "false",
               "hx-trigger": "input changed delay:400ms, search", "hx-include": "#what-if-form",
               "hx-target": "#what-if-candidates", "hx-select": "#what-if-candidates",
               "hx-swap": "outerHTML"}


class WhatIfForm(RefuseNulForm):
    bound_field_class = ReadBoundField

    deck = forms.TypedChoiceField(coerce=int, label=gettext_lazy("In deck"))
    card_out = forms.ChoiceField(label=gettext_lazy("Swap out"))
    q = forms.CharField(required=False, max_length=300,
                        label=gettext_lazy("Find the card to swap in"),
                        widget=forms.SearchInput(attrs=QUERY_ATTRS))
    card_in = forms.ChoiceField(label=gettext_lazy("Swap in"), widget=forms.RadioSelect)

    def __init__(self, data: Mapping[str, Any] | None = None, *, run: SimulationRun,
                 initial: dict[str, Any] | None = None) -> None:
        super().__init__(data, initial=initial)
        self.initial.setdefault("card_out", None)
        self.run = run
        source = data if data is not None else (initial or {})
        self.deck_index = min(max(_int(source.get("deck")), 0), len(run.decks) - 1)
        deck = run.decks[self.deck_index]
        # Declared as choice fields above: their menus are this run's decks and cards.
        cast(forms.ChoiceField, self.fields["deck"]).choices = [
            (i, run.deck_name(i)) for i in range(len(run.decks))]
        cards_menu = sorted(((code, f"{self.name(code)} ×{n}")
                             for code, n in deck["cards"].items()), key=lambda c: c[1])
        cast(forms.ChoiceField, self.fields["card_out"]).choices = [
            (game_word("kind", "hero"), [(deck["hero"], self.name(deck["hero"]))]),
            (gettext("Cards"), cards_menu)]
        out = source.get("card_out")
        first_card = cards_menu[0][0] if deck["cards"] else None
        self.out_code: str = str(out) if out == deck["hero"] or out in deck["cards"] else (
            first_card or deck["hero"])
        self.swapping_hero = self.out_code == deck["hero"]
        query = str(source.get("q") or "")[:300]
        self.query = "" if holds_nul(query) else query    # the field says why (NUL)
        cast(forms.ChoiceField, self.fields["card_in"]).choices = [
            (c.code, c.english_name) for c in self._legal().only("code", "names")]
        self.fields["card_in"].error_messages.update(
            invalid_choice=str(CANNOT_SWAP_IN).format(out=self.out_name),
            required=PICK_A_CARD)
        self.fields["card_out"].error_messages["invalid_choice"] = str(NOT_IN_DECK).format(
            deck=run.deck_name(self.deck_index))
        self._show_state()

    def _show_state(self) -> None:
        """What the fields show: the choices read above, and the search box's hint for the
        kind of card swapped (a hero for a hero, else any card but a hero)."""
        self.initial.update(deck=self.deck_index, card_out=self.out_code, q=self.query)
        query = self.fields["q"]
        query.help_text = render_to_string(QUERY_HINT, {"swapping_hero": self.swapping_hero})
        query.widget.attrs["hx-get"] = reverse("simulations:what-if-form", args=[self.run.uid])

    def name(self, code: str) -> str:
        return frozen_card_name(self.run.cards, code)

    def _legal(self) -> QuerySet[Card]:
        kinds = HERO_KINDS if self.swapping_hero else CARD_KINDS
        # Only the engine's own cards can be played (another game's "minion" is not one).
        return (Card.objects.filter(kind__in=kinds, engine=True).exclude(code=self.out_code)
                .order_by("cost", in_english()))

    def candidates(self) -> Candidates:
        """The legal swap-ins matching the query, for the list the user picks from."""
        try:
            matching = card_search(query=self.query, order="cost").filter(
                code__in=self._legal().values("code"))
        except QuerySyntaxError as exc:
            return Candidates(error=exc)
        cards = list(matching.select_related(None).only(
            "code", "names", "kind", "cost", "attack", "hp", "attribute",
            "rarity", "updated_at")[:CANDIDATES_SHOWN])
        return Candidates(cards=cards, total=matching.count())

    @property
    def out_name(self) -> str:
        return self.name(self.out_code)

    @property
    def chosen_in(self) -> str:
        return str((self.data or {}).get("card_in") or "")

    def add_service_error(self, exc: SimulationInputError) -> None:
        self.add_error(exc.field if exc.field in self.fields else None, exc.message)
