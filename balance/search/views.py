"""Balance search pages: the list, the form, a search's page with live progress (htmx polling),
its Pareto front as a chart and a table, cancel, and "open a candidate as a round-robin".

What every kind of job's pages do is ``balance.views``'s; a search's form, page and front are
here. Views only translate HTTP to services and selectors.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy, pgettext
from django.views.decorators.http import require_GET, require_POST

from balance.models import BalanceJob, JobKind, Objective
from balance.search.adapted_view import adapted_context
from balance.search.forms import BalanceSearchForm
from balance.search.front import front_context, live_patch_lines, verified_best
from balance.search.services import balance_candidate_run, balance_job_request
from balance.selectors import job_is_owner, job_progress
from balance.services import BalanceInputError
from balance.views import THROTTLED, cancel_and_return, job_form_submit, job_list_page, job_or_404
from cards.game_words import game_word_lazy
from cards.models import text_names
from common.language import reader_language
from common.throttles import submit_allowed
from rules.lab.patches import PatchError, PatchText, patch_with_text
from simulations.meta.view import epsilon_words

FIELD_NAMES = {"cost": game_word_lazy("field", "cost", prose=True),
               "attack": game_word_lazy("field", "attack", prose=True),
               "hp": game_word_lazy("field", "hp"),
               "keywords": game_word_lazy("field", "keywords", prose=True),
               "attribute": game_word_lazy("field", "attribute", prose=True)}
NO_SEARCH = gettext_lazy("No balance search here.")
NO_CANDIDATE = gettext_lazy("No such candidate.")
NOT_OWNER = gettext_lazy("Only its owner can cancel a search.")
CANCELLED = gettext_lazy("The search was cancelled.")


def _job(request: HttpRequest, uid: str, *, watched: bool = False) -> BalanceJob:
    return job_or_404(request, uid, kind=JobKind.BALANCE, not_found=NO_SEARCH, watched=watched)


@require_GET
def job_list(request: HttpRequest) -> HttpResponse:
    return job_list_page(request, kind=JobKind.BALANCE, template="balance/list.html")


def query_initial(query: QueryDict, form_class: type[forms.Form]) -> dict[str, Any]:
    """Initial values of a form's own fields from the query string, so other pages can link to
    a filled-in form (a run's meta view: ``?decks=…&decks=…&agent=greedy&objective=meta``);
    anything else in the query is left alone."""
    initial: dict[str, Any] = {}
    for name, field in form_class.base_fields.items():
        if name in query:
            many = isinstance(field, forms.MultipleChoiceField)
            initial[name] = query.getlist(name) if many else query.get(name)
    return initial


@login_required
def job_new(request: HttpRequest) -> HttpResponse:
    form = BalanceSearchForm(request.POST or None, user=request.user,
                             initial=query_initial(request.GET, BalanceSearchForm))
    job = job_form_submit(request, form, balance_job_request)
    if job is not None:
        return redirect(job)
    status = 400 if request.method == "POST" else 200
    return render(request, "balance/new.html", {"form": form}, status=status)


@require_GET
def job_detail(request: HttpRequest, uid: str) -> HttpResponse:
    job = _job(request, uid, watched=True)
    adapted = adapted_context(job) if job.objective == Objective.ADAPTED else None
    return render(request, "balance/detail.html", {
        "job": job, "title": job.title,
        "fields": pgettext("list separator", ", ").join(str(FIELD_NAMES.get(f, f))
                                                        for f in job.fields or []),
        "progress": job_progress(job), "verified": None if adapted else verified_best(job),
        "epsilon": epsilon_words(job.epsilon),
        "front": None if adapted else front_context(job), "adapted": adapted,
        "live_patch": live_patch_lines(job),
        "is_owner": job_is_owner(job=job, user=request.user)})


@require_GET
def job_progress_fragment(request: HttpRequest, uid: str) -> HttpResponse:
    job = _job(request, uid, watched=True)
    verified = None if job.objective == Objective.ADAPTED else verified_best(job)
    return render(request, "balance/_progress.html", {"job": job, "progress": job_progress(job),
                                                      "verified": verified})


@require_POST
@login_required
def job_cancel(request: HttpRequest, uid: str) -> HttpResponse:
    return cancel_and_return(request, _job(request, uid), not_owner=NOT_OWNER,
                             cancelled=CANCELLED)


@require_GET
def patch_download(request: HttpRequest, uid: str, index: int) -> HttpResponse:
    """Front candidate ``index``'s patch as a file for ``simulate --patch``."""
    job = _job(request, uid)
    result = job.result or {}
    front = result.get("front") or result.get("considered") or []   # adapted: each patch
    if not 0 <= index < len(front) or not front[index]["patch"]["changes"]:
        raise Http404(NO_CANDIDATE)
    response = JsonResponse(patch_file(job.cards or {}, front[index]["patch"]),
                            json_dumps_params={"indent": 2, "ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="balance-{job.uid}-{index}.json"'
    return response


@require_POST
@login_required
def candidate_run(request: HttpRequest, uid: str, index: int) -> HttpResponse:
    job = _job(request, uid)
    if not submit_allowed(request):
        messages.error(request, THROTTLED)
        return redirect(job)
    try:
        run = balance_candidate_run(job=job, index=index, user=request.user)
    except BalanceInputError as exc:
        messages.error(request, exc.message)
        return redirect(job)
    return redirect(run)


def patch_file(cards: dict[str, Any], patch: dict[str, Any]) -> PatchText | dict[str, Any]:
    """A front patch as its download: each change with its ``text`` in the reader's language
    (the card's rules text before → after for a change of what it says)."""
    lang = reader_language()
    try:
        return patch_with_text(cards, patch, lang, text_names(cards, lang))
    except PatchError:
        return patch
