"""Where deck rows meet the engine and the codecs: formats to ``rules.decks.legality.Format``,
catalogue rows to a ``CardIndex``. Each function issues a fixed, small number of queries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from cards.models import ENGINE_GAME, Card, Game
from common.language import data_form_names
from decks.codecs import CardIndex
from decks.models import Format
from rules.decks import legality
from rules.decks.formats import FormatDataError, Named, format_from_rules
from rules.decks.formats import Game as GameSpec

# updated_at versions the card image URL (the hover preview), so a changed card's is refetched.
INDEX_FIELDS = ("code", "kind", "names", "rarity", "cost", "attack", "hp", "engine",
                "attribute", "updated_at")


def _data_form_pair(row: object) -> tuple[str, str]:
    """A row's English and Chinese names, as the rules library's data form carries them."""
    english, chinese = data_form_names(row).values()
    return english, chinese


def _chinese_name(fmt: Format) -> str:
    """The format's Chinese name as ``legality.Format`` carries it (its English is ``name``)."""
    return _data_form_pair({"names": fmt.names})[1]


def format_to_rules(fmt: Format) -> legality.Format:
    """The engine's view of a format, with its ban list and legal sets (one query: both lists
    are short, so their cross product is too)."""
    rows = (Format.objects.filter(pk=fmt.pk).order_by()
            .values_list("card_limits__card__code", "card_limits__limit", "legal_sets__code"))
    limits = {code: limit for code, limit, _ in rows if code is not None}
    sets = tuple(sorted({code for _, _, code in rows if code is not None}))
    if fmt.has_piles:
        spec = game_spec(fmt.game) if fmt.game is not None else None
        try:
            return format_from_rules(fmt.rules, code=fmt.code, name=fmt.name,
                                     name_zh=_chinese_name(fmt), game=spec, bans=limits,
                                     legal_sets=sets or None)
        except FormatDataError:
            pass  # refused by the admin's clean(); a row written around it reads as below
    # A one-list format is this site's own game (or a game an admin set): it admits that
    # game's cards only, so another game's "item" is not an item here.
    game = fmt.game if fmt.game is not None else Game.objects.filter(
        code=ENGINE_GAME).first()
    # Both names, not the reader's: the rules are kept across requests in either language
    # (decks.validation.services), and decks.problem_text names the format for its reader.
    return legality.Format(code=fmt.code, name=fmt.name, name_zh=_chinese_name(fmt),
                           hero_count=fmt.hero_count, deck_min=fmt.deck_min,
                           deck_max=fmt.deck_max,
                           deck_kinds=fmt.deck_kinds(), copy_limits=fmt.copy_limits(),
                           card_limits=limits, legal_sets=sets or None,
                           game=game.code if game is not None else ENGINE_GAME,
                           game_name=_data_form_pair(game) if game is not None
                           else (ENGINE_GAME, ""))


def cards_by_code(codes: Iterable[str]) -> dict[str, Card]:
    """The named cards with their set (one query); unknown codes are simply absent."""
    wanted = {c for c in codes if c}
    if not wanted:
        return {}
    # Only what legality and the deck pages read: no abilities, rules text or the set's
    # starter decks (JSON that would be decoded once per card).
    rows = (Card.objects.filter(code__in=wanted).select_related("card_set__game")
            .only(*INDEX_FIELDS, "card_set__code", "card_set__game__code").order_by())
    return {card.code: card for card in rows}


def set_of(cards: Mapping[str, Card]) -> dict[str, str]:
    return {code: card.card_set.code for code, card in cards.items()}


def game_of(cards: Mapping[str, Card]) -> dict[str, str]:
    """``{card code: game code}`` of rows from ``cards_by_code`` (a set without a game is this
    site's own game), so legality admits only the format's game's cards."""
    return {code: _game_code(card.card_set.game) for code, card in cards.items()}


def _game_code(game: Game | None) -> str:
    return game.code if game is not None else ENGINE_GAME


def catalogue_index() -> CardIndex:
    """Every card, for reading pasted lists by name (one query, only the needed columns)."""
    return CardIndex(Card.objects.only(*INDEX_FIELDS).order_by("code"))


def game_spec(game: Game) -> GameSpec:
    """The engine's view of a game: its kinds and rarity tiers in order (two queries)."""
    name_en, name_zh = _data_form_pair(game)
    return GameSpec(
        code=game.code, name_en=name_en, name_zh=name_zh, engine=game.engine,
        kinds=tuple(Named(k.code, *_data_form_pair(k)) for k in game.kinds.all()),
        rarities=tuple(Named(r.code, *_data_form_pair(r)) for r in game.rarities.all()))
