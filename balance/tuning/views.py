"""Deck tuning pages: the list, the form (from a deck's "Tune this deck"), a tuning's page with
live progress (htmx polling), cancel, its suggestions as diffs, and "Save as a new version".

What every kind of job's pages do is ``balance.views``'s; a tuning's form, page and saving a
suggestion are here. Views only translate HTTP to services and selectors.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts.users import request_user
from balance.models import BalanceJob, JobKind
from balance.selectors import job_is_owner, job_progress
from balance.services import BalanceInputError
from balance.tuning.forms import TuningDeckForm, TuningForm
from balance.tuning.selectors import (
    card_names,
    tuning_best_lines,
    tuning_deck_name,
    tuning_field_named,
    tuning_result,
    tuning_verified_best,
    user_owns_deck,
)
from balance.tuning.services import tuning_job_request, tuning_suggestion_save
from balance.views import cancel_and_return, job_form_submit, job_list_page, job_or_404
from cards.game_words import game_word
from common.forms import PickForm
from common.language import frozen_card_name
from simulations.meta.view import meta_context
from simulations.sources import SourceError, resolve_spec

NO_TUNING = gettext_lazy("No deck tuning here.")
NOT_OWNER = gettext_lazy("Only its owner can cancel a tuning.")
CANCELLED = gettext_lazy("The tuning was cancelled.")
FIELD_META = gettext_lazy("The meta of the deck's field, unchanged")
SAVED_VERSION = gettext_lazy("Saved as a new version of {name}.")
SAVED_DECK = gettext_lazy("Saved as a new deck of yours: {name}.")


def _job(request: HttpRequest, uid: str, *, watched: bool = False) -> BalanceJob:
    return job_or_404(request, uid, kind=JobKind.TUNING, not_found=NO_TUNING, watched=watched)


@require_GET
def tune_list(request: HttpRequest) -> HttpResponse:
    return job_list_page(request, kind=JobKind.TUNING, template="balance/tune_list.html")


@login_required
def tune_new(request: HttpRequest) -> HttpResponse:
    spec, refused = PickForm.read(request.POST, "deck")
    if not spec and not refused:
        spec, refused = PickForm.read(request.GET, "deck")
    if refused:
        return render(request, "balance/tune_new.html",
                      {"picker": TuningDeckForm.refusing(refused, user=request.user)},
                      status=400)
    deck = None
    if spec:
        try:
            deck, _ = resolve_spec(spec, user=request.user)
        except SourceError as exc:
            messages.error(request, str(exc))
            spec = ""
    if not spec:
        picker = TuningDeckForm(user=request.user)
        return render(request, "balance/tune_new.html", {"picker": picker})
    assert deck is not None   # the spec resolved (a spec that did not was cleared above)
    keep = sorted(((code, f"{frozen_card_name(card_names(deck['cards']), code)} ×{n}")
                   for code, n in deck["cards"].items()), key=lambda c: c[1].casefold())
    form = TuningForm(request.POST or None, user=request.user, keep_choices=keep,
                      initial={"deck": spec})
    job = job_form_submit(request, form, tuning_job_request)
    if job is not None:
        return redirect(job)
    status = 400 if request.method == "POST" else 200
    return render(request, "balance/tune_new.html", {"form": form, "deck": deck},
                  status=status)


def _context(request: HttpRequest, job: BalanceJob) -> dict[str, Any]:
    return {"job": job, "progress": job_progress(job), "best_lines": tuning_best_lines(job),
            "verified": tuning_verified_best(job),
            "deck_name": tuning_deck_name(job),
            "title": job.title, "agent_label": game_word("agent_label", job.agent)}


@require_GET
def tune_detail(request: HttpRequest, uid: str) -> HttpResponse:
    job = _job(request, uid, watched=True)
    source = (job.tuning or {}).get("source") or {}
    owns_deck = bool(source.get("uid")) and request.user.is_authenticated and \
        job.decks[0].get("source") == "deck" and user_owns_deck(request.user, source["uid"])
    field = (job.result or {}).get("field_meta")
    field = tuning_field_named(job, field) if field else None
    return render(request, "balance/tune_detail.html", {
        **_context(request, job), "result": tuning_result(job),
        "meta_view": meta_context(field, section_id="meta-field", title=str(FIELD_META),
                                  own_seeds=True, agents=job.agent) if field else None,
        "is_owner": job_is_owner(job=job, user=request.user), "owns_deck": owns_deck})


@require_GET
def tune_progress(request: HttpRequest, uid: str) -> HttpResponse:
    job = _job(request, uid, watched=True)
    response = render(request, "balance/_tune_progress.html", _context(request, job))
    if not job.is_active and request.headers.get("HX-Request"):
        # Finished while watched: the page reloads and shows the suggestions themselves.
        response["HX-Refresh"] = "true"
    return response


@require_POST
@login_required
def tune_cancel(request: HttpRequest, uid: str) -> HttpResponse:
    return cancel_and_return(request, _job(request, uid), not_owner=NOT_OWNER,
                             cancelled=CANCELLED)


@require_POST
@login_required
def tune_save(request: HttpRequest, uid: str, index: int) -> HttpResponse:
    job = _job(request, uid)
    try:
        deck, as_version, warning = tuning_suggestion_save(job=job, index=index,
                                                           user=request_user(request))
    except BalanceInputError as exc:
        messages.error(request, exc.message)
        return redirect(job)
    if warning:
        messages.warning(request, warning)
    message = SAVED_VERSION if as_version else SAVED_DECK
    messages.success(request, message.format(name=deck.name))
    return redirect(deck)
