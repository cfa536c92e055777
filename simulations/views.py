"""Simulation pages: the list (and a deck's run history), the "Simulate" form, a run's page with
a live progress bar (htmx polling) and then its results, cancel, what-if, and the replay viewer.

Views only translate HTTP to services and selectors; another user's private run is a 404.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts.users import request_user
from common.htmx import HtmxHttpRequest
from common.language import frozen_card_name
from common.throttles import submit_allowed
from simulations import charts
from simulations.agents.skill import run_skill_context, run_verdict_changes
from simulations.agents.strength import agent_strength, estimate_inputs, strength_rows
from simulations.apis import NOT_OWNER, SAME_RUN_TWICE
from simulations.comparison import compare_runs
from simulations.deck_legality import run_deck_warnings
from simulations.forms import MetaForm, SimulationForm
from simulations.meta.view import meta_context
from simulations.models import RunKind, SampleGame, SimulationRun
from simulations.replays.board import board, seats
from simulations.reports import MatchupReport, matchup_report
from simulations.results import RunResults, run_results
from simulations.selectors import (
    run_decks_shown,
    run_get,
    run_is_owner,
    run_progress,
    run_sample,
    run_samples,
    run_seconds_left,
    runs_listed,
    runs_visible,
    runs_with_rates,
)
from simulations.services import (
    SimulationInputError,
    simulation_cancel,
    simulation_request,
    simulation_what_if,
)
from simulations.what_if_form import WhatIfForm
from work.reaper import reap_soon

THROTTLED = gettext_lazy("You have submitted many simulations lately; wait a while and try again.")
NO_RUN = gettext_lazy("No simulation here.")
NO_GAME = gettext_lazy("No such game.")
NO_MATCHUP = gettext_lazy("No such pairing in this run.")
CANCELLED = gettext_lazy("Cancelled. The games already played are shown below.")


def _run(request: HttpRequest, uid: str) -> SimulationRun:
    try:
        return run_get(uid=uid, user=request.user)
    except SimulationRun.DoesNotExist:
        raise Http404(NO_RUN) from None


@require_GET
def run_list(request: HttpRequest) -> HttpResponse:
    deck_uid = request.GET.get("deck") or None
    mine = request.GET.get("mine") == "1"
    runs = runs_listed(request.user, deck_uid=deck_uid, mine=mine)
    page = Paginator(runs, 25).get_page(request.GET.get("page"))
    page.object_list = runs_with_rates(page.object_list)
    deck_name = None
    if deck_uid:
        first = runs.first()
        deck_name = first.home_deck_name if first is not None else None
    return render(request, "simulations/list.html", {
        "page": page, "deck_uid": deck_uid, "deck_name": deck_name, "mine": mine})


@login_required
def run_new(request: HttpRequest) -> HttpResponse:
    initial: dict[str, str | list[str]] = {}
    if request.GET.get("deck"):
        initial["deck"] = request.GET["deck"]
    if request.GET.getlist("opponent"):      # starter decks are named: ?opponent=starter:Name
        initial["opponents"] = request.GET.getlist("opponent")
    form = SimulationForm(request.POST or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        if not submit_allowed(request):
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
    return render(request, "simulations/new.html",
                  {"form": form, "estimate": estimate_inputs()}, status=status)


@require_GET
def agent_strength_page(request: HttpRequest) -> HttpResponse:
    """The AI players' strength table: ratings from the stored ladder result, and its rungs."""
    table = agent_strength()
    return render(request, "simulations/agents.html", {
        "section": "agents", "ratings": strength_rows(table), "rungs": table["rungs"],
        "anchor": table["anchor"]})


def _what_if_form(run: SimulationRun, data: Mapping[str, Any] | None = None) -> WhatIfForm:
    return WhatIfForm(data, run=run)


@require_GET
def run_what_if_form(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    """The what-if form again for the choices so far (htmx): swap-outs of the chosen deck,
    swap-ins that can take the chosen card's place and match the query; without htmx, on its
    own page."""
    run = _run(request, uid)
    form = WhatIfForm(run=run, initial=request.GET.dict())
    # Opened directly (a reload, a shared link): the whole what-if page with this form.
    template = "simulations/_what_if_form.html" if request.htmx else "simulations/what_if.html"
    return render(request, template, {"run": run, "form": form})


def _result_charts(results: RunResults) -> dict[str, Any]:
    """The results with their SVG charts; a field's pairings (a round-robin, a gauntlet) show
    theirs when opened (``run_matchup``), not all on the page."""
    shown: dict[str, Any] = {**results}
    if not results.get("ranking"):
        shown["matchups"] = [_matchup_charts(report) for report in results["matchups"]]
    _field_charts(shown)
    return shown


def _matchup_charts(report: MatchupReport) -> dict[str, Any]:
    """A pairing's figures with its charts."""
    return {**report, "interval_svg": charts.interval_chart([
        {"label": _("Overall"), **report["win_rate"]},
        {"label": _("Going first"), **report["going_first"]},
        {"label": _("Going second"), **report["going_second"]},
    ], title=_("{deck}'s win rate against {opponent}").format(deck=report["deck_a"],
                                                          opponent=report["deck_b"])),
            "length_svg": charts.histogram(report["lengths"], title=_("Game length"))}


def _field_charts(results: dict[str, Any]) -> None:
    if results.get("ranking"):
        results["ranking_svg"] = charts.interval_chart(
            [{"label": r["name"], **r} for r in results["ranking"]],
            title=_("Win rate over all pairings"))
    if results.get("matrix"):
        results["matrix_rows"] = [
            [{"cell": cell, "colour": charts.rate_colour(cell["rate"] if cell else None)}
             for cell in row] for row in results["matrix"]]
    what_if = results.get("what_if")
    if what_if:
        for row in what_if["pairings"]:
            row["svg"] = charts.interval_chart(
                [{"label": _("Before"), **row["before"]}, {"label": _("After"), **row["after"]}],
                title=_("{deck} against {opponent}").format(deck=what_if["deck_name"],
                                                            opponent=row["opponent"]))


def balance_search_url(run: SimulationRun, shown: list[dict[str, Any]]) -> str | None:
    """The balance search form with this run's field and agent filled in, aiming at a healthy
    meta (``objective=meta``); None when a deck came from a card set file (no deck on the site
    to name, or a deck the reader may no longer open: ``shown``, from run_decks_shown)."""
    specs = []
    for deck in shown:
        if deck.get("uid"):
            specs.append(deck["uid"])
        elif str(deck.get("source", "")).startswith("starter"):
            specs.append(f"starter:{deck['name']}")
        else:
            return None
    query = [("decks", spec) for spec in specs]
    if run.agent_a == run.agent_b:
        query.append(("agent", run.agent_a))
    query.append(("objective", "meta"))
    return f"{reverse('balance:new')}?{urlencode(query)}"


@require_GET
def run_detail(request: HttpRequest, uid: str) -> HttpResponse:
    """A run's page; a finished round-robin's results include the meta for ``?epsilon=``
    (points of win rate; a bad value is the ε form's error, answered 400)."""
    run = _run(request, uid)
    progress = run_progress(run)
    shown = run_decks_shown(run, request.user)
    context: dict[str, Any] = {"run": run, "home_deck_uid": shown[0].get("uid") if shown else None,
               "is_owner": run_is_owner(run=run, user=request.user),
               "progress": progress, "seconds_left": run_seconds_left(run, progress),
                "decks": _deck_rows(run, shown),
                "deck_warnings": run_deck_warnings(run.decks, run.cards or {})}
    status = 200
    if run.is_active:
        reap_soon()
    else:
        meta_form = MetaForm.from_query(request.GET)
        results = run_results(run, epsilon=meta_form.share())
        context["results"] = _result_charts(results)
        if results["meta"] is not None:
            context["meta_view"] = meta_context(
                results["meta"], epsilon_form=meta_form,
                balance_url=balance_search_url(run, shown) if request.user.is_authenticated
                else None, agents=(run.agent_a, run.agent_b))
            context["skill_view"] = run_skill_context(
                run, runs_visible(request.user), versus=request.GET.get("versus", "").strip(),
                epsilon=meta_form.share(), report=results["meta"])
            context["verdict_view"] = run_verdict_changes(
                run, runs_visible(request.user), epsilon=meta_form.share(),
                report=results["meta"])
            status = 400 if meta_form.errors or context["skill_view"]["error"] else 200
        context["no_meta"] = run.kind == RunKind.GAUNTLET
        context["samples"] = list(enumerate(run_samples(run), start=1))
        if request.user.is_authenticated and run.status in ("done", "failed"):
            context["what_if_form"] = _what_if_form(run)
    context["what_ifs"] = list(run.what_ifs.filter(
        pk__in=runs_listed(request.user).values("pk")).order_by("-created_at")[:10])
    return render(request, "simulations/detail.html", context, status=status)


@require_GET
def run_matchup(request: HtmxHttpRequest, uid: str, index: int) -> HttpResponse:
    """One pairing of a finished field's run, with its charts: what the run's page loads
    when its pairing is opened (htmx), or on a page of its own."""
    run = _run(request, uid)
    matchup = run.matchups.filter(index=index).first()
    if matchup is None or run.is_active:
        raise Http404(NO_MATCHUP)
    report = _matchup_charts(matchup_report(run, matchup))
    template = "simulations/_matchup.html" if request.htmx else "simulations/matchup.html"
    return render(request, template, {"run": run, "report": report})


def _deck_rows(run: SimulationRun, shown: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for i, deck in enumerate(shown):
        cards = [(frozen_card_name(run.cards, code), code, n)
                 for code, n in sorted(deck["cards"].items())]
        rows.append({"index": i, "name": run.deck_name(i), "uid": deck.get("uid"),
                     "version": deck.get("version"),
                     "hero": frozen_card_name(run.cards, deck["hero"]),
                     "cards": cards, "size": sum(deck["cards"].values())})
    return rows


@require_GET
def run_progress_fragment(request: HtmxHttpRequest, uid: str) -> HttpResponse:
    """The progress bar alone (polled by htmx); once the run has finished, the page reloads to
    show the results."""
    run = _run(request, uid)
    if run.is_active:
        reap_soon()
    progress = run_progress(run)
    response = render(request, "simulations/_progress.html", {
        "run": run, "progress": progress, "seconds_left": run_seconds_left(run, progress)})
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
        messages.success(request, CANCELLED)
    except SimulationInputError as exc:
        messages.error(request, exc.message)
    return redirect(run)


@login_required
@require_POST
def run_what_if(request: HttpRequest, uid: str) -> HttpResponse:
    base = _run(request, uid)
    form = _what_if_form(base, request.POST)
    if form.is_valid():
        if not submit_allowed(request):
            form.add_error(None, THROTTLED)
        else:
            try:
                run = simulation_what_if(base=base, owner=request_user(request),
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
        raise Http404(NO_GAME) from None
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


COMPARE_UNKNOWN = gettext_lazy("There is no run {uid!r} you can see.")


@require_GET
def run_compare(request: HttpRequest) -> HttpResponse:
    """Two runs side by side, paired game by game when they can be (``?before=&after=``)."""
    before_uid = (request.GET.get("before") or "").strip()
    after_uid = (request.GET.get("after") or "").strip()
    context: dict[str, Any] = {"before_uid": before_uid, "after_uid": after_uid, "errors": [],
                     "choices": runs_listed(request.user).filter(status="done")[:50]}
    runs = []
    for uid in (before_uid, after_uid):
        if not uid:
            continue
        try:
            runs.append(run_get(uid=uid, user=request.user))
        except SimulationRun.DoesNotExist:
            context["errors"].append(str(COMPARE_UNKNOWN).format(uid=uid))
    if before_uid and before_uid == after_uid:
        context["errors"].append(SAME_RUN_TWICE)
    elif len(runs) == 2:
        comparison = compare_runs(runs[0], runs[1])
        for row in comparison["rows"]:
            row["svg"] = charts.interval_chart(
                [{"label": _("Before"), **row["before"]}, {"label": _("After"), **row["after"]}],
                title=_("{deck} against {opponent}").format(deck=row["deck_name"],
                                                            opponent=row["opponent"]))
        context.update({"comparison": comparison, "before": runs[0], "after": runs[1]})
    status = 404 if context["errors"] and not context["errors"][0] == SAME_RUN_TWICE else 200
    return render(request, "simulations/compare.html", context, status=status)
