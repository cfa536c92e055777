"""Simulation pages: the list (and a deck's run history), the "Simulate" form, a run's page with
a live progress bar (htmx polling) and then its results, cancel, what-if, and the replay viewer.

Views only translate HTTP to services and selectors; another user's private run is a 404.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from cards.models import Card
from simulations import charts
from simulations.apis import NOT_OWNER, SubmitThrottle
from simulations.forms import SimulationForm, WhatIfForm
from simulations.models import SampleGame, SimulationRun
from simulations.reaper import reap_soon
from simulations.replays import board, seats
from simulations.results import run_results
from simulations.selectors import (
    run_get,
    run_is_owner,
    run_progress,
    run_sample,
    run_samples,
    runs_listed,
)
from simulations.services import (
    SimulationInputError,
    simulation_cancel,
    simulation_request,
    simulation_what_if,
)

THROTTLED = "You have submitted many simulations lately; wait a while and try again."


def _run(request: HttpRequest, uid: str) -> SimulationRun:
    try:
        return run_get(uid=uid, user=request.user)
    except SimulationRun.DoesNotExist:
        raise Http404("No simulation here.") from None


@require_GET
def run_list(request: HttpRequest) -> HttpResponse:
    deck_uid = request.GET.get("deck") or None
    mine = request.GET.get("mine") == "1"
    runs = runs_listed(request.user, deck_uid=deck_uid, mine=mine)
    page = Paginator(runs, 25).get_page(request.GET.get("page"))
    deck_name = None
    if deck_uid:
        first = runs.first()
        deck_name = first.deck.name if first and first.deck else None
    return render(request, "simulations/list.html", {
        "page": page, "deck_uid": deck_uid, "deck_name": deck_name, "mine": mine})


def _allowed(request: HttpRequest) -> bool:
    """Page submissions share the API's per-user rate."""
    return SubmitThrottle().allow_request(request, None)


@login_required
def run_new(request: HttpRequest) -> HttpResponse:
    initial = {}
    if request.GET.get("deck"):
        initial["deck"] = request.GET["deck"]
    form = SimulationForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        if not _allowed(request):
            form.add_error(None, THROTTLED)
        else:
            data = form.cleaned_data
            try:
                run = simulation_request(
                    user=request.user, kind=data["kind"], deck_specs=form.deck_specs(),
                    games=data["games"], agent_a=data["agent_a"], agent_b=data["agent_b"],
                    seed=data.get("seed"), stop_width=data.get("stop_width"),
                    is_public=data.get("public", False))
            except SimulationInputError as exc:
                form.add_service_error(exc)
            else:
                return redirect(run)
    status = 400 if request.method == "POST" else 200
    return render(request, "simulations/new.html", {"form": form}, status=status)


def _what_if_form(run: SimulationRun, data=None) -> WhatIfForm:
    catalogue = [(code, f"{name} ({code})")
                 for code, name in Card.objects.order_by("code").values_list("code", "name_en")]
    return WhatIfForm(data, run=run, catalogue=catalogue)


def _result_charts(results: dict) -> None:
    """Attach the SVG charts to each report (in place)."""
    for report in results["matchups"]:
        report["interval_svg"] = charts.interval_chart([
            {"label": "Overall", **report["win_rate"]},
            {"label": "Going first", **report["going_first"]},
            {"label": "Going second", **report["going_second"]},
        ], title=f"{report['deck_a']}'s win rate against {report['deck_b']}")
        report["length_svg"] = charts.histogram(report["lengths"], title="Game length")
    if results.get("ranking"):
        results["ranking_svg"] = charts.interval_chart(
            [{"label": r["name"], **r} for r in results["ranking"]],
            title="Win rate over all pairings")
    if results.get("matrix"):
        results["matrix_rows"] = [
            [{"cell": cell, "colour": charts.rate_colour(cell["rate"] if cell else None)}
             for cell in row] for row in results["matrix"]]
    what_if = results.get("what_if")
    if what_if:
        for row in what_if["pairings"]:
            row["svg"] = charts.interval_chart(
                [{"label": "Before", **row["before"]}, {"label": "After", **row["after"]}],
                title=f"{what_if['deck_name']} against {row['opponent']}")


@require_GET
def run_detail(request: HttpRequest, uid: str) -> HttpResponse:
    run = _run(request, uid)
    context = {"run": run, "is_owner": run_is_owner(run=run, user=request.user),
               "progress": run_progress(run), "decks": _deck_rows(run)}
    if run.is_active:
        reap_soon()
    else:
        results = run_results(run)
        _result_charts(results)
        context["results"] = results
        context["samples"] = list(enumerate(run_samples(run), start=1))
        if request.user.is_authenticated and run.status in ("done", "failed"):
            context["what_if_form"] = _what_if_form(run)
    context["what_ifs"] = list(run.what_ifs.filter(
        pk__in=runs_listed(request.user).values("pk")).order_by("-created_at")[:10])
    return render(request, "simulations/detail.html", context)


def _deck_rows(run: SimulationRun) -> list[dict]:
    rows = []
    for i, deck in enumerate(run.decks):
        cards = [(run.cards.get(code, {}).get("name_en", code), code, n)
                 for code, n in sorted(deck["cards"].items())]
        rows.append({"index": i, "name": run.deck_name(i), "uid": deck.get("uid"),
                     "version": deck.get("version"),
                     "hero": run.cards.get(deck["hero"], {}).get("name_en", deck["hero"]),
                     "cards": cards, "size": sum(deck["cards"].values())})
    return rows


@require_GET
def run_progress_fragment(request: HttpRequest, uid: str) -> HttpResponse:
    """The progress bar alone (polled by htmx); once the run has finished, the page reloads to
    show the results."""
    run = _run(request, uid)
    if run.is_active:
        reap_soon()
    response = render(request, "simulations/_progress.html",
                      {"run": run, "progress": run_progress(run)})
    if not run.is_active and request.htmx:
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_POST
def run_cancel(request: HttpRequest, uid: str) -> HttpResponse:
    run = _run(request, uid)
    if not run_is_owner(run=run, user=request.user):
        messages.error(request, NOT_OWNER)
        return redirect(run)
    try:
        simulation_cancel(run=run)
        messages.success(request, "Cancelled. The games already played are shown below.")
    except SimulationInputError as exc:
        messages.error(request, exc.message)
    return redirect(run)


@login_required
@require_POST
def run_what_if(request: HttpRequest, uid: str) -> HttpResponse:
    base = _run(request, uid)
    form = _what_if_form(base, request.POST)
    if form.is_valid():
        if not _allowed(request):
            form.add_error(None, THROTTLED)
        else:
            try:
                run = simulation_what_if(base=base, owner=request.user,
                                         deck_index=form.cleaned_data["deck"],
                                         card_out=form.cleaned_data["card_out"],
                                         card_in=form.cleaned_data["card_in"])
            except SimulationInputError as exc:
                form.add_service_error(exc)
            else:
                return redirect(run)
    return render(request, "simulations/what_if.html", {"run": base, "form": form},
                  status=400)


@require_GET
def replay_view(request: HttpRequest, uid: str, number: int) -> HttpResponse:
    run = _run(request, uid)
    try:
        sample = run_sample(run=run, number=number)
    except SampleGame.DoesNotExist:
        raise Http404("No such game.") from None
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    state = board(sample.log, run.cards, step)
    matchup = sample.matchup
    names = {"a": run.deck_name(matchup.a), "b": run.deck_name(matchup.b)}
    seat_names = [names["a"], names["b"]]   # deck A sits in seat 1 (P1) in every game
    return render(request, "simulations/replay.html", {
        "run": run, "sample": sample, "number": number, "board": state,
        "seats": seats(state.snapshot, run.cards), "seat_names": seat_names,
        "winner": names.get(sample.winner), "count": run_samples(run).count()})
