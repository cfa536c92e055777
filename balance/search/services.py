"""Submitting a balance search, and opening a candidate patch as a round-robin.

The search's field and goal are frozen and checked here; queueing it, its cap and cancelling it
are every job's (``balance.services``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_lazy

from balance import conf
from balance.models import BalanceJob, JobKind, job_label
from balance.services import (
    BalanceInputError,
    job_agent_check,
    job_seed,
    job_sizes_check,
    job_submit,
)
from rules.ai.agents import DEFAULT_AGENT
from rules.lab.balance_search import SearchSpace, SpaceError, space_moves
from rules.lab.balance_search.objective import Goal, GoalError
from rules.lab.balance_search.space import FIELDS
from rules.lab.patches import Patch, PatchError
from simulations.models import RunKind, SimulationRun
from simulations.services import SimulationInputError, simulation_submit
from simulations.sources import (
    SourceError,
    cards_freeze,
    catalogue_version,
    engine_objects,
    resolve_spec,
)

FEW_DECKS = gettext_lazy("A field needs at least two decks.")
MANY_DECKS = gettext_lazy("At most {limit} decks in one search.")
SAME_DECK_TWICE = gettext_lazy("A deck can take part only once ({name}).")
BAD_BAND = gettext_lazy(
    "The band must lie around 50 %: low below 50, high above (e.g. 45 and 55).")
BAD_OBJECTIVE = gettext_lazy("Choose the objective: band or meta.")
BAD_FIELD_BAND = gettext_lazy(
    "The field band must lie around 50 %: low below 50, high above (e.g. 47 and 53).")
BAD_MATCHUP_BAND = gettext_lazy(
    "The matchup band must lie around 50 %: low below 50, high above (e.g. 30 and 70).")
BAND_ORDER = gettext_lazy("The low end must lie below the high end (got {low}–{high} %).")
BANDS_CONTRADICT = gettext_lazy(
    "The field band ({low}–{high} %) must lie inside the matchup band ({mlow}–{mhigh} %): a "
    "deck's field win rate is the mean of its matchups.")
BAD_EPSILON = gettext_lazy(
    "ε must lie from 0 up to (not including) 0.5: a share of win rate, e.g. 0.005 for half a "
    "point.")
BAD_MIN_SHARE = gettext_lazy(
    "The minimum share must lie from 0 to {top} % (one deck in {decks}).")
FEW_DECKS_META = gettext_lazy(
    "The meta objective needs a field of at least three decks; with two, choose the band "
    "objective.")
BAD_MAX_CHANGES = gettext_lazy("Allow from 1 to 12 changes.")
BAD_VERIFY = gettext_lazy("Re-verify with 100 to 10,000 games a matchup.")
BAD_FIELDS = gettext_lazy("Fields that may change: any of {fields}.")
TOO_MANY_ACTIVE = gettext_lazy(
    "You already have {count} balance search(es) queued or running (the limit is {limit}); wait "
    "for it to finish or cancel it.")
NO_CANDIDATE = gettext_lazy("This search has no candidate number {index}.")
MAX_DECKS = 8


def _frozen_decks(specs: Sequence[str], user) -> list[dict[str, Any]]:
    if len(specs) < 2:
        raise BalanceInputError(FEW_DECKS, "decks")
    if len(specs) > MAX_DECKS:
        raise BalanceInputError(MANY_DECKS.format(limit=MAX_DECKS), "decks")
    decks = []
    for spec in specs:
        try:
            deck, _ = resolve_spec(spec, user=user)
        except SourceError as exc:
            raise BalanceInputError(str(exc), "decks") from None
        if any(d == deck for d in decks):
            raise BalanceInputError(SAME_DECK_TWICE.format(name=deck["name"]), "decks")
        decks.append(deck)
    return decks


def _check_numbers(*, band: tuple[float, float], max_changes: int, budget_games: int,
                   verify_games: int, seed: int) -> None:
    if not 0 <= band[0] < 0.5 < band[1] <= 1:
        raise BalanceInputError(BAD_BAND, "band")
    if not 1 <= max_changes <= 12:
        raise BalanceInputError(BAD_MAX_CHANGES, "max_changes")
    job_sizes_check(budget_games=budget_games, verify_games=verify_games, seed=seed,
                    bad_verify=BAD_VERIFY)


def _check_goal(goal: Goal, decks: int) -> None:
    """The goal's refusal (``rules.lab.balance_search.objective``) in the reader's language, on
    the input it names."""
    try:
        goal.check(decks)
    except GoalError as exc:
        raise BalanceInputError(_goal_message(exc, goal, decks), exc.field) from None


def _goal_message(exc: GoalError, goal: Goal, decks: int) -> str:
    def pct(x: float) -> str:
        return f"{x * 100:g}"

    band = {"band": goal.band, "field_band": goal.field_band,
            "matchup_band": goal.matchup_band}.get(exc.field)
    if band is not None and band[0] >= band[1]:
        return BAND_ORDER.format(low=pct(band[0]), high=pct(band[1]))
    if exc.field == "field_band" and 0 <= band[0] < 0.5 < band[1] <= 1:
        return BANDS_CONTRADICT.format(low=pct(band[0]), high=pct(band[1]),
                                       mlow=pct(goal.matchup_band[0]),
                                       mhigh=pct(goal.matchup_band[1]))
    return {"objective": BAD_OBJECTIVE, "band": BAD_BAND, "field_band": BAD_FIELD_BAND,
            "matchup_band": BAD_MATCHUP_BAND, "epsilon": BAD_EPSILON,
            "decks": FEW_DECKS_META,
            "min_share": BAD_MIN_SHARE.format(top=f"{100 / decks:.4g}", decks=decks),
            }[exc.field]


def balance_job_request(*, user, deck_specs: Sequence[str], agent: str = DEFAULT_AGENT,
                        band: tuple[float, float] = (0.45, 0.55), max_changes: int = 6,
                        budget_games: int = 300_000, verify_games: int = 2_000,
                        fields: Sequence[str] = ("cost", "attack", "hp"),
                        allowed_cards: Sequence[str] | None = None, seed: int | None = None,
                        is_public: bool = False, objective: str = "band",
                        field_band: tuple[float, float] = (0.47, 0.53),
                        matchup_band: tuple[float, float] = (0.30, 0.70),
                        epsilon: float = 0.005, min_share: float = 0.05) -> BalanceJob:
    """Freeze the field, check every input and queue the search; BalanceInputError names the
    input to fix. ``objective`` band: every matchup in ``band``; meta: every deck's field win
    rate in ``field_band``, every matchup in ``matchup_band`` and every deck at least
    ``min_share`` of the ε-equilibrium (shares and win rates as fractions)."""
    decks = _frozen_decks(deck_specs, user)
    goal = Goal(objective, tuple(band), tuple(field_band), tuple(matchup_band), epsilon,
                min_share)
    _check_goal(goal, len(decks))
    job_agent_check(agent)
    seed = job_seed(seed)
    _check_numbers(band=band, max_changes=max_changes, budget_games=budget_games,
                   verify_games=verify_games, seed=seed)
    if not fields or any(f not in FIELDS for f in fields):
        raise BalanceInputError(BAD_FIELDS.format(fields=", ".join(FIELDS)), "fields")
    try:
        cards = cards_freeze(decks)
        engine_cards, engine_decks = engine_objects(cards, decks)
        space = SearchSpace.for_decks(engine_decks, engine_cards, only=allowed_cards or None,
                                      fields=fields)
        space_moves(space, engine_cards)
    except SourceError as exc:
        raise BalanceInputError(str(exc), "decks") from None
    except SpaceError as exc:
        raise BalanceInputError(str(exc), "allowed_cards") from None
    return job_submit(
        user=user, kind=JobKind.BALANCE, limit=conf.max_active_per_user(),
        too_many=TOO_MANY_ACTIVE, label=job_label(JobKind.BALANCE, [d["name"] for d in decks]),
        is_public=is_public, decks=decks, cards=dict(cards),
        card_data_version=catalogue_version(), agent=agent, band_low=band[0],
        band_high=band[1], max_changes=max_changes, objective=objective,
        field_band_low=field_band[0], field_band_high=field_band[1],
        matchup_band_low=matchup_band[0], matchup_band_high=matchup_band[1],
        epsilon=epsilon, min_share=min_share, fields=list(fields),
        allowed_cards=list(allowed_cards) if allowed_cards else None,
        budget_games=budget_games, verify_games=verify_games, seed=seed)


def balance_candidate_run(*, job: BalanceJob, index: int, user) -> SimulationRun:
    """A round-robin of the job's field with front candidate ``index``'s patch, as a run."""
    front = (job.result or {}).get("front") or []
    if not 0 <= index < len(front):
        raise BalanceInputError(NO_CANDIDATE.format(index=index))
    try:
        patch = Patch.from_dict(front[index]["patch"])
    except PatchError as exc:
        raise BalanceInputError(str(exc)) from None
    kind = RunKind.ROUND_ROBIN if len(job.decks) >= 3 else RunKind.MATCH
    try:
        return simulation_submit(
            owner=user if user.is_authenticated else None, kind=kind, decks=job.decks,
            games=job.verify_games, agent_a=job.agent, agent_b=job.agent, seed=job.seed,
            cards=job.cards, card_version=job.card_data_version, patch=patch,
            is_public=job.is_public)
    except SimulationInputError as exc:
        raise BalanceInputError(exc.message) from None


