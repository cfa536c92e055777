"""Submitting a balance search, and opening a candidate patch as a round-robin.

The search's field and goal are frozen and checked here; queueing it, its cap and cancelling it
are every job's (``balance.services``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy

from balance import conf
from balance.models import BalanceJob, JobKind, job_label
from balance.search.adapted_request import adapted_legal_check, adapted_spec
from balance.search.front import verified_metas
from balance.services import (
    BalanceInputError,
    job_agent_check,
    job_seed,
    job_sizes_check,
    job_submit,
)
from cards.game_words import game_word, say, says
from common.frozen import FrozenDeck
from rules.ai.agents import AGENT_NAMES, DEFAULT_AGENT
from rules.lab.balance_search import SearchSpace, SpaceError, space_moves
from rules.lab.balance_search.objective import Goal, GoalError
from rules.lab.balance_search.problem import DEFAULT_STRONG_BUDGET, DEFAULT_STRONG_VERIFY
from rules.lab.balance_search.space import FIELDS, patch_candidate
from rules.lab.balance_search.strong import AgentsError, check_agents
from rules.lab.patches import Patch, PatchError
from simulations.models import RunKind, SimulationRun
from simulations.services import (
    SimulationInputError,
    patch_cards,
    patch_freeze,
    simulation_submit,
)
from simulations.sources import (
    SourceError,
    cards_freeze,
    catalogue_version,
    engine_objects,
    resolve_spec,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django_stubs_ext import StrPromise

    from common.visitor import Visitor
    from rules.engine.cards import CardDef

FEW_DECKS = gettext_lazy("A field needs at least two decks.")
MANY_DECKS = gettext_lazy("At most {limit} decks in one search.")
SAME_DECK_TWICE = gettext_lazy("A deck can take part only once ({name}).")
BAD_BAND = gettext_lazy(
    "The band must lie around 50 %: low below 50, high above (e.g. 45 and 55).")
BAD_OBJECTIVE = gettext_lazy("Choose the objective: band, meta or adapted.")
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
UNKNOWN_AGENT = gettext_lazy("Unknown agent {name}: choose from {known}.")
AGENT_TWICE = gettext_lazy("{name} is listed twice: list each agent once.")
TOO_MANY_AGENTS = gettext_lazy("List at most {limit} agents.")
AGENTS_NEED_META = gettext_lazy(
    "Holding a patch under several agents needs the meta objective: choose it, or list one "
    "agent.")
STRONG_BUDGET_SHORT = gettext_lazy(
    "{agents} need at least {least} games to search this field of {decks} decks (their "
    "baseline and one race on every matchup): give at least that.")
BAD_STRONG_VERIFY = gettext_lazy(
    "Re-verify under the further agents with 100 to 10,000 games a matchup.")
LIVE_OVER_CAP = gettext_lazy(
    "The live patch makes {changes} changes and the search may make {cap}: allow at least "
    "{changes}.")
BAD_MAX_EDITS = gettext_lazy("Give at most 1 to 12 edits of the patch the search starts from.")
EDITS_WITHOUT_START = gettext_lazy(
    "A cap on edits applies to the patch a search starts from: give a live patch, or choose "
    "the objective “A healthy meta after players adapt” (each of its searches starts from "
    "the patch the lists adapted to).")
MAX_DECKS = 8


def _frozen_decks(specs: Sequence[str], user: Visitor) -> list[FrozenDeck]:
    if len(specs) < 2:
        raise BalanceInputError(FEW_DECKS, "decks")
    if len(specs) > MAX_DECKS:
        raise BalanceInputError(MANY_DECKS.format(limit=MAX_DECKS), "decks")
    decks: list[FrozenDeck] = []
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


def _goal_message(exc: GoalError, goal: Goal, decks: int) -> str | StrPromise:
    def pct(x: float) -> str:
        return f"{x * 100:g}"

    band = {"band": goal.band, "field_band": goal.field_band,
            "matchup_band": goal.matchup_band}.get(exc.field)
    if band is not None and band[0] >= band[1]:
        return BAND_ORDER.format(low=pct(band[0]), high=pct(band[1]))
    if exc.field == "field_band" and band is not None and 0 <= band[0] < 0.5 < band[1] <= 1:
        return BANDS_CONTRADICT.format(low=pct(band[0]), high=pct(band[1]),
                                       mlow=pct(goal.matchup_band[0]),
                                       mhigh=pct(goal.matchup_band[1]))
    messages: dict[str, str | StrPromise] = {
        "objective": BAD_OBJECTIVE, "band": BAD_BAND, "field_band": BAD_FIELD_BAND,
        "matchup_band": BAD_MATCHUP_BAND, "epsilon": BAD_EPSILON, "decks": FEW_DECKS_META,
        "min_share": BAD_MIN_SHARE.format(top=f"{100 / decks:.4g}", decks=decks),
    }
    return messages[exc.field]


def _check_agents(agents: Sequence[str], goal: Goal, decks: int, strong_budget: int,
                  strong_verify: int) -> tuple[str, ...]:
    """The agents fastest first (``rules.lab.balance_search.strong.check_agents``); its refusal
    in the reader's language, on the input it names."""
    try:
        return check_agents(list(agents), objective=goal.kind, decks=decks,
                            strong_budget=strong_budget, strong_verify=strong_verify)
    except AgentsError as exc:
        p = exc.params
        message = {
            "unknown": lambda: UNKNOWN_AGENT.format(
                name=p["name"], known=", ".join(game_word("agent", n) for n in AGENT_NAMES)),
            "twice": lambda: AGENT_TWICE.format(name=game_word("agent", p["name"])),
            "too_many": lambda: TOO_MANY_AGENTS.format(limit=p["limit"]),
            "needs_meta": lambda: str(AGENTS_NEED_META),
            "budget": lambda: STRONG_BUDGET_SHORT.format(
                agents=", ".join(game_word("agent", n) for n in str(p["agents"]).split(", ")),
                least=f"{p['least']:,}", decks=p["decks"]),
            "verify": lambda: str(BAD_STRONG_VERIFY),
        }[exc.code]()
        raise BalanceInputError(message, exc.field) from None


def balance_job_request(*, user: Visitor, deck_specs: Sequence[str], agent: str = DEFAULT_AGENT,
                        band: tuple[float, float] = (0.45, 0.55), max_changes: int = 6,
                        budget_games: int = 300_000, verify_games: int = 2_000,
                        fields: Sequence[str] = ("cost", "attack", "hp"),
                        allowed_cards: Sequence[str] | None = None, seed: int | None = None,
                        is_public: bool = False, objective: str = "band",
                        field_band: tuple[float, float] = (0.47, 0.53),
                        matchup_band: tuple[float, float] = (0.30, 0.70),
                        epsilon: float = 0.005, min_share: float = 0.05,
                        agents: Sequence[str] | None = None,
                        strong_budget_games: int = DEFAULT_STRONG_BUDGET,
                        strong_verify_games: int = DEFAULT_STRONG_VERIFY,
                        adapted: Mapping[str, Any] | None = None,
                        live_patch: Mapping[str, Any] | None = None,
                        max_edits: int | None = None) -> BalanceJob:
    """Freeze the field, check every input and queue the search; BalanceInputError names the
    input to fix. ``objective`` band: every matchup in ``band``; meta: every deck's field win
    rate in ``field_band``, every matchup in ``matchup_band`` and every deck at least
    ``min_share`` of the ε-equilibrium (shares and win rates as fractions). ``agents`` (in
    place of ``agent``): the meta must hold under each; the fastest screens and races, the
    others check with ``strong_budget_games`` while searching and ``strong_verify_games`` a
    matchup on fresh seeds. ``objective`` adapted: the meta's targets on the lists players
    adapt to each candidate patch (``adapted``: its options, ``adapted_spec``). ``live_patch``:
    a patch already out (a patch file's JSON), which the search starts from and may extend,
    change or take back; ``max_edits``: at most so many edits of the patch a search starts
    from (the live patch, or the adapted objective's last patch)."""
    decks = _frozen_decks(deck_specs, user)
    goal = Goal(objective, (band[0], band[1]), (field_band[0], field_band[1]),
                (matchup_band[0], matchup_band[1]), epsilon, min_share)
    _check_goal(goal, len(decks))
    further: tuple[str, ...] = ()
    if agents:
        agent, *rest = _check_agents(agents, goal, len(decks), strong_budget_games,
                                     strong_verify_games)
        further = tuple(rest)
    job_agent_check(agent)
    seed = job_seed(seed)
    _check_numbers(band=band, max_changes=max_changes, budget_games=budget_games,
                   verify_games=verify_games, seed=seed)
    if not fields or any(f not in FIELDS for f in fields):
        raise BalanceInputError(BAD_FIELDS.format(fields=", ".join(FIELDS)), "fields")
    spec = adapted_spec(adapted or {}) if objective == "adapted" else None
    try:
        cards = cards_freeze(decks, extra=[*(spec["pool"] if spec else ()),
                                           *patch_cards(live_patch)])
        engine_cards, engine_decks = engine_objects(cards, decks)
        if spec is not None:
            adapted_legal_check(spec, engine_cards, engine_decks)
        space = SearchSpace.for_decks(engine_decks, engine_cards, only=allowed_cards or None,
                                      fields=fields)
        space_moves(space, engine_cards)
    except SourceError as exc:
        raise BalanceInputError(str(exc), "decks") from None
    except SpaceError as exc:
        raise BalanceInputError(say(exc.sentence), "allowed_cards") from None
    live = _live_patch(live_patch, cards, engine_cards, max_changes)
    _check_max_edits(max_edits, started=live_patch is not None or objective == "adapted")
    return job_submit(
        user=user, kind=JobKind.BALANCE, limit=conf.max_active_per_user(),
        too_many=TOO_MANY_ACTIVE, label=job_label(JobKind.BALANCE, [d["name"] for d in decks]),
        is_public=is_public, decks=decks, cards=dict(cards),
        card_data_version=catalogue_version(), agent=agent, further_agents=list(further),
        strong_budget_games=strong_budget_games if further else 0,
        strong_verify_games=strong_verify_games, band_low=band[0],
        band_high=band[1], max_changes=max_changes, objective=objective,
        field_band_low=field_band[0], field_band_high=field_band[1],
        matchup_band_low=matchup_band[0], matchup_band_high=matchup_band[1],
        epsilon=epsilon, min_share=min_share, fields=list(fields),
        allowed_cards=list(allowed_cards) if allowed_cards else None,
        budget_games=budget_games, verify_games=verify_games, seed=seed, tuning=spec,
        live_patch=live, max_edits=max_edits)


def _check_max_edits(max_edits: int | None, *, started: bool) -> None:
    if max_edits is None:
        return
    if not 1 <= max_edits <= 12:
        raise BalanceInputError(BAD_MAX_EDITS, "max_edits")
    if not started:
        raise BalanceInputError(EDITS_WITHOUT_START, "max_edits")


def _live_patch(patch: Mapping[str, Any] | None, cards: dict[str, Any],
                engine_cards: Mapping[str, CardDef], max_changes: int
                ) -> dict[str, Any] | None:
    """The live patch as the job keeps it (its changes and a readable diff), checked: the
    engine takes it, each change is one a search makes, and the cap allows them all."""
    if patch is None:
        return None
    try:
        _, kept = patch_freeze(cards, patch)
        moves = patch_candidate(Patch.from_dict(patch), engine_cards)
    except SimulationInputError as exc:
        raise BalanceInputError(exc.message, "live_patch") from None
    except SpaceError as exc:
        raise BalanceInputError(say(exc.sentence), "live_patch") from None
    if len(moves) > max_changes:
        raise BalanceInputError(LIVE_OVER_CAP.format(changes=len(moves), cap=max_changes),
                                "live_patch")
    return dict(kept) if kept else None


def balance_candidate_run(*, job: BalanceJob, index: int, user: User | AnonymousUser
                          ) -> SimulationRun:
    """A round-robin of the job's field with front candidate ``index``'s patch, as a run."""
    front = (job.result or {}).get("front") or []
    if not 0 <= index < len(front):
        raise BalanceInputError(NO_CANDIDATE.format(index=index))
    try:
        patch = Patch.from_dict(front[index]["patch"])
    except PatchError as exc:
        raise BalanceInputError(says(exc.problems)) from None
    kind = RunKind.ROUND_ROBIN if len(job.decks) >= 3 else RunKind.MATCH
    try:
        return simulation_submit(
            owner=user if user.is_authenticated else None, kind=kind, decks=job.decks,
            games=job.verify_games, agent_a=job.agent, agent_b=job.agent, seed=job.seed,
            cards=job.cards, card_version=job.card_data_version, patch=patch,
            is_public=job.is_public,
            search_metas=verified_metas(job.agent, (job.result or {}).get("baseline") or {},
                                        front[index]))
    except SimulationInputError as exc:
        raise BalanceInputError(exc.message) from None


