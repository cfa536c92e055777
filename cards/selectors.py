"""Reads of the catalogue. Selectors own the query shape: every list they return fetches its
faction, race and set in the same query, so no page or API issues a query per card.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable

from django.db.models import Case, F, IntegerField, QuerySet, Value, When
from django.utils.translation import gettext_lazy as _

from cards.adapters import card_to_data, card_to_def
from cards.game_words import game_word_lazy
from cards.models import RARITY_RANK, Card, CardKind, CardSet, Faction, Race, RarityTier
from cards.query import parse, to_q
from common.language import in_english, localized_value
from rules.engine.cards import CardDef

# order name → (expression, ...) ; "-name" reverses the first key. Ties break by code.
ORDERS = {
    "code": "code",
    "name": "name",   # in English (common.language.in_english)
    "kind": "kind",
    "attribute": "attribute",
    "rarity": "rarity_order",
    "cost": "cost",
    "attack": "attack",
    "hp": "hp",
    "set": "card_set__code",
}
ORDER_CHOICES = [
    ("code", _("Code")), ("name", _("Name (A–Z)")), ("-name", _("Name (Z–A)")),
    ("cost", _("Cost (low first)")), ("-cost", _("Cost (high first)")),
    ("attack", _("Attack (low first)")), ("-attack", _("Attack (high first)")),
    ("hp", _("HP (low first)")), ("-hp", _("HP (high first)")),
    ("rarity", _("Rarity (N first)")), ("-rarity", _("Rarity (UR first)")),
    ("kind", game_word_lazy("field", "kind")), ("attribute", game_word_lazy("field", "attribute")),
    ("set", _("Set")),
    ("-code", _("Code (reversed)")),
]


# Columns no card list shows: the set's starter decks (a big JSON document that would be
# decoded once per card row) and bookkeeping dates.
LIST_DEFERRED = ("card_set__starter_decks", "card_set__created_at", "card_set__updated_at",
                 "created_at")


def card_rows() -> QuerySet[Card]:
    """Every card with its faction, race and set joined in (the base of every card list)."""
    return Card.objects.select_related("faction", "race", "card_set").defer(*LIST_DEFERRED)


def with_rarity_rank(cards: QuerySet[Card]) -> QuerySet[Card]:
    whens = [When(rarity=code, then=Value(rank)) for code, rank in RARITY_RANK.items()]
    return cards.annotate(rarity_order=Case(*whens, default=Value(0),
                                           output_field=IntegerField()))


def card_order(cards: QuerySet[Card], order: str = "code") -> QuerySet[Card]:
    """Sort by one of ``ORDER_CHOICES`` (unknown names sort by code); empty values sort last."""
    descending = order.startswith("-")
    key = ORDERS.get(order.lstrip("-"), "code")
    if key == "rarity_order":
        cards = with_rarity_rank(cards)
    column = in_english() if key == "name" else F(key)
    expr = column.desc(nulls_last=True) if descending else column.asc(nulls_last=True)
    tie = "-code" if descending and key == "code" else "code"
    return cards.order_by(expr, tie) if key != "code" else cards.order_by(tie)


def card_defs(cards: Iterable[Card] | None = None) -> dict[str, CardDef]:
    """``{code: CardDef}`` for the given rows, or for every card in the catalogue."""
    rows = card_rows().filter(engine=True) if cards is None else cards
    return {card.code: card_to_def(card) for card in rows}


def kind_labels(cards: Iterable[Card], lang: str) -> dict[str, str]:
    """``{card code: kind name}`` for the cards of other games among ``cards``: the name their
    game declares for the kind, in ``lang`` (two queries; none when every card is the
    engine's, whose kinds have the model's own labels)."""
    return _game_term_labels(cards, lang, CardKind, "kind")


def rarity_labels(cards: Iterable[Card], lang: str) -> dict[str, str]:
    """``{card code: rarity tier name}`` for the cards of other games among ``cards`` that
    have a tier ("Ordinary" / "普通" for ``ordinary``; two queries, none for this game's)."""
    return _game_term_labels(cards, lang, RarityTier, "rarity")


def _game_term_labels(cards: Iterable[Card], lang: str, term: type[CardKind] | type[RarityTier],
                      field: str) -> dict[str, str]:
    """``{card code: name}`` of each other-game card's ``field`` value (a kind, a rarity
    tier) as its game declares the ``term``, in ``lang``."""
    others = [c for c in cards if not c.engine and getattr(c, field)]
    if not others:
        return {}
    games = dict(CardSet.objects.filter(pk__in={c.card_set_id for c in others})
                 .values_list("pk", "game_id"))
    values: dict[str, str] = {c.code: getattr(c, field) for c in others}
    names: dict[tuple[int | None, str], str] = {
        (t.game_id, t.code): localized_value(t, "name", lang)
        for t in term.objects.filter(game_id__in=set(games.values()),
                                     code__in=set(values.values()))}
    return {c.code: names.get((games.get(c.card_set_id), values[c.code]), values[c.code])
            for c in others}


def cards_label(cards: Iterable[Card], lang: str) -> None:
    """Give each row ``kind_label`` and ``rarity_label``: its game's words in ``lang`` (this
    game's kinds by the model's labels, its rarities N…UR as printed)."""
    cards = list(cards)
    kinds, rarities = kind_labels(cards, lang), rarity_labels(cards, lang)
    for card in cards:
        card.kind_label = kinds.get(card.code) or card.get_kind_display()
        card.rarity_label = rarities.get(card.code) or card.rarity


def card_search(*, query: str = "", order: str = "code") -> QuerySet[Card]:
    """Cards matching the catalogue query language; raises QuerySyntaxError with a position."""
    return card_order(card_rows().filter(to_q(parse(query))), order)


def card_neighbours(*, card: Card, limit: int = 6) -> dict[str, list[Card]]:
    """A few other cards of the same faction and of the same race (for the card page)."""
    out: dict[str, list[Card]] = {}
    for name in ("faction", "race"):
        if getattr(card, f"{name}_id"):
            out[name] = list(card_rows().filter(**{name: getattr(card, f"{name}_id")})
                             .exclude(pk=card.pk).order_by("code")[:limit])
    return out


def filter_choices() -> dict[str, list[Faction] | list[Race] | list[CardSet]]:
    """The factions, races and sets to offer as filters (three small queries)."""
    return {
        "factions": list(Faction.objects.order_by(in_english())),
        "races": list(Race.objects.order_by(in_english())),
        "sets": list(CardSet.objects.order_by("code")),
    }


def card_data_version(*, cards: Iterable[Card] | None = None) -> str:
    """A stable hash (sha256 hex) of the data of every card (or of ``cards``).

    It changes exactly when a card's data form changes (a stat, a name, an ability, a code
    added or removed), not when rows are re-saved or derived text is refreshed, so a
    simulation run can record which card data it was played with.
    """
    # The engine's cards only: another game's sample set leaves the version as it was.
    rows = card_rows().filter(engine=True).order_by("code") if cards is None else sorted(
        cards, key=lambda c: c.code)
    digest = hashlib.sha256()
    for card in rows:
        line = json.dumps(card_to_data(card), sort_keys=True, ensure_ascii=False,
                          separators=(",", ":"))
        digest.update(line.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()
