"""The shapes of what a run, a game or a balance job freezes at submission: a deck as it was
(its name, hero, ``{code: count}``, where it came from) and the data form of each card it uses.
Made here once (``frozen_deck``) and read by play, simulations and balance alike; stored as
JSON, so they are plain dicts, typed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypeAlias, TypedDict

# A card's data form, as the engine reads it (``rules.engine.cards.CardDef.from_dict``).
CardData: TypeAlias = dict[str, Any]
# ``{code: card data}`` of every card a frozen deck uses, heroes included.
FrozenCards: TypeAlias = dict[str, CardData]


class FrozenDeck(TypedDict):
    """A deck as it was frozen: ``source`` is "deck" (a saved deck: ``uid`` and ``version`` say
    which), ``starter:<set>`` or the builder's draft spec; ``name_zh``: a starter's Chinese
    name, when it has one; ``owner``: a saved deck's owner's name (told apart by it from a
    starter of the same name)."""

    name: str
    hero: str | None
    cards: dict[str, int]
    uid: str | None
    version: int | None
    source: str
    name_zh: NotRequired[str]
    owner: NotRequired[str]


def frozen_deck(*, name: str, hero: str | None, cards: Mapping[str, int], source: str,
                uid: str | None = None, version: int | None = None,
                name_zh: str = "", owner: str = "") -> FrozenDeck:
    """A frozen deck: the list copied as it is now."""
    deck = FrozenDeck(name=name, hero=hero, cards=dict(cards), uid=uid, version=version,
                      source=source)
    if name_zh:
        deck["name_zh"] = name_zh
    if owner:
        deck["owner"] = owner
    return deck
