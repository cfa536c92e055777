"""The only place where catalogue rows meet the engine: ``Card`` rows ⇄ data form ⇄ ``CardDef``.

Invariants: the data form is exactly the shape of a card in the shipped set file (what
``rules.decks.cardset.load_card_set`` reads and ``CardDef.to_dict`` writes), so a card survives
row → data → row unchanged; ``card_to_def`` only returns cards the engine validated.
The functions take a ``cards.models.Card`` row (not imported here: the model calls this
module, so the arrow points one way) and never query by themselves: callers that convert many
rows pass ``select_related("faction", "race")`` querysets (the selectors do).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cards.game_words import say
from common.language import data_form_names
from rules.engine.ability_language import validate_card
from rules.engine.cards import CardDef
from rules.engine.text import card_text, written_languages

Card = Any   # a cards.models.Card row (see the module docstring)

# The fields of the data form in the order the shipped file writes them.
DATA_FIELDS = ("code", "kind", "name_en", "name_zh", "rarity", "cost", "attack", "hp",
               "attribute", "faction", "race", "keywords", "abilities")
# A problem path like "card T-M01.abilities[0].effects[1]" lands on the model field "abilities";
# the data form's names are the model's keyed ``names``, which forms edit as a box per language,
# so a problem with them is the form's own.
MODEL_FIELDS = set(DATA_FIELDS) - {"name_en", "name_zh"}


def card_to_data(card: Card) -> dict[str, Any]:
    """The card as the set file writes it: empty fields left out, faction and race as codes."""
    data: dict[str, Any] = {
        "code": card.code, "kind": card.kind, **data_form_names(card), "rarity": card.rarity,
        "cost": card.cost, "attack": card.attack, "hp": card.hp,
        "attribute": card.attribute,
        "faction": card.faction.code if card.faction_id else None,
        "race": card.race.code if card.race_id else None,
        "keywords": list(card.keywords or []),
        "abilities": card.abilities if card.abilities is not None else [],
    }
    return {k: v for k, v in data.items() if v is not None and v != []}


def card_to_def(card: Card) -> CardDef:
    """The engine's card; raises ``rules.engine.cards.CardDataError`` if the row is invalid."""
    return CardDef.from_dict(card_to_data(card))


def card_problems(card: Card) -> dict[str, list[str]]:
    """The engine validator's problems with a row, keyed by model field (for ValidationError).

    The message keeps the path inside the field (``abilities[0].effects[1].amount: is
    required``) so a designer can find the spot in the JSON.
    """
    data = card_to_data(card)
    prefix = f"card {data.get('code', '?')}."
    errors: dict[str, list[str]] = {}
    for problem in validate_card(data):
        path = problem.path.removeprefix(prefix)
        field = path.split(".", 1)[0].split("[", 1)[0]
        if field not in MODEL_FIELDS:
            field = "__all__"
        message = say(problem, path=False)
        message = message if path == field else f"{path}: {message}"
        errors.setdefault(field, []).append(message)
    return errors


def rules_text(data: Mapping[str, Any], lang: str, names: Mapping[str, str]) -> str:
    """Generated rules text, or "" for data the engine refuses (it cannot be described)."""
    if validate_card(data):
        return ""
    return card_text(data, lang, names)


def refresh_derived(card: Card, names: Mapping[str, Mapping[str, str]]) -> None:
    """Recompute the derived fields (the rules text in every language with a grammar, keyword
    tags) in place.

    ``names`` is ``{language: {code: name}}`` (``cards.models.display_names``) for the
    languages the rules text is written in (``rules.engine.text.written_languages``).
    """
    data = card_to_data(card)
    card.texts = {lang: text for lang in written_languages()
                  if (text := rules_text(data, lang, names[lang]))}
    keywords = [k for k in (card.keywords or []) if isinstance(k, str)]
    card.keyword_tags = f"|{'|'.join(keywords)}|" if keywords else ""
