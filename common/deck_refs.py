"""How a request names a deck (a *spec*), read in one place for every app that takes one:

- a saved deck: its uid (``"Xk3…"``) or ``"deck:Xk3…"``;
- a starter deck of a card set in the catalogue: ``"starter:<name>"`` (the prefix in any case);
- the builder's draft in this browser: ``"draft"`` (the new deck) or ``"draft:<uid>"`` (a saved
  deck's unsaved edits).

Only the spelling lives here; what a spec names is looked up by the app that owns it
(``simulations.sources.resolve_spec``, ``play.engine.deck_sources``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

STARTER_PREFIX = "starter:"
DECK_PREFIX = "deck:"
DRAFT = "draft"

DeckRefKind = Literal["starter", "deck", "draft"]


@dataclass(frozen=True)
class DeckRef:
    """A spec read: its kind and what names the deck in it (a starter's name, a saved deck's
    uid, or a draft's key, ``""`` for the builder's new deck)."""

    kind: DeckRefKind
    name: str


def deck_ref(spec: str | None) -> DeckRef:
    """What ``spec`` names (stripped; an empty spec is a saved deck of no uid)."""
    spec = (spec or "").strip()
    if spec.lower().startswith(STARTER_PREFIX):
        return DeckRef("starter", spec[len(STARTER_PREFIX):].strip())
    if is_draft(spec):
        return DeckRef("draft", spec.removeprefix(DRAFT).removeprefix(":"))
    return DeckRef("deck", spec.removeprefix(DECK_PREFIX))


def is_draft(spec: str) -> bool:
    """Whether ``spec`` names one of the builder's drafts."""
    return spec == DRAFT or spec.startswith(DRAFT + ":")


def starter_spec(name: str) -> str:
    """The spec of the starter deck called ``name``."""
    return f"{STARTER_PREFIX}{name}"


def spec_or_starter(name: str) -> str:
    """``name`` as a spec: as given if it is a saved deck's or a starter's, else a starter's
    (the commands' ``--deck`` options)."""
    return name if name.startswith((DECK_PREFIX, STARTER_PREFIX)) else starter_spec(name)
