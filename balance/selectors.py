"""Reads of balance searches. Another user's private search is "no such search" (404)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy

from balance.models import BalanceJob, JobKind, JobStatus
from cards.language import frozen_card_name, frozen_deck_name
from cards.models import Card
from decks.models import Deck
from simulations.strength import estimate_seconds

LIST_DEFERRED = ("cards", "decks", "result")
PHASES = {"queued": gettext_lazy("waiting"), "baseline": gettext_lazy("baseline"),
          "screening": gettext_lazy("screening single changes"),
          "racing": gettext_lazy("racing candidates"),
          "verifying": gettext_lazy("re-verifying on fresh games"),
          "tuning-racing": gettext_lazy("racing swaps"),
          "done": gettext_lazy("done")}


def jobs_visible(user=None, *, kind: str = JobKind.BALANCE) -> QuerySet[BalanceJob]:
    """Jobs of one kind (balance searches unless told) the user may see."""
    q = Q(is_public=True)
    if user is not None and user.is_authenticated:
        q = Q() if user.is_staff else q | Q(owner=user)
    return BalanceJob.objects.filter(q, kind=kind).select_related("owner")


def jobs_listed(user=None, *, mine: bool = False, kind: str = JobKind.BALANCE
                ) -> QuerySet[BalanceJob]:
    jobs = jobs_visible(user, kind=kind).defer(*LIST_DEFERRED).order_by("-created_at", "-id")
    if mine and user is not None and user.is_authenticated:
        jobs = jobs.filter(owner=user)
    return jobs


def job_get(*, uid: str, user=None, kind: str = JobKind.BALANCE) -> BalanceJob:
    return jobs_visible(user, kind=kind).get(uid=uid)


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
    searched: int = 0        # search games counted against the budget (never above it)
    over: int = 0            # search games past the budget: the round under way finishes
    verified: int = 0        # re-verification games played on fresh seeds
    verify_total: int = 0    # … of about this many (exact once the job is done)

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
    if job.kind == JobKind.TUNING:     # the unchanged deck and three suggestions, each opponent,
        opponents = len(job.decks) - 1  # and the opponents' own pairings
        verify = (4 * opponents + opponents * (opponents - 1) // 2) * job.verify_games
    else:
        matchups = len(job.decks) * (len(job.decks) - 1) // 2
        verify = 5 * matchups * job.verify_games
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
                       best=p.get("best"), seconds_left=_seconds_left(job, total - done),
                       searched=searched, over=max(0, games - job.budget_games),
                       verified=verified, verify_total=verify)


def _seconds_left(job: BalanceJob, games_left: int) -> float | None:
    """The games left at the pace this execution plays (the runner's ``rate``); before its
    first round reports one, at this deployment's measured pace (``estimate_seconds``)."""
    if job.status != JobStatus.RUNNING or games_left <= 0:
        return None
    rate = (job.progress or {}).get("rate")
    if rate:
        return games_left / rate
    return estimate_seconds(agent_a=job.agent, agent_b=job.agent, games=games_left)


def tuning_result(job: BalanceJob) -> dict[str, Any] | None:
    """A finished tuning's result with every swap spelt in card names (the page's language):
    each suggestion gains ``diff``, lines of ``{out, out_name, into, into_name, copies, hero}``
    (``copies`` 0 with ``hero`` true for a hero change)."""
    result = job.result
    if not result:
        return None
    cards = job.cards or {}
    shown = {d.get("name"): frozen_deck_name(d, i + 1) for i, d in enumerate(job.decks or [])}
    suggestions = []
    for index, s in enumerate(result.get("suggestions") or []):
        diff = [{**swap, "hero": swap["copies"] == 0,
                 "out_name": frozen_card_name(cards, swap["out"]),
                 "into_name": frozen_card_name(cards, swap["into"])} for swap in s["swaps"]]
        gain = s["improvement"]
        shown = {"change": _points(gain["change"]), "low": _points(gain["low"]),
                 "high": _points(gain["high"]), "p": _p_value(gain["p_value"]),
                 "rate": _percent(s["verified"]["rate"]), "rate_low":
                 _percent(s["verified"]["low"]), "rate_high": _percent(s["verified"]["high"])}
        matchups = [{**m, "opponent": shown.get(m.get("opponent"), m.get("opponent")),
                     "before_pct": _percent(m["before"]), "after_pct": _percent(m["after"]),
                     "change_pct": _points(m["change"]), "low_pct": _points(m["low"]),
                     "high_pct": _points(m["high"]), "p": _p_value(m["p_value"])}
                    for m in s["matchups"]]
        suggestions.append({**s, "index": index, "diff": diff, "shown": shown,
                            "matchups": matchups, "changes": _net_changes(job, s["deck"])})
    base = result["baseline"]
    baseline = {**base, "rate_pct": _percent(base["rate"]), "low_pct": _percent(base["low"]),
                "high_pct": _percent(base["high"])}
    return {**result, "suggestions": suggestions, "baseline": baseline}


def _net_changes(job: BalanceJob, deck: dict[str, Any]) -> list[dict[str, Any]]:
    """What the suggestion changes in the deck, card by card (the net of its swaps): copies
    out first, then copies in, each ``{code, name, copies}`` (``copies`` signed), and the hero
    as ``{hero: true, out_name, into_name}`` when it changes."""
    cards, before = job.cards or {}, job.decks[0] if job.decks else {}
    old, new = before.get("cards") or {}, deck.get("cards") or {}
    lines: list[dict[str, Any]] = []
    if before.get("hero") and deck.get("hero") != before.get("hero"):
        lines.append({"hero": True, "out_name": frozen_card_name(cards, before["hero"]),
                      "into_name": frozen_card_name(cards, deck["hero"])})
    delta = {code: new.get(code, 0) - old.get(code, 0) for code in {*old, *new}}
    for code, copies in sorted(delta.items(), key=lambda item: (item[1] > 0,
                                                                frozen_card_name(cards,
                                                                                 item[0]))):
        if copies:
            lines.append({"hero": False, "code": code, "copies": copies,
                          "count": abs(copies), "name": frozen_card_name(cards, code)})
    return lines


def _percent(value: float) -> str:
    return f"{value * 100:.1f}"


def _points(value: float) -> str:
    return f"{value * 100:+.1f}"


def _p_value(value: float) -> str:
    return f"{value:.2g}" if value >= 0.0001 else "< 0.0001"


def tuning_deck_name(job: BalanceJob) -> str:
    return frozen_deck_name(job.decks[0], 1) if job.decks else ""


def tuning_best_lines(job: BalanceJob) -> list[str]:
    """The best suggestion so far (from the progress report), as "2 × A → B" lines."""
    best = (job.progress or {}).get("best") or {}
    cards = job.cards or {}
    return [f"{s['copies'] or ''}{' × ' if s['copies'] else ''}"
            f"{frozen_card_name(cards, s['out'])} → {frozen_card_name(cards, s['into'])}"
            for s in best.get("swaps") or []]


def card_names(codes) -> dict[str, dict[str, str]]:
    """``{code: {name_en, name_zh}}`` of catalogue cards (for ``frozen_card_name``)."""
    rows = Card.objects.filter(code__in=list(codes)).values("code", "name_en", "name_zh")
    return {row["code"]: row for row in rows}


def user_owns_deck(user, uid: str | None) -> bool:
    return bool(uid and user is not None and user.is_authenticated
                and Deck.objects.filter(uid=uid, owner=user).exists())
