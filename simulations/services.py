"""Submitting, cancelling and re-running simulations (the what-if).

Invariants: a run and all its matchups and chunks are created in one transaction; the chunks
wait in the database and the dispatcher (``work.fair``) sends them in their turn, only
once the run has committed (a worker never looks for a row that is not there yet). The per-user
cap (``work.quota``) is counted under a lock on the user's row, so two submissions at the
same moment cannot both pass it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NotRequired

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from cards.game_words import says
from cards.models import text_names
from common.language import (
    FROZEN_DECK_NAME_KEYS,
    SOURCE_LANGUAGE,
    frozen_card_name,
    frozen_deck_name,
    frozen_deck_names,
    source_value,
)
from rules.ai.agents import DEFAULT_AGENT, agent_spec
from rules.engine.cards import CardDataError, Ruleset
from rules.lab.patches import DiffRow, Patch, PatchData, PatchError, patch_apply, patch_diff
from simulations import conf
from simulations.agents.strength import chunk_games, games_in
from simulations.execution import finalise
from simulations.models import (
    TERMINAL_CHUNK_STATES,
    Chunk,
    ChunkState,
    Matchup,
    RunKind,
    SimulationRun,
)
from simulations.quota import REDUCE_GAMES, cpu_seconds, game_seconds
from simulations.sources import (
    SourceError,
    card_data,
    cards_freeze,
    catalogue_version,
    resolve_spec,
)
from work.fair import dispatch_quietly
from work.models import ACTIVE_WORK_STATUSES, WorkStatus
from work.quota import QuotaError, quota_check

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User
    from django_stubs_ext import StrOrPromise

    from decks.models import Deck

MAX_SEED = 2**62
STOP_WIDTH_RANGE = (0.01, 0.5)

DECKS_FOR_KIND = {
    RunKind.MATCH: gettext_lazy("A match needs exactly two decks: yours and one opponent."),
    RunKind.GAUNTLET: gettext_lazy("A gauntlet needs a deck and at least one opponent."),
    RunKind.ROUND_ROBIN: gettext_lazy("A round-robin needs at least three decks."),
}
UNKNOWN_KIND = gettext_lazy("Unknown kind of run {kind!r} (known: match, gauntlet, round_robin).")
TOO_MANY_DECKS = gettext_lazy("At most {limit} decks in one run.")
SAME_DECK_TWICE = gettext_lazy("A deck can take part only once in a run ({name}).")
GAMES_TOO_FEW = gettext_lazy("Play at least 2 games (one seat-swapped pair).")
TOO_MANY_GAMES = gettext_lazy(
    "{total} games in all ({games} per pairing × {pairings} pairings) is more than the limit "
    "of {limit} per run."
)
TOO_MANY_ACTIVE = gettext_lazy(
    "You already have {count} simulations queued or running (the limit is {limit}); wait for "
    "one to finish or cancel one."
)
BAD_STOP_WIDTH = gettext_lazy(
    "The early-stop width must be between {low} and {high} (e.g. 0.05 for ±2.5 %)."
)
BAD_SEED = gettext_lazy("The seed must be a whole number from 0 to {limit}.")
BAD_CHUNK = gettext_lazy("A chunk holds from 2 to 10000 games.")
NOT_ACTIVE = gettext_lazy("This simulation has already finished ({status}).")
SWAP_UNKNOWN_DECK = gettext_lazy("The run has no deck number {index}.")
SWAP_NOT_IN_DECK = gettext_lazy("{name} has no {card} to swap out.")
SWAP_SAME = gettext_lazy("Swap a card for a different card.")
SWAP_HERO_KIND = gettext_lazy("A hero can only be swapped for another hero ({card} is a {kind}).")
SWAP_NOT_A_HERO = gettext_lazy(
    "{card} is a hero: swap it for the deck's hero, not for one of its cards."
)
SWAP_NO_SUCH_CARD = gettext_lazy("There is no card {code!r} in the catalogue.")
SWAPPED_DECK_NAME = "{name} ({out} → {new})"
PUBLIC_NEEDS_PUBLIC_DECKS = gettext_lazy(
    "A public run shows its deck lists to everyone: {name} is not public and not yours, so "
    "this run must stay private."
)


class SimulationInputError(ValueError):
    """Input the service refuses; ``field`` names the input it is about."""

    def __init__(self, message: StrOrPromise, field: str = "non_field_errors"):
        super().__init__(str(message))
        self.field = field
        self.message = str(message)   # a lazy message, fixed in the request's language


def pairings(kind: str, count: int) -> list[tuple[int, int]]:
    """The (deck A, deck B) indices a run of this kind plays."""
    if kind == RunKind.MATCH:
        return [(0, 1)]
    if kind == RunKind.GAUNTLET:
        return [(0, i) for i in range(1, count)]
    return [(i, j) for i in range(count) for j in range(i + 1, count)]


def _check_decks(kind: str, decks: Sequence[Mapping[str, Any]]) -> None:
    if kind not in RunKind.values:
        raise SimulationInputError(UNKNOWN_KIND.format(kind=kind), "kind")
    count = len(decks)
    wrong = ((kind == RunKind.MATCH and count != 2) or (kind == RunKind.GAUNTLET and count < 2)
             or (kind == RunKind.ROUND_ROBIN and count < 3))
    if wrong:
        raise SimulationInputError(DECKS_FOR_KIND[RunKind(kind)], "decks")
    if count > conf.MAX_DECKS:
        raise SimulationInputError(TOO_MANY_DECKS.format(limit=conf.MAX_DECKS), "decks")
    if kind == RunKind.MATCH:
        return   # a deck against itself (a mirror match) measures the first player's edge
    seen = set()
    for deck in decks:
        key = deck.get("uid") or f"starter:{deck.get('name')}"
        if key in seen:
            raise SimulationInputError(SAME_DECK_TWICE.format(name=deck.get("name")), "decks")
        seen.add(key)


def _check_agents_and_rules(agent_a: str, agent_b: str, ruleset: Mapping[str, Any] | None
                            ) -> dict[str, Any]:
    for field, name in (("agent_a", agent_a), ("agent_b", agent_b)):
        try:
            agent_spec(name)
        except ValueError as exc:
            raise SimulationInputError(str(exc), field) from None
    try:
        return Ruleset.from_dict(dict(ruleset or {})).to_dict()
    except (CardDataError, TypeError, ValueError) as exc:
        problems = getattr(exc, "problems", None) or [str(exc)]
        raise SimulationInputError(says(problems), "ruleset") from None


def chunk_size_for(games: int, agents: Sequence[str], requested: int | None = None) -> int:
    """Games per chunk: about ``SIMULATIONS_CHUNK_SECONDS`` (a second) of one worker process
    at this deployment's pace, whatever the agents and however big the run — a chunk is the
    longest a newcomer's work can wait behind, and the least work a cancel can leave playing;
    at least 8 chunks for small runs (so several workers share them) unless a size is asked
    for. A requested size is an upper bound, never a floor. Always whole seat-swapped pairs."""
    if requested is not None and not 2 <= requested <= 10_000:
        raise SimulationInputError(BAD_CHUNK, "chunk_size")
    if requested is None:
        return chunk_games(games, *agents[:2])
    size = min(games_in(conf.chunk_seconds(), *agents[:2]), requested)
    return max(2, size - size % 2)


def _label(kind: str, decks: Sequence[Mapping[str, Any]], swap: Mapping[str, Any] | None,
           patch_name: str | None, cards: Mapping[str, Any]) -> str:
    """The run's title in the active language."""
    names = frozen_deck_names(decks)
    if kind == RunKind.MATCH:
        label = gettext("{deck} vs {opponent}").format(deck=names[0], opponent=names[1])
    elif kind == RunKind.GAUNTLET:
        label = gettext("{deck} vs {count} decks (gauntlet)").format(deck=names[0],
                                                                     count=len(names) - 1)
    else:
        label = gettext("Round-robin of {count} decks").format(count=len(names))
    if swap:
        label += gettext(" — what if {out} → {in_}").format(
            out=frozen_card_name(cards, swap["out"]), in_=frozen_card_name(cards, swap["in"]))
    if patch_name:
        label += gettext(" — patch {name}").format(name=patch_name)
    return label[:300]


def _labels(kind: str, decks: Sequence[Mapping[str, Any]], swap: Mapping[str, Any] | None,
            patch: Mapping[str, Any] | None, cards: Mapping[str, Any],
            patch_names: Mapping[str, str] | None) -> dict[str, str]:
    """The run's title in each of the site's languages (``patch_names``: the patch's name in
    each, when it has one per language), written once at submission so a reader sees it in
    theirs (``SimulationRun.title``)."""
    labels = {}
    for code, _name in settings.LANGUAGES:
        name = (patch_names or {}).get(code) or (patch or {}).get("name")
        with translation.override(code):
            labels[code] = _label(kind, decks, swap, name, cards)
    return labels


class RunPatch(PatchData):
    """The patch as a run keeps it (``SimulationRun.patch``): its changes, a readable diff
    from the unpatched data, the changed cards as printed, and its name in each language when
    it was given one per language."""

    diff: list[DiffRow]
    unpatched: dict[str, Any]
    names: NotRequired[dict[str, str]]


def patch_freeze(cards: Mapping[str, Any], patch: Mapping[str, Any] | Patch | None
             ) -> tuple[dict[str, Any], RunPatch | None]:
    """The frozen cards with the patch made, and the patch as the run keeps it (its changes
    and a readable diff from the unpatched data); a deck tuning keeps it the same way."""
    if patch is None:
        return dict(cards), None
    try:
        parsed = patch if isinstance(patch, Patch) else Patch.from_dict(patch)
        patched = patch_apply(cards, parsed)
    except PatchError as exc:
        raise SimulationInputError(says(exc.problems), "patch") from None
    # the changed cards as printed, so the run's page writes each change's rules text before →
    # after in its reader's language (the run's frozen cards are the patched ones)
    unpatched = {code: cards[code] for code in parsed.cards if code in cards}
    # the diff's text in English, the data's language, with the catalogue's race words
    data = parsed.to_dict()
    kept: RunPatch = {"name": data["name"], "changes": data["changes"],
                      "diff": patch_diff(cards, parsed, SOURCE_LANGUAGE,
                                         text_names(cards, SOURCE_LANGUAGE)),
                      "unpatched": unpatched}
    return patched, kept


def patch_cards(patch: Mapping[str, Any] | Patch | None) -> list[str]:
    """The codes a patch changes (to freeze them with the decks' cards); [] if malformed
    (``simulation_submit`` reports the problems)."""
    if patch is None:
        return []
    try:
        return (patch if isinstance(patch, Patch) else Patch.from_dict(patch)).cards
    except PatchError:
        return []


def lock_user_and_check_cap(owner: User, *, cpu: float) -> None:
    """The per-user cap (``work.quota``) on runs in flight and on CPU time: ``cpu`` is
    the estimated CPU seconds of what is being submitted."""
    try:
        quota_check(owner=owner, cpu_seconds=cpu, field="games", reduce=REDUCE_GAMES,
                    count_active=lambda: SimulationRun.objects.filter(
                        owner=owner, status__in=ACTIVE_WORK_STATUSES).count(),
                    count_limit=conf.max_active_per_user(), too_many=TOO_MANY_ACTIVE)
    except QuotaError as exc:
        raise SimulationInputError(exc.message, exc.field) from None


def simulation_submit(*, owner: User | None, kind: str, decks: Sequence[Mapping[str, Any]],
                      games: int,
                      agent_a: str = DEFAULT_AGENT, agent_b: str = DEFAULT_AGENT,
                      seed: int | None = None,
                      ruleset: Mapping[str, Any] | None = None,
                      stop_width: float | None = None,
                      is_public: bool = False, home_deck: Deck | None = None,
                      cards: Mapping[str, Any] | None = None, card_version: str | None = None,
                      chunk_size: int | None = None, replays: int = conf.REPLAYS_PER_MATCHUP,
                      base_run: SimulationRun | None = None,
                      swap: Mapping[str, Any] | None = None,
                      named_cards: Mapping[str, Any] | None = None,
                      patch: Mapping[str, Any] | Patch | None = None,
                      frozen_patch: Mapping[str, Any] | None = None,
                      patch_names: Mapping[str, str] | None = None,
                      search_metas: Mapping[str, Any] | None = None,
                      check_cap: bool = True) -> SimulationRun:
    """Freeze the decks, split the work into chunks and queue them; returns the new run.

    ``patch`` (``rules.lab.patches``) is made on the frozen cards, so every deck on both sides plays
    it; ``frozen_patch`` is the record of a patch already made on ``cards`` (a re-run);
    ``search_metas`` the field's meta before and after the patch, per agent, as the balance
    search that opens the run verified it (``SimulationRun.search_metas``)."""
    decks = [dict(d) for d in decks]
    _check_decks(kind, decks)
    if kind == RunKind.ROUND_ROBIN:
        agent_b = agent_a   # every deck plays with the same agent
    rules = _check_agents_and_rules(agent_a, agent_b, ruleset)
    if games < 2:
        raise SimulationInputError(GAMES_TOO_FEW, "games")
    games += games % 2
    pairs = pairings(kind, len(decks))
    total = games * len(pairs)
    if total > conf.max_games():
        raise SimulationInputError(TOO_MANY_GAMES.format(
            total=total, games=games, pairings=len(pairs), limit=conf.max_games()), "games")
    if stop_width is not None and not STOP_WIDTH_RANGE[0] <= stop_width <= STOP_WIDTH_RANGE[1]:
        raise SimulationInputError(BAD_STOP_WIDTH.format(low=STOP_WIDTH_RANGE[0],
                                                         high=STOP_WIDTH_RANGE[1]), "stop_width")
    if seed is None:
        seed = secrets.randbelow(2**31)
    if not 0 <= seed <= MAX_SEED:
        raise SimulationInputError(BAD_SEED.format(limit=MAX_SEED), "seed")
    size = chunk_size_for(games, (agent_a, agent_b), chunk_size)
    try:
        if cards is None:
            cards = cards_freeze(decks, extra=patch_cards(patch))
            card_version = catalogue_version()
    except SourceError as exc:
        raise SimulationInputError(str(exc), "decks") from None
    cards, made = patch_freeze(cards, patch)
    patch_record: RunPatch | dict[str, Any] | None = made or (
        dict(frozen_patch) if frozen_patch else None)
    if patch_record and patch_names:
        patch_record["names"] = dict(patch_names)     # its name in each language
    with transaction.atomic():
        if owner is not None and check_cap:
            lock_user_and_check_cap(owner, cpu=cpu_seconds(agent_a=agent_a, agent_b=agent_b,
                                                           games=total))
        labels = _labels(kind, [*(base_run.decks if base_run else decks)], swap, patch_record,
                         {**(named_cards or {}), **cards}, patch_names)
        run = SimulationRun.objects.create(
            owner=owner, deck=home_deck, kind=kind, labels=labels,
            label=labels.get(translation.get_language(), labels[settings.LANGUAGE_CODE]),
            is_public=is_public, decks=decks, cards=dict(cards),
            card_data_version=card_version or "", agent_a=agent_a, agent_b=agent_b, seed=seed,
            games=games, chunk_size=size, ruleset=rules, stop_width=stop_width,
            replays=replays, base_run=base_run, swap=dict(swap) if swap else None,
            patch=patch_record, games_total=total,
            search_metas=dict(search_metas) if search_metas else None)
        _create_chunks(run, pairs, games, size)
        transaction.on_commit(dispatch_quietly, robust=True)
    return run


def _create_chunks(run: SimulationRun, pairs: Sequence[tuple[int, int]], games: int,
                   size: int) -> None:
    """The run's chunks, waiting in the database for the dispatcher (``work.fair``)."""
    per_game = game_seconds(run.agent_a, run.agent_b)
    matchups = Matchup.objects.bulk_create([
        Matchup(run=run, index=i, a=a, b=b, games=games) for i, (a, b) in enumerate(pairs)])
    if any(m.pk is None for m in matchups):   # backends that return no ids on bulk insert
        matchups = list(run.matchups.order_by("index"))
    rows, index = [], 0
    for matchup in matchups:
        for start in range(0, games, size):
            rows.append(Chunk(run=run, matchup=matchup, index=index, start=start,
                              stop=min(start + size, games),
                              cpu_seconds=(min(start + size, games) - start) * per_game))
            index += 1
    Chunk.objects.bulk_create(rows)


def simulation_request(*, user: User | AnonymousUser | None, kind: str,
                       deck_specs: Sequence[str], games: int,
                       agent_a: str, agent_b: str, seed: int | None = None,
                       ruleset: Mapping[str, Any] | None = None,
                       stop_width: float | None = None,
                       is_public: bool = False, chunk_size: int | None = None,
                       trusted: bool = False,
                       patch: Mapping[str, Any] | Patch | None = None,
                       patch_names: Mapping[str, str] | None = None,
                       check_cap: bool = True) -> SimulationRun:
    """Submit a run named by deck specs (``uid`` or ``starter:<name>``), first deck first."""
    decks, rows = [], []
    for spec in deck_specs:
        try:
            deck, row = resolve_spec(spec, user=user, trusted=trusted)
        except SourceError as exc:
            raise SimulationInputError(str(exc), "decks") from None
        decks.append(deck)
        rows.append(row)
    owner = user if user is not None and user.is_authenticated else None
    if is_public and not trusted:
        for row in rows:
            if row is not None and row.visibility != "public" and row.owner_id != getattr(
                    owner, "pk", None):
                raise SimulationInputError(PUBLIC_NEEDS_PUBLIC_DECKS.format(name=row.name),
                                           "public")
    return simulation_submit(owner=owner, kind=kind, decks=decks, games=games, agent_a=agent_a,
                             agent_b=agent_b, seed=seed, ruleset=ruleset, stop_width=stop_width,
                             is_public=is_public, home_deck=rows[0] if rows else None,
                             chunk_size=chunk_size, patch=patch, patch_names=patch_names,
                             check_cap=check_cap)


def simulation_cancel(*, run: SimulationRun) -> SimulationRun:
    """Stop a run: chunks not yet done are skipped, what is done is kept as partial results."""
    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=run.pk)
        if run.status not in ACTIVE_WORK_STATUSES:
            raise SimulationInputError(NOT_ACTIVE.format(status=run.get_status_display()))
        (Chunk.objects.filter(run=run).exclude(state__in=TERMINAL_CHUNK_STATES)
         .update(state=ChunkState.SKIPPED, claim="", lease_until=None))
        finalise(run, status=WorkStatus.CANCELLED)
        transaction.on_commit(dispatch_quietly, robust=True)   # its places in the broker
    return run


def _swapped_deck(deck: Mapping[str, Any], out: str, new: str,
                  data: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    deck = dict(deck)
    kinds = {code: card.get("kind") for code, card in data.items()}

    def name(code: str) -> Any:
        return source_value(data.get(code, {}), "name") or code

    if out == new:
        raise SimulationInputError(SWAP_SAME, "card_in")
    if out == deck["hero"]:
        if kinds.get(new) != "hero":
            raise SimulationInputError(SWAP_HERO_KIND.format(card=name(new), kind=kinds.get(new)),
                                       "card_in")
        deck["hero"] = new
        return deck
    cards = dict(deck["cards"])
    if out not in cards:
        raise SimulationInputError(SWAP_NOT_IN_DECK.format(name=deck.get("name"),
                                                           card=name(out)), "card_out")
    if kinds.get(new) == "hero":
        raise SimulationInputError(SWAP_NOT_A_HERO.format(card=name(new)), "card_in")
    count = cards.pop(out)
    cards[new] = cards.get(new, 0) + count
    deck["cards"] = dict(sorted(cards.items()))
    return deck


def simulation_what_if(*, base: SimulationRun, owner: User | None, deck_index: int, card_out: str,
                       card_in: str) -> SimulationRun:
    """Re-run ``base`` on the same seeds with every copy of one card of one deck swapped for
    another card (or the hero for another hero); the results page compares the two."""
    from cards.selectors import card_rows

    if not 0 <= deck_index < len(base.decks):
        raise SimulationInputError(SWAP_UNKNOWN_DECK.format(index=deck_index), "deck")
    row = card_rows().filter(code=card_in).first()
    if row is None:
        raise SimulationInputError(SWAP_NO_SUCH_CARD.format(code=card_in), "card_in")
    try:
        new_data = card_data(row)
    except SourceError as exc:
        raise SimulationInputError(str(exc), "card_in") from None
    cards = dict(base.cards)
    cards.setdefault(card_in, new_data)   # the base run's data for cards it already had
    decks = [dict(d) for d in base.decks]
    named = dict(cards)     # a card the run never had is still named in the message
    if card_out not in named:
        names = card_rows().filter(code=card_out).values("names").first()
        named[card_out] = names or {"names": {SOURCE_LANGUAGE: card_out}}
    decks[deck_index] = _swapped_deck(decks[deck_index], card_out, card_in, named)
    swap = {"deck": deck_index, "out": card_out, "in": card_in}
    original = dict(decks[deck_index])
    for lang, key in FROZEN_DECK_NAME_KEYS.items():
        with translation.override(lang):
            decks[deck_index][key] = SWAPPED_DECK_NAME.format(
                name=frozen_deck_name(original, deck_index + 1),
                out=frozen_card_name(named, card_out), new=frozen_card_name(named, card_in))
    return simulation_submit(
        owner=owner, kind=base.kind, decks=decks, games=base.games, agent_a=base.agent_a,
        agent_b=base.agent_b, seed=base.seed, ruleset=base.ruleset, stop_width=None,
        is_public=base.is_public, home_deck=base.deck, cards=cards,
        card_version=catalogue_version(), chunk_size=base.chunk_size, replays=base.replays,
        base_run=base, swap=swap, named_cards=named, frozen_patch=base.patch)
