"""Submitting and cancelling a job of either kind: one path, whatever the job searches.

A kind's own service (``balance.search.services``, ``balance.tuning.services``) freezes and
checks what only it knows (a field and a goal; a deck, its field and the cards that may come in)
and hands the frozen row to ``job_submit``, which checks the per-user cap and queues it.

Invariants: a job is created in one transaction and waits in the database for the dispatcher
(``work.fair``), which sends it in its turn once it has committed; the per-user cap
(``work.quota``) is counted under a lock on the user's row.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from balance import conf
from balance.kinds import job_games
from balance.models import BalanceJob, JobKind
from balance.search.problem import search_strong_games
from rules.ai.agents import make_agent
from simulations.quota import REDUCE_BUDGET, game_seconds
from simulations.services import MAX_SEED
from work.fair import dispatch_quietly
from work.models import ACTIVE_WORK_STATUSES, WorkStatus
from work.quota import QuotaError, quota_check

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django_stubs_ext import StrPromise

BAD_BUDGET = gettext_lazy("The budget is from {low:,} to {high:,} games.")
BAD_SEED = gettext_lazy("The seed must be a whole number from 0 to {limit}.")
NOT_ACTIVE = gettext_lazy("This search has already finished ({status}).")
MIN_BUDGET = 2_000


class BalanceInputError(ValueError):
    def __init__(self, message: str | StrPromise, field: str = "non_field_errors"):
        super().__init__(message)
        self.message, self.field = message, field


def job_agent_check(agent: str) -> None:
    try:
        make_agent(agent)
    except ValueError as exc:
        raise BalanceInputError(str(exc), "agent") from None


def job_seed(seed: int | None) -> int:
    """The seed asked for, or a random one (the job's page shows it: the search can be run
    again)."""
    return secrets.randbelow(2**31) if seed is None else seed


def job_sizes_check(*, budget_games: int, verify_games: int, seed: int,
                    bad_verify: str | StrPromise
                    ) -> None:
    """The budget, the re-verification's games (``bad_verify`` says how the kind counts them)
    and the seed, each within what one job may play."""
    if not MIN_BUDGET <= budget_games <= conf.max_budget_games():
        raise BalanceInputError(BAD_BUDGET.format(low=MIN_BUDGET, high=conf.max_budget_games()),
                                "budget_games")
    if not 100 <= verify_games <= 10_000:
        raise BalanceInputError(bad_verify, "verify_games")
    if not 0 <= seed <= MAX_SEED:
        raise BalanceInputError(BAD_SEED.format(limit=MAX_SEED), "seed")


def job_cpu_seconds(*, kind: str, decks: int, agent: str, budget_games: int,
                    verify_games: int, objective: str = "band",
                    options: dict[str, Any] | None = None) -> float:
    return job_games(kind=kind, decks=decks, budget_games=budget_games,
                     verify_games=verify_games, objective=objective,
                     options=options) * game_seconds(agent, agent)


def job_cap_check(*, owner: User, kind: str, cpu: float, limit: int,
                  too_many: str | StrPromise) -> None:
    """The per-user cap (``work.quota``): jobs of ``kind`` in flight (a balance search
    counts every job) and the CPU time of all the owner's work."""
    jobs = BalanceJob.objects.filter(owner=owner, status__in=ACTIVE_WORK_STATUSES)
    if kind == JobKind.TUNING:
        jobs = jobs.filter(kind=JobKind.TUNING)
    try:
        quota_check(owner=owner, cpu_seconds=cpu, field="budget_games", reduce=REDUCE_BUDGET,
                    count_active=jobs.count, count_limit=limit, too_many=too_many)
    except QuotaError as exc:
        raise BalanceInputError(exc.message, exc.field) from None


def job_submit(*, user: User | AnonymousUser | None, kind: str, limit: int,
               too_many: str | StrPromise, extra_cpu: float = 0.0,
               **frozen: Any) -> BalanceJob:
    """Queue a job of ``kind`` whose input ``frozen`` holds (the row's fields: decks, cards,
    agent, budget_games, verify_games, …), owned by ``user`` when signed in — whose cap
    (``limit`` jobs of the kind in flight, ``too_many`` said when reached, and the CPU time
    it costs, ``extra_cpu`` seconds more where the kind plays games its agent does not) is
    checked in the same transaction."""
    owner = user if user is not None and user.is_authenticated else None
    cpu = job_cpu_seconds(kind=kind, decks=len(frozen["decks"]), agent=frozen["agent"],
                          budget_games=frozen["budget_games"],
                          verify_games=frozen["verify_games"],
                          objective=frozen.get("objective", "band"),
                          options=(frozen.get("tuning") or {}).get("options")) + extra_cpu
    further = frozen.get("further_agents") or ()
    if further:   # their games, at the slowest one's pace
        cpu += search_strong_games(
            decks=len(frozen["decks"]), strong_budget_games=frozen["strong_budget_games"],
            strong_verify_games=frozen["strong_verify_games"]) * max(
            game_seconds(agent, agent) for agent in further)
    with transaction.atomic():
        if owner is not None:
            job_cap_check(owner=owner, kind=kind, cpu=cpu, limit=limit, too_many=too_many)
        job = BalanceJob.objects.create(kind=kind, owner=owner, cpu_seconds=cpu, **frozen)
        transaction.on_commit(dispatch_quietly, robust=True)
    return job


def job_cancel(*, job: BalanceJob) -> BalanceJob:
    """Stop it: its execution finds its claim gone at the next piece and stops."""
    updated = BalanceJob.objects.filter(pk=job.pk, status__in=ACTIVE_WORK_STATUSES).update(
        status=WorkStatus.CANCELLED, finished_at=timezone.now(), claim="", lease_until=None)
    if updated:
        dispatch_quietly()   # its place in the broker, if it had one
    job.refresh_from_db()
    if not updated:
        raise BalanceInputError(NOT_ACTIVE.format(status=job.get_status_display().lower()))
    return job
