"""Where a run's decks and cards come from, and how they are frozen into plain JSON.

A deck is named by a *spec* (``common.deck_refs``): a saved deck's uid (``"Xk3…"`` or
``"deck:Xk3…"``) or a starter deck of a card set in the catalogue (``"starter:Ember Rush"``).
Freezing copies the list as it is now (name, hero, ``{code: count}``, uid and version number) and
the data form of every card it uses, so the run never depends on later edits.

Invariant: everything returned here is JSON-ready and validated by the engine (``CardDef``), so a
worker can turn it back into engine objects without touching the catalogue.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy

from cards.adapters import card_to_data
from cards.game_words import says
from cards.models import Card
from cards.selectors import card_data_version, card_rows
from common.deck_refs import deck_ref
from common.frozen import FrozenCards, FrozenDeck, frozen_deck
from common.language import owned_deck_name, starter_name
from common.visitor import Visitor
from decks.models import Deck
from decks.selectors import deck_counts, deck_get, decks_listed
from decks.starters import selectors as starters
from rules.engine.cards import CardDataError, CardDef, DeckList
from simulations.deck_legality import NOT_LEGAL_MARK, saved_decks_problems

UNKNOWN_DECK = gettext_lazy(
    "No deck {spec!r}: give a deck's id (from its address) or starter:<name>."
)
UNKNOWN_STARTER = gettext_lazy("No starter deck named {name!r} (known: {known}).")
NOT_SIMULATED = gettext_lazy(
    "{name} is a {game} deck: only this site's own game is played by the engine, so it cannot "
    "be simulated.")
NO_STARTERS = gettext_lazy("none — load a card set")
A_DECK = gettext_lazy("A deck")
NO_HERO = gettext_lazy("{name} has no hero: a deck needs one to be simulated.")
NO_CARDS = gettext_lazy("{name} has no cards.")
UNKNOWN_CARDS = gettext_lazy("{name} uses cards the catalogue does not have: {codes}.")
NOT_A_HERO = gettext_lazy("{name}: {code} is not a hero card.")
BAD_CARD = gettext_lazy("Card {code} cannot be played by the engine: {problems}.")
NO_CATALOGUE = gettext_lazy(
    "The catalogue is empty: load cards first (python manage.py load_cards)."
)


class SourceError(ValueError):
    """A deck or card that cannot be simulated; the message is for the user."""


@dataclass(frozen=True)
class DeckChoice:
    """A deck a user may pick, for forms: its spec and a label."""

    spec: str
    label: str
    group: str


def starter_decks() -> list[FrozenDeck]:
    """Every starter deck of every card set in the catalogue, frozen."""
    return [frozen_deck(name=deck.name, hero=deck.hero, cards=deck.cards,
                        source=f"starter:{deck.set_code}", name_zh=deck.name_zh or "")
            for deck in starters.starter_decks()]


def deck_freeze(deck: Deck) -> FrozenDeck:
    """A saved deck as it is now."""
    version = deck.versions.order_by("-number").values_list("number", flat=True).first()
    return frozen_deck(name=deck.name, hero=deck.hero.code if deck.hero is not None else None,
                       cards=deck_counts(deck), uid=deck.uid, version=version, source="deck",
                       owner=deck.owner.get_username())


def resolve_spec(spec: str, *, user: Visitor = None, trusted: bool = False
                 ) -> tuple[FrozenDeck, Deck | None]:
    """The frozen deck a spec names, and the ``Deck`` row if it is a saved deck.

    Saved decks are looked up with the decks app's visibility rules for ``user`` (another
    user's private deck is "no such deck"); ``trusted`` (the command line) sees every deck.
    """
    spec = (spec or "").strip()
    ref = deck_ref(spec)
    if ref.kind == "starter":
        name = ref.name
        starters = starter_decks()
        for deck in starters:
            if deck["name"].casefold() == name.casefold():
                return deck, None
        known = ", ".join(d["name"] for d in starters) or str(NO_STARTERS)
        raise SourceError(UNKNOWN_STARTER.format(name=name, known=known))
    uid = ref.name if ref.kind == "deck" else spec   # a draft is no saved deck
    try:
        row = (Deck.objects.select_related("hero").get(uid=uid) if trusted
               else deck_get(uid=uid, user=user))
    except Deck.DoesNotExist:
        raise SourceError(UNKNOWN_DECK.format(spec=spec)) from None
    if not row.format.simulated:
        game = row.format.game     # set: a format of no game is this site's own
        raise SourceError(NOT_SIMULATED.format(
            name=row.name, game=game.display_name if game is not None else ""))
    return deck_freeze(row), row


def cards_freeze(decks: Iterable[Mapping[str, Any]], extra: Iterable[str] = ()) -> FrozenCards:
    """The data form of every card the decks use (heroes included), checked by the engine."""
    decks = list(decks)
    wanted = set(extra)
    for deck in decks:
        name = deck.get("name") or str(A_DECK)
        if not deck.get("hero"):
            raise SourceError(NO_HERO.format(name=name))
        if not deck.get("cards"):
            raise SourceError(NO_CARDS.format(name=name))
        wanted.add(deck["hero"])
        wanted.update(deck["cards"])
    rows = {card.code: card for card in card_rows().filter(code__in=wanted)}
    for deck in decks:
        missing = sorted(({deck["hero"]} | set(deck["cards"])) - set(rows))
        if missing:
            raise SourceError(UNKNOWN_CARDS.format(name=deck.get("name") or str(A_DECK),
                                                   codes=", ".join(missing)))
        if rows[deck["hero"]].kind != "hero":
            raise SourceError(NOT_A_HERO.format(name=deck.get("name"), code=deck["hero"]))
    return {code: card_data(rows[code]) for code in sorted(rows)}


def card_data(card: Card) -> dict[str, Any]:
    data = card_to_data(card)
    try:
        CardDef.from_dict(data)
    except CardDataError as exc:
        raise SourceError(BAD_CARD.format(code=card.code, problems=says(exc.problems))) \
            from None
    return data


def catalogue_version() -> str:
    if not Card.objects.exists():
        raise SourceError(NO_CATALOGUE)
    return card_data_version()


def frozen_version(cards: Mapping[str, Any]) -> str:
    """A stable hash of frozen card data (for runs whose cards come from a set file)."""
    text = json.dumps(cards, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def engine_objects(cards: Mapping[str, Any], decks: Iterable[Mapping[str, Any]]
                   ) -> tuple[dict[str, CardDef], list[DeckList]]:
    """Frozen JSON back to the engine's objects."""
    defs = {code: CardDef.from_dict(data) for code, data in cards.items()}
    lists = [DeckList.from_counts(d["hero"], d["cards"], d.get("name", "")) for d in decks]
    return defs, lists


def deck_choices(user: Visitor) -> list[DeckChoice]:
    """Decks a user may simulate, for the form: theirs, public ones, starter decks."""
    choices = []
    simulated = Q(format__game__isnull=True) | Q(format__game__engine=True)
    listed = list(decks_listed(user).filter(simulated)
                  .select_related("owner", "hero", "format")[:200])
    problems = saved_decks_problems(listed)
    starter_list = starters.starter_decks()
    # A player's deck named like a starter is told apart from it, in both options.
    starter_names = {name.casefold() for s in starter_list for name in (s.name, s.name_zh)
                     if name}
    clashes: set[str] = set()
    for deck in listed:
        mine = user is not None and user.is_authenticated and deck.owner_id == user.pk
        group = gettext("Your decks") if mine else gettext("Public decks")
        label = deck.name if mine else gettext("{name} (by {owner})").format(
            name=deck.name, owner=deck.owner.get_username())
        if deck.name.casefold() in starter_names:
            clashes.add(deck.name.casefold())
            if mine:
                label = owned_deck_name(deck.name, deck.owner.get_username())
        if deck.pk in problems:
            label = str(NOT_LEGAL_MARK).format(name=label, problems=" ".join(problems[deck.pk]))
        choices.append(DeckChoice(spec=deck.uid, label=label, group=group))
    for starter in starter_list:
        clash = clashes & {name.casefold() for name in (starter.name, starter.name_zh) if name}
        choices.append(DeckChoice(
            spec=starter.spec, group=gettext("Starter decks"),
            label=starter_name(starter.display_name) if clash else starter.display_name))
    return choices
