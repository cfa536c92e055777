"""Meta forecast pages: the list, the form, a forecast's page with live progress (htmx polling),
cancel, and when done each round's lists, the chart of the meta, the settled field, the cards
adopted and dropped and the exploitability. What every kind of job's pages do is
``balance.views``'s. Views only translate HTTP to services and selectors."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from balance.forecast.forms import ForecastForm
from balance.forecast.problem import forecast_further_agents
from balance.forecast.selectors import forecast_view
from balance.forecast.services import forecast_job_request
from balance.models import BalanceJob, JobKind
from balance.selectors import job_is_owner, job_progress
from balance.views import cancel_and_return, job_form_submit, job_list_page, job_or_404
from cards.game_words import game_word

NO_FORECAST = gettext_lazy("No meta forecast here.")
NOT_OWNER = gettext_lazy("Only its owner can cancel a forecast.")
CANCELLED = gettext_lazy("The forecast was cancelled.")


def _job(request: HttpRequest, uid: str, *, watched: bool = False) -> BalanceJob:
    return job_or_404(request, uid, kind=JobKind.FORECAST, not_found=NO_FORECAST,
                      watched=watched)


@require_GET
def forecast_list(request: HttpRequest) -> HttpResponse:
    return job_list_page(request, kind=JobKind.FORECAST,
                         template="balance/forecast_list.html")


@login_required
def forecast_new(request: HttpRequest) -> HttpResponse:
    form = ForecastForm(request.POST or None, user=request.user)
    job = job_form_submit(request, form, forecast_job_request)
    if job is not None:
        return redirect(job)
    return render(request, "balance/forecast_new.html", {"form": form},
                  status=400 if request.method == "POST" else 200)


def _context(request: HttpRequest, job: BalanceJob) -> dict[str, Any]:
    return {"job": job, "progress": job_progress(job), "title": job.title,
            "agent_label": game_word("agent_label", job.agent),
            "further_labels": [game_word("agent_label", a) for a in forecast_further_agents(job)]}


@require_GET
def forecast_detail(request: HttpRequest, uid: str) -> HttpResponse:
    job = _job(request, uid, watched=True)
    return render(request, "balance/forecast_detail.html", {
        **_context(request, job), "view": forecast_view(job),
        "patch": (job.tuning or {}).get("patch"),
        "is_owner": job_is_owner(job=job, user=request.user)})


@require_GET
def forecast_progress(request: HttpRequest, uid: str) -> HttpResponse:
    job = _job(request, uid, watched=True)
    return render(request, "balance/_forecast_progress.html", _context(request, job))


@require_POST
@login_required
def forecast_cancel(request: HttpRequest, uid: str) -> HttpResponse:
    return cancel_and_return(request, _job(request, uid), not_owner=NOT_OWNER,
                             cancelled=CANCELLED)
