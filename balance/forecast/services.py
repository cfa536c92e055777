"""Submitting a meta forecast: the archetypes, the pool (patched or not) and the options, frozen
on a ``BalanceJob`` of kind ``forecast`` and queued — then held, fanned out, reaped, resumed and
cancelled exactly as a balance search or a deck tuning (``balance.services``,
``balance.runner``). Invariants: the archetypes are decks the user can see or starter decks,
each legal in its format; the cards that may come in are the catalogue's of the format, frozen
with the patch made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

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
from balance.tuning.problem import format_to_dict
from balance.tuning.services import job_patched, tuning_pool
from cards.game_words import game_word
from common.frozen import FrozenDeck
from decks.adapters import format_to_rules
from decks.selectors import format_get
from rules.ai.agents import DEFAULT_AGENT
from rules.decks import legality
from rules.lab.forecast import ForecastError, ForecastProblem
from simulations.quota import game_seconds
from simulations.services import patch_cards
from simulations.sources import (
    SourceError,
    cards_freeze,
    catalogue_version,
    engine_objects,
    resolve_spec,
    starter_decks,
)

if TYPE_CHECKING:
    from common.visitor import Visitor

FEW_DECKS = gettext_lazy("A forecast needs from 2 to {limit} archetypes.")
NOT_LEGAL = gettext_lazy("{name} is not legal in the standard format, so it cannot adapt.")
BAD_CHANGES = gettext_lazy("Allow from 1 to 15 changed cards.")
BAD_SETTLE = gettext_lazy("Settle at 0 to 50 points.")
BAD_VERIFY = gettext_lazy("Verify each tuning with 100 to 10,000 games against each opponent.")
BAD_ROUNDS = gettext_lazy("Allow from 1 to 20 rounds.")
BAD_SIZE = gettext_lazy("Give a whole number from {low:,} to {high:,}.")
SIZES = {"tune_games": (2_000, 400_000), "round_games": (50, 10_000),
         "final_games": (100, 10_000), "swaps_per_round": (1, 6), "exploit_swaps": (1, 6)}
TOO_MANY_ACTIVE = gettext_lazy(
    "You already have {count} job(s) queued or running (the limit is {limit}); wait for it "
    "to finish or cancel it.")
FURTHER_IS_AGENT = gettext_lazy(
    "{name} is the agent that adapts the lists: leave it out of the further agents, or choose "
    "another agent to adapt them.")
FURTHER_TWICE = gettext_lazy("{name} is listed twice: list each agent once.")
BAD_BAND = gettext_lazy(
    "Give the band as two percentages between 0 and 100, the lower first (e.g. 45 and 55).")
MAX_ARCHETYPES = 10
DEFAULTS = ForecastProblem(cards={}, archetypes=())
BAND = tuple(round(x * 100) for x in DEFAULTS.band)     # the verdicts' band, percent


def _archetypes(specs: Sequence[str], user: Visitor) -> list[FrozenDeck]:
    if not specs:
        return starter_decks()
    decks = []
    for spec in specs:
        try:
            decks.append(resolve_spec(spec, user=user)[0])
        except SourceError as exc:
            raise BalanceInputError(str(exc), "decks") from None
    return decks


def _check(*, decks: int, max_changes: int, settle: float, max_rounds: int) -> None:
    if not 2 <= decks <= MAX_ARCHETYPES:
        raise BalanceInputError(FEW_DECKS.format(limit=MAX_ARCHETYPES), "decks")
    if not 1 <= max_changes <= 15:
        raise BalanceInputError(BAD_CHANGES, "max_changes")
    if not 0 <= settle <= 50:
        raise BalanceInputError(BAD_SETTLE, "settle")
    if not 1 <= max_rounds <= 20:
        raise BalanceInputError(BAD_ROUNDS, "max_rounds")


def _further_check(agent: str, further_agents: Sequence[str]) -> None:
    """Every further agent known, none the agent that adapts, none listed twice."""
    seen: set[str] = set()
    for name in further_agents:
        try:
            job_agent_check(name)
        except BalanceInputError as exc:
            raise BalanceInputError(exc.message, "further_agents") from None
        if name == agent:
            raise BalanceInputError(FURTHER_IS_AGENT.format(name=game_word("agent", name)),
                                    "further_agents")
        if name in seen:
            raise BalanceInputError(FURTHER_TWICE.format(name=game_word("agent", name)),
                                    "further_agents")
        seen.add(name)


def _band_check(band: Sequence[float]) -> tuple[float, float]:
    """The verdicts' band in percent, as fractions."""
    if len(band) != 2 or not 0 < band[0] < band[1] < 100:
        raise BalanceInputError(BAD_BAND, "band")
    return band[0] / 100, band[1] / 100


def forecast_job_request(*, user: Visitor, deck_specs: Sequence[str] = (),
                         agent: str = DEFAULT_AGENT, patch: Mapping[str, Any] | None = None,
                         max_changes: int = DEFAULTS.max_changes, settle: float = 1.0,
                         max_rounds: int = DEFAULTS.max_rounds,
                         budget_games: int = DEFAULTS.budget_games,
                         verify_games: int = DEFAULTS.verify_games,
                         seed: int | None = None, is_public: bool = False,
                         further_agents: Sequence[str] = (),
                         band: Sequence[float] = BAND, **sizes: int) -> BalanceJob:
    """Freeze the archetypes, the pool as ``patch`` changes it and the options (``settle`` in
    points; ``sizes``: any of ``SIZES``, the defaults of ``ForecastProblem`` otherwise); check
    every input and queue the forecast. ``agent`` adapts the lists; each of
    ``further_agents`` also plays the settled lists on fresh seeds, and every archetype gets a
    verdict against ``band`` (percent: over it under any agent a nerf, under it under every
    agent a buff). BalanceInputError names the input."""
    decks = _archetypes(deck_specs, user)
    _check(decks=len(decks), max_changes=max_changes, settle=settle, max_rounds=max_rounds)
    for name, value in sizes.items():
        low, high = SIZES[name]
        if not low <= value <= high:
            raise BalanceInputError(BAD_SIZE.format(low=low, high=high), name)
    job_agent_check(agent)
    _further_check(agent, further_agents)
    verdict_band = _band_check(band)
    seed = job_seed(seed)
    job_sizes_check(budget_games=budget_games, verify_games=verify_games, seed=seed,
                    bad_verify=BAD_VERIFY)
    fmt_rules = format_to_rules(format_get(None))
    pool, set_of = tuning_pool(fmt_rules)
    try:
        cards, kept = job_patched(cards_freeze(decks, extra=pool + patch_cards(patch)), patch)
        engine_cards, engine_decks = engine_objects(cards, decks)
    except SourceError as exc:
        raise BalanceInputError(str(exc), "decks") from None
    for deck in engine_decks:
        if legality.check_deck(legality.Deck.of(deck.hero, deck.counts()), engine_cards,
                               fmt_rules):
            raise BalanceInputError(NOT_LEGAL.format(name=deck.name), "decks")
    options = {"settle": settle / 100, "max_rounds": max_rounds,
               **{k: sizes.get(k, getattr(DEFAULTS, k)) for k in SIZES}}
    try:
        ForecastProblem(cards=engine_cards, archetypes=tuple(engine_decks), agent=agent,
                        max_changes=max_changes, settle=settle / 100,
                        further_agents=tuple(further_agents), band=verdict_band).check()
    except ForecastError as exc:
        raise BalanceInputError(str(exc), "decks") from None
    spec = {"format": format_to_dict(fmt_rules), "set_of": set_of, "pool": pool,
            "patch": kept, "options": options, "further_agents": list(further_agents),
            "band": list(verdict_band)}
    pairs = len(decks) * (len(decks) - 1) // 2     # the settled field under each further agent
    further_cpu = sum(game_seconds(a, a) for a in further_agents) * pairs * options[
        "final_games"]
    return job_submit(
        user=user, kind=JobKind.FORECAST, extra_cpu=further_cpu,
        limit=conf.tuning_max_active_per_user(),
        too_many=TOO_MANY_ACTIVE, label=job_label(JobKind.FORECAST, [d["name"] for d in decks]),
        is_public=is_public, decks=decks, cards=dict(cards),
        card_data_version=catalogue_version(), agent=agent, max_changes=max_changes,
        fields=[], budget_games=budget_games, verify_games=verify_games, seed=seed,
        tuning=spec)
