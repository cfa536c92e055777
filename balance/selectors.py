"""Reads of jobs of every kind: which a visitor may see, and where one is (its progress); a
tuning's own reads are ``balance.tuning.selectors``. Another user's private job is "no such
job" (404).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy

from balance.kinds import KINDS
from balance.models import BalanceJob, JobKind
from common.visitor import Visitor
from simulations.agents.strength import TimeLeft, estimate_range, estimate_seconds
from simulations.patches.text import change_line
from work.models import WorkStatus

LIST_DEFERRED = ("cards", "decks", "result")
PHASES = {"queued": gettext_lazy("waiting"), "baseline": gettext_lazy("baseline"),
          "screening": gettext_lazy("screening single changes"),
          "racing": gettext_lazy("racing candidates"),
          "verifying": gettext_lazy("re-verifying on fresh games"),
          "tuning-racing": gettext_lazy("racing swaps"),
          "patch_day": gettext_lazy("playing the printed lists"),
          "tuning": gettext_lazy("re-tuning the archetypes"),
          "round": gettext_lazy("playing the round's lists"),
          "final": gettext_lazy("playing the settled field on fresh games"),
          "check": gettext_lazy("checking the settled meta with one more tuning"),
          "exploit": gettext_lazy("measuring exploitability"),
          "judged": gettext_lazy("judging the patch on its forecasts"),
          "done": gettext_lazy("done")}


def jobs_visible(user: Visitor = None, *, kind: str = JobKind.BALANCE) -> QuerySet[BalanceJob]:
    """Jobs of one kind (balance searches unless told) the user may see."""
    q = Q(is_public=True)
    if user is not None and user.is_authenticated:
        q = Q() if user.is_staff else q | Q(owner=user)
    return BalanceJob.objects.filter(q, kind=kind).select_related("owner")


def jobs_listed(user: Visitor = None, *, mine: bool = False, kind: str = JobKind.BALANCE
                ) -> QuerySet[BalanceJob]:
    jobs = jobs_visible(user, kind=kind).defer(*LIST_DEFERRED).order_by("-created_at", "-id")
    if mine and user is not None and user.is_authenticated:
        jobs = jobs.filter(owner=user)
    return jobs


def job_get(*, uid: str, user: Visitor = None, kind: str = JobKind.BALANCE) -> BalanceJob:
    return jobs_visible(user, kind=kind).get(uid=uid)


def job_is_owner(*, job: BalanceJob, user: Visitor) -> bool:
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
    time_left: TimeLeft | None
    searched: int = 0        # search games counted against the budget (never above it)
    over: int = 0            # search games past the budget: the round under way finishes
    verified: int = 0        # re-verification games played on fresh seeds
    verify_total: int = 0    # … of about this many (exact once the job is done)
    expected: int = 0        # a forecast: about how many games it plays in all (0: unsaid)
    step: str = ""           # adapted objective: "forecast" or "search" …
    iteration: int = 0       # … of which patch (0: the unpatched pool)
    judged: tuple[dict[str, Any], ...] = ()   # adapted objective: each patch judged so far

    @property
    def seconds_left(self) -> float | None:
        """What the pages say is left: the high end of ``time_left``."""
        return None if self.time_left is None else self.time_left.high

    @property
    def phase_label(self) -> str:
        return str(PHASES.get(self.phase, self.phase))

    @property
    def tuning_phase_label(self) -> str:
        key = "tuning-racing" if self.phase == "racing" else self.phase
        return str(PHASES.get(key, self.phase))


def job_progress(job: BalanceJob) -> JobProgress:
    """Where the search is: its phase, search games against the budget, re-verification games
    apart, the best candidate so far and an estimate of the time left at the pace this
    execution plays.

    The search checks its budget between rounds, so the round under way may play past it:
    those games are counted apart (``over``), never as more of the budget than there is. The
    job's ``games_played`` counts every game, so what it holds beyond the search's own count
    is the re-verification on fresh seeds."""
    p = job.progress or {}
    phase = p.get("phase") or "queued"
    games = int(p.get("games") or 0)
    if p.get("step"):     # an adapted search: its forecasts' estimates are each step's own
        return _adapted_progress(job, p, phase, games)
    if p.get("expected"):
        return _estimated_progress(job, phase, games, int(p["expected"]))
    verify = KINDS[job.kind].verify_estimate(len(job.decks), job.verify_games)
    searched = min(games, job.budget_games)
    verifying = phase in ("verifying", "done")
    verified = max(0, (job.games_played or 0) - games) if verifying else 0
    if phase == "done" or job.status == "done":
        verify = verified
    verify = max(verify, verified)
    budget_done = job.budget_games if verifying else searched
    total = job.budget_games + verify
    done = budget_done + verified
    percent = 100 if job.status == "done" else min(99, int(100 * done / max(total, 1)))
    return JobProgress(phase=phase, games=games, budget=job.budget_games,
                       percent=percent, evaluations=int(p.get("evaluations") or 0),
                       best=p.get("best"), time_left=_time_left(job, total - done),
                       searched=searched, over=max(0, games - job.budget_games),
                       verified=verified, verify_total=verify)


def _estimated_progress(job: BalanceJob, phase: str, games: int, expected: int
                        ) -> JobProgress:
    """A forecast's progress against its own estimate of every game it plays (its rounds
    so far say how many more it needs: ``rules.lab.forecast.estimate``), not against its
    budget cap, which it rarely reaches."""
    total = max(expected, games)
    percent = 100 if job.status == "done" else min(99, int(100 * games / max(total, 1)))
    return JobProgress(phase=phase, games=games, budget=job.budget_games, percent=percent,
                       evaluations=0, best=None, time_left=_time_left(job, total - games),
                       searched=min(games, job.budget_games), expected=total)


def _adapted_progress(job: BalanceJob, p: dict[str, Any], phase: str, games: int
                      ) -> JobProgress:
    """An adapted search's steps (forecasts and searches) report every game against the
    search's estimate of all it plays (``rules.lab.balance_search.adapted``: each step to come
    at what the finished ones of its kind cost), not against the cap of them all, which
    forecasts that settle early never reach; without an estimate, against the cap."""
    budget = int(p.get("budget") or job.budget_games)
    total = max(games, int(p.get("expected") or budget))
    percent = 100 if job.status == "done" else min(99, int(100 * games / max(total, 1)))
    return JobProgress(phase=phase, games=games, budget=budget, percent=percent,
                       evaluations=int(p.get("evaluations") or 0), best=None,
                       time_left=_time_left(job, total - games), searched=games,
                       expected=total if p.get("expected") else 0,
                       step=str(p["step"]), iteration=int(p.get("iteration") or 0),
                       judged=_judged(job, p.get("judged") or []))


def _judged(job: BalanceJob, judged: list[dict[str, Any]]) -> tuple[dict[str, Any], ...]:
    """Each patch an adapted search has judged so far: its changes as lines naming their cards
    in the page's language, its verdict and each forecast seed's."""
    cards = job.cards or {}
    return tuple({"iteration": j["iteration"], "changes": len(j["changes"]),
                  "meets": j["meets"], "paths": j["paths"],
                  "lines": [change_line(cards, c["card"], c["field"], c["value"])
                            for c in j["changes"]]} for j in judged)


def _time_left(job: BalanceJob, games_left: int) -> TimeLeft | None:
    """The games left at the pace this execution plays (the runner's ``rate``: the machine's
    load included), one figure; before its first round reports one, the estimate at this
    deployment's measured pace as the range the machine's load may stretch it to
    (``estimate_range``)."""
    if job.status != WorkStatus.RUNNING or games_left <= 0:
        return None
    rate = (job.progress or {}).get("rate")
    if rate:
        seconds = float(games_left / rate)
        return TimeLeft(seconds, seconds)
    estimate = estimate_seconds(agent_a=job.agent, agent_b=job.agent, games=games_left)
    return None if estimate is None else TimeLeft(*estimate_range(estimate))
