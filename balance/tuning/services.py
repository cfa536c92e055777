"""Submitting a deck tuning, and saving one of its suggestions as a deck version.

A tuning is a ``BalanceJob`` of kind ``tuning``: it is frozen, queued, held, reaped, resumed and
cancelled exactly as a balance search (``balance.services``, ``balance.runner``); what is its own
is frozen and checked here. Invariants:
the deck tuned must be one the user can see and legal in its format; the field is decks the user
can see, the starter decks, or a gauntlet run's opponents; a suggestion is saved only through
the decks app's services — as a new version of the user's own deck, or as a new deck of theirs.
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
from balance.tuning.problem import format_from_dict, format_to_dict
from cards.models import Card
from common.frozen import FrozenDeck
from common.language import source_value
from decks.adapters import format_to_rules
from decks.drafts import Draft
from decks.models import Deck, Format
from decks.problem_text import problems_text
from decks.selectors import deck_counts, deck_is_owner, draft_from_deck, format_get
from decks.services import DeckInputError, deck_create, deck_save
from rules.ai.agents import DEFAULT_AGENT
from rules.decks import legality
from rules.engine.cards import DeckList
from rules.lab.deck_tuning import Swap, TuneField, TuningError, TuningProblem
from rules.lab.deck_tuning.problem import check_problem
from simulations.models import SimulationRun
from simulations.selectors import run_get
from simulations.services import SimulationInputError, patch_cards, patch_freeze
from simulations.sources import (
    SourceError,
    cards_freeze,
    catalogue_version,
    engine_objects,
    resolve_spec,
    starter_decks,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from common.visitor import Visitor
    from rules.engine.cards import CardDef

MANY_OPPONENTS = gettext_lazy("At most {limit} opponents in a field.")
NO_OPPONENTS = gettext_lazy("The field has no deck besides the one tuned.")
UNKNOWN_GAUNTLET = gettext_lazy("No simulation run {uid!r} you can see.")
NOT_KEPT = gettext_lazy("Cards to keep must be in the deck: {codes}.")
UNKNOWN_HEROES = gettext_lazy("Not heroes of the catalogue: {codes}.")
BAD_SWAPS = gettext_lazy("Allow from 1 to 6 swaps.")
BAD_SHARES = gettext_lazy("Give one play share (at least 0, not all 0) for each of the "
                          "field's {count} decks, in the field's order.")
BAD_VERIFY = gettext_lazy("Re-verify with 100 to 10,000 games against each opponent.")
NOT_LEGAL = gettext_lazy("The deck is not legal in its format, so it cannot be tuned: "
                         "{problems}")
TOO_MANY_ACTIVE = gettext_lazy(
    "You already have {count} deck tuning(s) queued or running (the limit is {limit}); wait "
    "for it to finish or cancel it.")
NO_SUGGESTION = gettext_lazy("This tuning has no suggestion number {index}.")
DECK_CHANGED = gettext_lazy(
    "The deck has changed since it was tuned: it no longer holds {copies} × {card}. The "
    "suggestion was saved as a new deck instead.")
TUNED_NAME = gettext_lazy("{name} (tuned)")
NOTE = "Deck tuning {uid}: {swaps}"
MAX_OPPONENTS = 12


def _field(specs: Sequence[str], gauntlet: str | None, tuned: FrozenDeck, user: Visitor
           ) -> list[Mapping[str, Any]]:
    decks: list[Mapping[str, Any]]
    if gauntlet:
        try:
            run = run_get(uid=gauntlet, user=user)
        except SimulationRun.DoesNotExist:
            raise BalanceInputError(UNKNOWN_GAUNTLET.format(uid=gauntlet), "gauntlet") from None
        decks = [dict(d) for d in run.decks]
    elif specs:
        decks = []
        for spec in specs:
            try:
                decks.append(resolve_spec(spec, user=user)[0])
            except SourceError as exc:
                raise BalanceInputError(str(exc), "field") from None
    else:
        decks = list(starter_decks())
    same = (tuned["hero"], tuned["cards"])
    opponents: list[Mapping[str, Any]] = []
    seen: list[tuple[Any, Any]] = []
    for deck in decks:
        content = (deck["hero"], deck["cards"])
        if content == same or content in seen:      # not against itself, nor twice
            continue
        seen.append(content)
        opponents.append(deck)
    if not opponents:
        raise BalanceInputError(NO_OPPONENTS, "field")
    if len(opponents) > MAX_OPPONENTS:
        raise BalanceInputError(MANY_OPPONENTS.format(limit=MAX_OPPONENTS), "field")
    return opponents


def _check_numbers(*, max_swaps: int, budget_games: int, verify_games: int, seed: int) -> None:
    if not 1 <= max_swaps <= 6:
        raise BalanceInputError(BAD_SWAPS, "max_swaps")
    job_sizes_check(budget_games=budget_games, verify_games=verify_games, seed=seed,
                    bad_verify=BAD_VERIFY)


def _format_of(row: Deck | None) -> Format:
    if row is not None:
        return row.format
    return format_get(None)


def tuning_pool(fmt_rules: legality.Format) -> tuple[list[str], dict[str, str]]:
    """Every catalogue card of the format's kinds and legal sets, not banned; and its set.
    Only the engine's own cards: another game's "item" shares a kind code, not a game."""
    rows = (Card.objects.filter(kind__in=list(fmt_rules.deck_kinds), engine=True)
            .select_related("card_set"))
    out: list[str] = []
    set_of: dict[str, str] = {}
    for card in rows.only("code", "kind", "card_set__code").order_by("code"):
        if fmt_rules.legal_sets is not None and card.card_set.code not in fmt_rules.legal_sets:
            continue
        if fmt_rules.card_limits.get(card.code) == 0:
            continue
        out.append(card.code)
        set_of[card.code] = card.card_set.code
    return out, set_of


def _heroes(codes: Sequence[str] | None, any_hero: bool) -> list[str]:
    heroes = Card.objects.filter(kind="hero", engine=True)
    if any_hero:
        return list(heroes.order_by("code").values_list("code", flat=True))
    codes = list(dict.fromkeys(codes or ()))
    known = set(heroes.filter(code__in=codes).values_list("code", flat=True))
    unknown = [c for c in codes if c not in known]
    if unknown:
        raise BalanceInputError(UNKNOWN_HEROES.format(codes=", ".join(unknown)), "heroes")
    return codes


def tuning_job_request(*, user: Visitor, deck_spec: str, field_specs: Sequence[str] = (),
                       gauntlet: str | None = None, agent: str = DEFAULT_AGENT,
                       keep: Sequence[str] = (), heroes: Sequence[str] = (),
                       any_hero: bool = False, max_swaps: int = 3,
                       budget_games: int = 100_000, verify_games: int = 1_000,
                       seed: int | None = None, is_public: bool = False,
                       patch: Mapping[str, Any] | None = None,
                       shares: Sequence[float] | None = None) -> BalanceJob:
    """Freeze the deck, its field (weighted by ``shares``, in the field's order), format and
    the cards that may come in — as ``patch`` changes them; check every input and queue the
    tuning. BalanceInputError names the input to fix."""
    try:
        tuned, row = resolve_spec(deck_spec, user=user)
    except SourceError as exc:
        raise BalanceInputError(str(exc), "deck") from None
    opponents = _field(field_specs, gauntlet, tuned, user)
    _check_shares(shares, len(opponents))
    job_agent_check(agent)
    seed = job_seed(seed)
    _check_numbers(max_swaps=max_swaps, budget_games=budget_games, verify_games=verify_games,
                   seed=seed)
    missing = sorted(set(keep) - set(tuned["cards"]) - {tuned["hero"]})
    if missing:
        raise BalanceInputError(NOT_KEPT.format(codes=", ".join(missing)), "keep")
    hero_codes = _heroes(heroes, any_hero)
    fmt_rules = format_to_rules(_format_of(row))
    pool, set_of = tuning_pool(fmt_rules)
    decks = [tuned, *opponents]
    try:
        cards, kept = job_patched(cards_freeze(decks, extra=[*pool, *hero_codes,
                                                          *patch_cards(patch)]), patch)
        engine_cards, engine_decks = engine_objects(cards, decks)
        set_of.update({c: s for c, s in Card.objects.filter(code__in=list(cards))
                       .values_list("code", "card_set__code")})
        check_problem(TuningProblem(
            field=TuneField(cards=engine_cards, opponents=tuple(engine_decks[1:])),
            deck=DeckList.from_counts(str(tuned["hero"]), tuned["cards"]), fmt=fmt_rules,
            set_of=set_of, pool=tuple(pool), heroes=tuple(hero_codes)))
    except SourceError as exc:
        raise BalanceInputError(str(exc), "field") from None
    except TuningError as exc:
        raise BalanceInputError(_not_legal(tuned, engine_cards, fmt_rules, set_of, exc),
                                "deck") from None
    spec = {"format": format_to_dict(fmt_rules), "set_of": set_of, "pool": pool,
            "keep": sorted(set(keep)), "heroes": hero_codes,
            "source": {"uid": tuned.get("uid"), "version": tuned.get("version"),
                       "name": tuned["name"], "format_code": fmt_rules.code},
            "gauntlet": gauntlet or None, "patch": kept,
            "shares": [float(x) for x in shares] if shares else None}
    return job_submit(
        user=user, kind=JobKind.TUNING, limit=conf.tuning_max_active_per_user(),
        too_many=TOO_MANY_ACTIVE,
        label=job_label(JobKind.TUNING, [tuned["name"], *(d["name"] for d in opponents)]),
        is_public=is_public, decks=decks, cards=dict(cards),
        card_data_version=catalogue_version(), agent=agent, max_changes=max_swaps, fields=[],
        budget_games=budget_games, verify_games=verify_games, seed=seed, tuning=spec)


def _check_shares(shares: Sequence[float] | None, count: int) -> None:
    if shares and (len(shares) != count or min(shares) < 0 or sum(shares) <= 0):
        raise BalanceInputError(BAD_SHARES.format(count=count), "shares")


def job_patched(cards: dict[str, Any], patch: Mapping[str, Any] | None
             ) -> tuple[dict[str, Any], Any]:
    """The frozen cards as the patch changes them, and the patch as the job keeps it."""
    try:
        return patch_freeze(cards, patch)
    except SimulationInputError as exc:
        raise BalanceInputError(exc.message, "patch") from None


def _not_legal(tuned: FrozenDeck, engine_cards: dict[str, CardDef],
               fmt_rules: legality.Format, set_of: dict[str, str], exc: TuningError) -> str:
    """Why the deck cannot be tuned, rule by rule in the page's language (the engine's own
    message, in English, for what is not a broken rule of the deck)."""
    problems = legality.check_deck(legality.Deck.of(tuned["hero"], dict(tuned["cards"])),
                                   engine_cards, fmt_rules, set_of=set_of)
    said = problems_text(problems, fmt=fmt_rules, cards=engine_cards)
    return str(NOT_LEGAL.format(problems="; ".join(p.message for p in said) or str(exc)))


def _apply(counts: dict[str, int], hero: str | None, swaps: list[Swap]
           ) -> tuple[dict[str, int], str | None, Swap | None]:
    """The swaps applied to a deck list; the first swap that no longer applies, if any."""
    counts = dict(counts)
    for swap in swaps:
        if swap.is_hero:
            if hero != swap.out:
                return counts, hero, swap
            hero = swap.into
            continue
        if counts.get(swap.out, 0) < swap.copies:
            return counts, hero, swap
        counts[swap.out] -= swap.copies
        if not counts[swap.out]:
            del counts[swap.out]
        counts[swap.into] = counts.get(swap.into, 0) + swap.copies
    return counts, hero, None


def suggestion_of(job: BalanceJob, index: int) -> dict[str, Any]:
    suggestions = (job.result or {}).get("suggestions") or []
    if not 0 <= index < len(suggestions):
        raise BalanceInputError(NO_SUGGESTION.format(index=index))
    suggestion: dict[str, Any] = suggestions[index]
    return suggestion


def tuning_suggestion_save(*, job: BalanceJob, index: int, user: User
                           ) -> tuple[Deck, bool, str]:
    """Apply suggestion ``index``: a new version of the tuned deck when ``user`` owns it and it
    still holds what the swaps take out; otherwise a new private deck of ``user``'s. Returns
    the deck, whether it is a new version of the tuned deck, and a note for the user ("" or
    why it became a new deck)."""
    suggestion = suggestion_of(job, index)
    swaps = [Swap.from_dict(s) for s in suggestion["swaps"]]
    source = (job.tuning or {}).get("source") or {}
    note = NOTE.format(uid=job.uid, swaps="; ".join(
        f"{s.copies or 'hero'} {s.out} -> {s.into}" for s in swaps))
    deck = Deck.objects.filter(uid=source.get("uid")).select_related("format", "hero").first() \
        if source.get("uid") else None
    warning = ""
    try:
        if deck is not None and deck_is_owner(deck=deck, user=user):
            counts, hero, stuck = _apply(deck_counts(deck), deck.hero.code if deck.hero is not None
                                         else None, swaps)
            if stuck is None:
                draft = draft_from_deck(deck)
                draft = Draft(name=draft.name, description=draft.description, hero=hero,
                              cards=counts, format_code=draft.format_code,
                              visibility=draft.visibility)
                deck_save(deck=deck, by=user, draft=draft, note=note)
                return deck, True, ""
            card = source_value(job.cards.get(stuck.out, {}), "name") or stuck.out
            warning = str(DECK_CHANGED.format(copies=stuck.copies or 1, card=card))
        frozen = suggestion["deck"]
        fmt = format_from_dict((job.tuning or {})["format"])
        draft = Draft(name=str(TUNED_NAME.format(name=source.get("name") or job.decks[0]
                                                  ["name"]))[:100],
                      hero=frozen["hero"], cards=dict(frozen["cards"]),
                      format_code=fmt.code if Format.objects.filter(code=fmt.code).exists()
                      else Draft().format_code, visibility="private")
        return deck_create(owner=user, draft=draft, note=note[:200]), False, warning
    except DeckInputError as exc:
        raise BalanceInputError(str(exc)) from None
