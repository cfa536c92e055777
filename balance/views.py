"""What the pages of every kind of job share (``balance.search.views`` at /balance/,
``balance.tuning.views`` at /balance/tune/): finding the job a visitor may see (a 404 naming
the kind), the list, submitting a form within the submissions' budget, the live progress
fragment, and cancelling.

Views only translate HTTP to services and selectors; another user's private job is a 404.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy

from balance.forms import JobForm
from balance.models import BalanceJob
from balance.selectors import job_get, job_is_owner, jobs_listed
from balance.services import BalanceInputError, job_cancel
from common.throttles import submit_allowed
from work.reaper import reap_soon

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise
    from rest_framework.request import Request

THROTTLED = gettext_lazy(
    "You have submitted many simulations lately; wait a while and try again.")


def job_or_404(request: HttpRequest | Request, uid: str, *, kind: str,
               not_found: str | StrPromise,
               watched: bool = False) -> BalanceJob:
    """The job of ``kind`` the request may see, or a 404 saying what was not found. A
    ``watched`` job (its state is shown) still in flight asks the reaper to look at the work
    (rate-limited), so a job whose worker died moves on while someone watches it."""
    try:
        job = job_get(uid=uid, user=request.user, kind=kind)
    except BalanceJob.DoesNotExist:
        raise Http404(not_found) from None
    if watched and job.is_active:
        reap_soon()
    return job


def job_list_page(request: HttpRequest, *, kind: str, template: str) -> HttpResponse:
    """The jobs of ``kind`` the visitor may see, newest first, 25 a page (``?mine=1``: theirs),
    each titled in the page's language (``BalanceJob.title``)."""
    mine = request.GET.get("mine") == "1"
    page = Paginator(jobs_listed(request.user, mine=mine, kind=kind), 25).get_page(
        request.GET.get("page"))
    return render(request, template, {"page": page, "mine": mine})


def job_form_submit(request: HttpRequest, form: JobForm,
                    service: Callable[..., BalanceJob]) -> BalanceJob | None:
    """The job ``service`` queued from a valid posted ``form`` (its ``service_arguments``), or
    None with the reason on the form: its own errors, the submissions' budget spent, or the
    service's refusal on the field it names."""
    if request.method != "POST" or not form.is_valid():
        return None
    if not submit_allowed(request):
        form.add_error(None, THROTTLED)
        return None
    try:
        return service(user=request.user, **form.service_arguments())
    except BalanceInputError as exc:
        form.add_service_error(exc)
        return None


def cancel_and_return(request: HttpRequest, job: BalanceJob, *, not_owner: str | StrPromise,
                      cancelled: str | StrPromise) -> HttpResponse:
    """Cancel a job of any kind for its owner (a 403 for anyone else) and go back to its page,
    saying what happened."""
    if not job_is_owner(job=job, user=request.user):
        return HttpResponse(not_owner, status=403)
    try:
        job_cancel(job=job)
        messages.success(request, cancelled)
    except BalanceInputError as exc:
        messages.error(request, exc.message)
    return redirect(job)
