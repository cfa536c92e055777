"""The patch page (pick a card, edit its printed fields, see the new card and its rules text
live, then play it in a run or a sweep) and a sweep's page (chart, table, each point linked).

Views only translate HTTP to the engine's patch functions and the services.
"""

from __future__ import annotations

import copy
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from cards.adapters import card_to_data, refresh_derived
from cards.art import card_art
from cards.game_words import say
from cards.models import Card, display_names
from cards.selectors import card_rows
from common.forms import PickForm
from common.language import (
    frozen_card_name,
    html_lang,
    localized_value,
    other_language,
    other_value,
    reader_language,
)
from common.throttles import submit_allowed
from rules.engine.text import written_languages
from rules.lab.patches import Patch, PatchError, patch_apply, patch_diff
from simulations.models import Sweep
from simulations.patches.forms import NO_CHANGE, NO_RANGE, PatchForm, PlayForm
from simulations.patches.text import change_line, field_name
from simulations.services import SimulationInputError, simulation_request
from simulations.sweeps.charts import sweep_chart
from simulations.sweeps.services import sweep_get, sweep_results, sweep_submit
from simulations.views import THROTTLED

NO_CARD = gettext_lazy("No card with code {code!r}.")
NO_SWEEP = gettext_lazy("No sweep here.")


def _card(code: str | None) -> Card:
    """A card the engine plays (another game's card cannot be patched: it is never simulated)."""
    rows = card_rows().filter(engine=True)
    card = rows.filter(code=code).first() if code else rows.order_by("code").first()
    if card is None:
        raise Http404(str(NO_CARD).format(code=code))
    return card


def _preview(card: Card, form: PatchForm) -> dict[str, Any]:
    """The patched card drawn and described, or the problems that stop it."""
    if not form.is_valid():
        return {"problems": [e for errors in form.errors.values() for e in errors]}
    patch = form.patch()
    if not patch["changes"]:
        return {"problems": [], "unchanged": True, "svg": _svg(card)}
    data = card.to_data()
    try:
        parsed = Patch.from_dict(patch)
        patched = patch_apply({card.code: data}, parsed)[card.code]
    except PatchError as exc:
        return {"problems": [say(problem) for problem in exc.problems]}
    shown = copy.copy(card)
    for field in ("cost", "attack", "hp", "attribute", "rarity", "keywords", "abilities"):
        default: list[Any] | None = [] if field in ("keywords", "abilities") else None
        setattr(shown, field, patched.get(field, default))
    refresh_derived(shown, {lang: display_names(lang) for lang in written_languages()})
    return {"problems": [], "svg": _svg(shown), "text": localized_value(shown, "text"),
            "other_text": other_value(shown, "text"), "other_lang": html_lang(other_language()),
            "diff": patch_diff({card.code: data}, parsed),
            "lines": [change_line({card.code: data}, c.card, c.field, c.value)
                      for c in parsed.changes],
            "patch": patch}


def _svg(card: Card) -> str:
    return mark_safe(render_to_string("cards/card.svg", {"a": card_art(card, reader_language())}))


@require_GET
def patch_preview(request: HttpRequest) -> HttpResponse:
    """The live preview fragment (htmx): new card image, rules text and diff."""
    card = _card(request.GET.get("card"))
    form = PatchForm(request.GET, card_data=card_to_data(card))
    return render(request, "simulations/_patch_preview.html",
                  {"card": card, "preview": _preview(card, form)})


def _picked_card(request: HttpRequest) -> tuple[str, list[str]]:
    """The code of the card to patch (posted, else in the address) and why it was refused."""
    code, errors = PickForm.read(request.POST, "card")
    if not code and not errors:
        code, errors = PickForm.read(request.GET, "card")
    return code, errors


@login_required
def patch_page(request: HttpRequest) -> HttpResponse:
    code, card_errors = _picked_card(request)
    card = _card(code or None)     # refused: the first card, and nothing is played
    data = card_to_data(card)
    form = PatchForm(request.POST or None, card_data=data)
    play = PlayForm(request.POST or None, user=request.user,
                    initial={"sweep_field": "attack" if "attack" in data else "cost"})
    if request.method == "POST" and not card_errors:
        response = _submit(request, card, form, play)
        if response is not None:
            return response
    preview = _preview(card, form) if form.is_bound else {"svg": _svg(card), "problems": [],
                                                          "unchanged": True}
    return render(request, "simulations/patch.html", {
        "card": card, "card_errors": card_errors, "form": form, "play": play,
        "preview": preview,
        "cards": _card_menu()},
        status=400 if request.method == "POST" or card_errors else 200)


def _card_menu() -> list[tuple[str, str]]:
    """(code, name in the page's language) of every card the engine plays, by code."""
    return [(code, localized_value({"names": names}, "name")) for code, names
            in card_rows().filter(engine=True).order_by("code").values_list("code", "names")]


def _submit(request: HttpRequest, card: Card, form: PatchForm, play: PlayForm
            ) -> HttpResponse | None:
    """Start the run or the sweep; None (errors on the forms) if it cannot start."""
    sweeping = request.POST.get("action") == "sweep"
    if not (form.is_valid() and play.is_valid()):
        return None
    values = play.sweep_values() if sweeping else None
    if sweeping and values is None:
        if not play.errors:
            play.add_error("sweep_from", NO_RANGE)
        return None
    if not sweeping and not form.changes():
        form.add_error(None, NO_CHANGE)
        return None
    if not submit_allowed(request):
        play.add_error(None, THROTTLED)
        return None
    data = play.cleaned_data
    common: dict[str, Any] = {
        "user": request.user, "kind": data["kind"], "deck_specs": play.deck_specs(),
        "games": data["games"], "agent_a": data["agent_a"], "agent_b": data["agent_b"],
        "seed": data.get("seed"), "is_public": data.get("public", False)}
    try:
        if sweeping and values is not None:     # a sweep has its values (checked above)
            sweep = sweep_submit(card=card.code, field=data["sweep_field"], values=values,
                                 **common)
            return redirect("simulations:sweep", sweep.uid)
        run = simulation_request(patch=form.patch(), patch_names=form.patch_names(),
                                 **common)
    except SimulationInputError as exc:
        if exc.field == "patch":
            form.add_error(None, exc.message)
        else:
            play.add_service_error(exc)
        return None
    return redirect(run)


@require_GET
def sweep_detail(request: HttpRequest, uid: str) -> HttpResponse:
    try:
        sweep = sweep_get(uid=uid, user=request.user)
    except Sweep.DoesNotExist:
        raise Http404(NO_SWEEP) from None
    results = sweep_results(sweep)
    name = frozen_card_name(sweep.baseline.cards if sweep.baseline else {}, sweep.card)
    field = field_name(sweep.field)
    chart = sweep_chart(results["lines"], values=sorted({*sweep.values,
                                                         sweep.baseline_value}),
                        field=field, baseline_value=sweep.baseline_value,
                        title=_("Win rate against {name}'s {field}").format(
                            name=name, field=field))
    return render(request, "simulations/sweep.html",
                  {"sweep": sweep, "results": results, "chart": chart, "card_name": name,
                   "field_name": field})
