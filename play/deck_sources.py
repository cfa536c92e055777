"""The decks a person may play with: their decks, public ones, starters, the builder's draft.

Saved decks and starters are named by the simulator's specs (``simulations.sources``: a deck's
uid or ``starter:<name>``, with the decks app's visibility rules); ``draft`` is the deck being
built in this browser (the builder's session draft).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext

from decks.session import NEW, draft_load
from play.errors import NO_DRAFT, PlayError
from simulations.sources import DeckChoice, SourceError, deck_choices, resolve_spec

DRAFT = "draft"


def draft_deck(request: HttpRequest) -> dict[str, Any] | None:
    """The builder's unsaved deck as a frozen deck dict, if there is one with cards."""
    draft = draft_load(request, NEW)
    if draft is None or not draft.cards:
        return None
    return {"name": draft.display_name, "hero": draft.hero, "cards": dict(draft.cards),
            "uid": None, "version": None, "source": DRAFT}


def play_deck_choices(request: HttpRequest) -> list[DeckChoice]:
    """Every deck the user may play, the builder's draft first when there is one."""
    choices = deck_choices(request.user)
    draft = draft_deck(request)
    if draft is not None:
        label = gettext("{name} (in the builder)").format(name=draft["name"])
        choices.insert(0, DeckChoice(spec=DRAFT, label=label, group=gettext("Deck builder")))
    return choices


def deck_resolve(request: HttpRequest, spec: str, field: str) -> dict[str, Any]:
    """The frozen deck ``spec`` names for this user; ``PlayError`` naming ``field`` if none."""
    if spec == DRAFT:
        draft = draft_deck(request)
        if draft is None:
            raise PlayError(str(NO_DRAFT), field)
        return draft
    try:
        deck, _row = resolve_spec(spec, user=request.user)
    except SourceError as exc:
        raise PlayError(str(exc), field) from None
    return deck
