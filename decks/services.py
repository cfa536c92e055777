"""Writes to decks: create, save (with a version), restore, fork, delete; and the one check
every write goes through (``draft_check``). Views, APIs and commands call these; nothing else
writes decks.

Invariants: each service runs in one transaction; a save that changes the deck's content appends
exactly one ``DeckVersion`` (none when nothing changed); versions are only ever appended.
Illegal decks may be saved (work in progress) — legality is reported, not enforced — but input
that cannot be a deck at all (unknown cards, counts out of range, an unknown format) is refused
with ``DeckInputError`` naming every problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy

from cards.models import Card
from decks.drafts import DEFAULT_FORMAT, DEFAULT_NAME, MAX_CARDS, MAX_COPIES, VISIBILITIES, Draft
from decks.formats.standard import format_standard_create
from decks.models import Deck, DeckEntry, DeckVersion, Format
from decks.selectors import deck_counts, deck_piles, draft_from_deck, formats_known
from rules.decks.piles import MAIN_PILE

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_stubs_ext import StrOrPromise

FORK_NAME = gettext_lazy("{name} (fork)")   # the copy's name, in the forking page's language
UNKNOWN_CARD = gettext_lazy("No card has the code {code!r}.")
UNKNOWN_HERO = gettext_lazy("No card has the code {code!r} (hero).")
BAD_COUNT = gettext_lazy("{code}: {count} copies — a count is a whole number from 1 to {limit}.")
TOO_MANY_CARDS = gettext_lazy("The deck has {count} cards; a deck can hold at most {limit}.")
UNKNOWN_FORMAT = gettext_lazy("There is no format {code!r}; choose one of: {known}.")
BAD_VISIBILITY = gettext_lazy("Visibility must be one of: private, unlisted, public.")
NO_SUCH_VERSION = gettext_lazy("This deck has no version {number}.")
BAD_PILE = gettext_lazy("{pile!r} is not a pile name: use lower-case letters, digits and dashes.")
NAME_TOO_LONG = gettext_lazy("The name is {length} characters; shorten it to at most 100.")


SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")


class DeckInputError(ValueError):
    """Input that cannot be saved as a deck: ``errors`` maps a field to its messages."""

    def __init__(self, errors: Mapping[str, Sequence[StrOrPromise]]) -> None:
        # Lazily translated messages are fixed in the language of the request.
        self.errors = {name: [str(m) for m in ms] for name, ms in errors.items()}
        super().__init__("; ".join(m for ms in self.errors.values() for m in ms))


def draft_check(draft: Draft) -> tuple[Format, dict[str, Card], Card | None]:
    """The draft's format and cards, or DeckInputError naming every problem (3 queries)."""
    errors: dict[str, list[StrOrPromise]] = {}
    fmt = Format.objects.filter(code=draft.format_code).first()
    if fmt is None and draft.format_code == DEFAULT_FORMAT:
        # The standard format always exists (R5): make it again if something deleted it,
        # e.g. a test database flushed between transactional tests.
        fmt = format_standard_create()
    if fmt is None:
        errors["format"] = [UNKNOWN_FORMAT.format(code=draft.format_code, known=formats_known())]
    if draft.visibility not in VISIBILITIES:
        errors["visibility"] = [BAD_VISIBILITY]
    if len(draft.name) > 100:
        errors["name"] = [NAME_TOO_LONG.format(length=len(draft.name))]
    cards = {c.code: c for c in Card.objects.filter(code__in=list(draft.all_codes()))}
    for pile, counts in [(MAIN_PILE, draft.cards), *sorted(draft.piles.items())]:
        field = "cards" if pile == MAIN_PILE else "piles"
        if not SLUG.match(pile):
            errors.setdefault(field, []).append(BAD_PILE.format(pile=pile))
        for code, count in sorted(counts.items()):
            if code not in cards:
                errors.setdefault(field, []).append(UNKNOWN_CARD.format(code=code))
            if isinstance(count, bool) or not isinstance(count, int) or not (
                    1 <= count <= MAX_COPIES):
                errors.setdefault(field, []).append(BAD_COUNT.format(
                    code=code, count=count, limit=MAX_COPIES))
    total = sum(n for counts in [draft.cards, *draft.piles.values()]
                for n in counts.values() if isinstance(n, int))
    if total > MAX_CARDS:
        errors.setdefault("cards", []).append(TOO_MANY_CARDS.format(count=total,
                                                                    limit=MAX_CARDS))
    hero = None
    if draft.hero:
        hero = Card.objects.filter(code=draft.hero).first()
        if hero is None:
            errors["hero"] = [UNKNOWN_HERO.format(code=draft.hero)]
    if errors or fmt is None:   # no format is an error already
        raise DeckInputError(errors)
    return fmt, cards, hero


def _write_entries(deck: Deck, draft: Draft, cards: dict[str, Card]) -> None:
    deck.entries.all().delete()
    DeckEntry.objects.bulk_create([
        DeckEntry(deck=deck, card=cards[code], count=n, pile=pile)
        for pile, counts in [(MAIN_PILE, draft.cards), *sorted(draft.piles.items())]
        for code, n in sorted(counts.items())])


def _append_version(deck: Deck, draft: Draft, by: User, note: str) -> DeckVersion:
    number = (deck.versions.aggregate(top=Max("number"))["top"] or 0) + 1
    return DeckVersion.objects.create(
        deck=deck, number=number, name=deck.name, description=deck.description,
        hero_code=draft.hero or "", format_code=draft.format_code, cards=dict(draft.cards),
        piles={k: dict(v) for k, v in draft.piles.items()}, note=note[:200], created_by=by)


@transaction.atomic
def deck_create(*, owner: User, draft: Draft, note: str = "Created",
                forked_from: Deck | None = None) -> Deck:
    """A new deck owned by ``owner`` with the draft's content, and its version 1."""
    fmt, cards, hero = draft_check(draft)
    draft = replace(draft, name=draft.name or str(DEFAULT_NAME))
    deck = Deck.objects.create(owner=owner, name=draft.name, description=draft.description,
                               hero=hero, format=fmt, visibility=draft.visibility,
                               forked_from=forked_from)
    _write_entries(deck, draft, cards)
    _append_version(deck, draft, owner, note)
    return deck


def _content(draft: Draft) -> tuple[object, ...]:
    return (draft.name, draft.description, draft.hero, dict(draft.cards), draft.format_code,
            {k: dict(v) for k, v in draft.piles.items() if v})


@transaction.atomic
def deck_save(*, deck: Deck, by: User, draft: Draft, note: str = "") -> DeckVersion | None:
    """Replace the deck's content with the draft's and keep it as a new version.

    Returns the new version, or None when the content did not change (a visibility change
    alone is saved but is not a version: versions record what the deck *is*)."""
    fmt, cards, hero = draft_check(draft)
    draft = replace(draft, name=draft.name or str(DEFAULT_NAME))
    locked = Deck.objects.select_for_update().get(pk=deck.pk)
    changed = _content(draft) != _content(draft_from_deck(deck))
    locked.name, locked.description, locked.hero, locked.format = (
        draft.name, draft.description, hero, fmt)
    locked.visibility = draft.visibility
    locked.save()
    if not changed:
        return None
    if dict(draft.cards) != deck_counts(deck) or dict(draft.piles) != deck_piles(deck):
        _write_entries(locked, draft, cards)
    return _append_version(locked, draft, by, note or "Saved")


@transaction.atomic
def deck_restore(*, deck: Deck, number: int, by: User) -> DeckVersion | None:
    """Make version ``number`` the deck's content again (as a new version; none is lost)."""
    version = deck.versions.filter(number=number).first()
    if version is None:
        raise DeckInputError({"version": [NO_SUCH_VERSION.format(number=number)]})
    draft = Draft(name=version.name, description=version.description,
                  hero=version.hero_code or None, cards=dict(version.cards),
                  format_code=version.format_code, visibility=deck.visibility,
                  piles=dict(version.piles or {}))
    return deck_save(deck=deck, by=by, draft=draft, note=f"Restored version {number}")


@transaction.atomic
def deck_fork(*, deck: Deck, by: User) -> Deck:
    """A private copy of a deck the user can see, owned by them, remembering its source."""
    draft = replace(draft_from_deck(deck), name=str(FORK_NAME).format(name=deck.name)[:100],
                    visibility="private")
    return deck_create(owner=by, draft=draft, note=f"Forked from “{deck.name}”",
                       forked_from=deck)


@transaction.atomic
def deck_delete(*, deck: Deck) -> None:
    deck.delete()
