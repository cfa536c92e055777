"""The decks a person may play with: their decks, public ones, starters, the builder's draft.

Decks are named by specs (``common.deck_refs``); saved decks and starters are looked up by the
simulator's ``resolve_spec`` (with the decks app's visibility rules); ``draft`` is the new deck
being built in this browser (the builder's session draft), ``draft:<uid>`` a saved deck's
unsaved edits there.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.translation import gettext

from common.deck_refs import DRAFT, deck_ref, is_draft
from common.frozen import FrozenDeck, frozen_deck
from decks.session import NEW, draft_load
from play.errors import NO_DRAFT, PlayError
from simulations.sources import DeckChoice, SourceError, deck_choices, resolve_spec


def draft_deck(request: HttpRequest, spec: str = DRAFT) -> FrozenDeck | None:
    """A draft of the builder frozen, if there is one with cards (``draft``: the new deck;
    ``draft:<uid>``: a saved deck's unsaved edits)."""
    key = deck_ref(spec).name or NEW
    draft = draft_load(request, key)
    if draft is None or not draft.cards:
        return None
    return frozen_deck(name=draft.display_name, hero=draft.hero, cards=draft.cards, source=spec)


def play_deck_choices(request: HttpRequest, asked: str | None = None) -> list[DeckChoice]:
    """Every deck the user may play, the builder's draft first when there is one (and the
    draft of a saved deck being edited, when ``asked`` names it)."""
    choices = deck_choices(request.user)
    specs = [DRAFT] + ([asked] if asked and asked != DRAFT and is_draft(asked) else [])
    for spec in reversed(specs):
        draft = draft_deck(request, spec)
        if draft is not None:
            label = gettext("{name} (in the builder)").format(name=draft["name"])
            choices.insert(0, DeckChoice(spec=spec, label=label,
                                         group=gettext("Deck builder")))
    return choices


def deck_resolve(request: HttpRequest, spec: str, field: str) -> FrozenDeck:
    """The frozen deck ``spec`` names for this user; ``PlayError`` naming ``field`` if none."""
    if is_draft(spec):
        draft = draft_deck(request, spec)
        if draft is None:
            raise PlayError(str(NO_DRAFT), field)
        return draft
    try:
        deck, _row = resolve_spec(spec, user=request.user)
    except SourceError as exc:
        raise PlayError(str(exc), field) from None
    return deck
