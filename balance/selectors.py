"""Reads of balance searches. Another user's private search is "no such search" (404)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy

from balance.models import BalanceJob

LIST_DEFERRED = ("cards", "decks", "result")
PHASES = {"queued": gettext_lazy("waiting"), "baseline": gettext_lazy("baseline"),
          "screening": gettext_lazy("screening single changes"),
          "racing": gettext_lazy("racing candidates"),
          "verifying": gettext_lazy("re-verifying on fresh games"),
          "done": gettext_lazy("done")}


def jobs_visible(user=None) -> QuerySet[BalanceJob]:
    q = Q(is_public=True)
    if user is not None and user.is_authenticated:
        q = Q() if user.is_staff else q | Q(owner=user)
    return BalanceJob.objects.filter(q).select_related("owner")


def jobs_listed(user=None, *, mine: bool = False) -> QuerySet[BalanceJob]:
    jobs = jobs_visible(user).defer(*LIST_DEFERRED).order_by("-created_at", "-id")
    if mine and user is not None and user.is_authenticated:
        jobs = jobs.filter(owner=user)
    return jobs


def job_get(*, uid: str, user=None) -> BalanceJob:
    return jobs_visible(user).get(uid=uid)


def job_is_owner(*, job: BalanceJob, user) -> bool:
    return bool(user is not None and user.is_authenticated
                and (job.owner_id == user.pk or user.is_staff))


@dataclass(frozen=True)
class JobProgress:
    phase: str
    games: int
    budget: int
    percent: int
    evaluations: int
    best: dict[str, Any] | None
    seconds_left: float | None

    @property
    def phase_label(self) -> str:
        return str(PHASES.get(self.phase, self.phase))


def job_progress(job: BalanceJob) -> JobProgress:
    """Where the search is: its phase, games against the budget, the best candidate so far and
    an estimate of the time left at the rate this execution plays."""
    p = job.progress or {}
    games = int(p.get("games") or 0)
    matchups = len(job.decks) * (len(job.decks) - 1) // 2
    verify = 5 * matchups * job.verify_games
    total = job.budget_games + verify
    done = games if p.get("phase") not in ("verifying", "done") else job.budget_games
    percent = 100 if job.status == "done" else min(99, int(100 * done / max(total, 1)))
    rate = p.get("rate")
    left = (total - done) / rate if rate and job.is_active else None
    return JobProgress(phase=p.get("phase") or "queued", games=games, budget=job.budget_games,
                       percent=percent, evaluations=int(p.get("evaluations") or 0),
                       best=p.get("best"), seconds_left=left)
