"""The card kinds and rarity tiers the games declare, as the catalogue's filters, the query
language and the card admin read them.

This site's own game keeps the model's choices (``Kind``, ``Rarity``: the engine's); every
other game adds the kinds and tiers it declares (``CardKind``, ``RarityTier``), in its order,
named in both languages. A code two games share (``minion``) is one choice: it finds the cards
of both, and the game filter tells them apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.db.models import Q

from cards.models import ENGINE_GAME, CardKind, Game, Kind, Rarity, RarityTier
from common.language import in_english, localized_texts, localized_value, reader_language


@dataclass(frozen=True)
class DeclaredWord:
    game_id: int
    code: str
    names: Mapping[str, str]   # {language code: text}, as the row keeps them
    order: int

    def name(self, lang: str) -> str:
        return localized_value(self, "name", lang)


def declared_words_of(model: type[CardKind] | type[RarityTier], game: Game | None = None,
                   ) -> list[DeclaredWord]:
    """The kinds or rarity tiers other games declare (one query), in game and declared order;
    only ``game``'s when given."""
    rows = model.objects.exclude(game__engine=True).exclude(game__code=ENGINE_GAME)
    if game is not None:
        rows = rows.filter(game=game)
    return [DeclaredWord(r.game_id, r.code, dict(r.names), r.order)
            for r in rows.order_by(in_english(path="game__"), "order", "code")]


def _choices(base: list[tuple[str, str]], declared: list[DeclaredWord],
             ) -> list[tuple[str, str]]:
    lang = reader_language()
    out = [(str(code), str(label)) for code, label in base]
    seen = {code for code, _label in out}
    for entry in declared:
        if entry.code not in seen:
            seen.add(entry.code)
            out.append((entry.code, entry.name(lang)))
    return out


def kind_choices() -> list[tuple[str, str]]:
    """(code, name in the page's language) of every card kind: this game's, then the other
    games' (a callable for forms and filters, read when asked)."""
    return _choices(list(Kind.choices), declared_words_of(CardKind))


def rarity_choices() -> list[tuple[str, str]]:
    """(code, name) of every rarity: this game's N…UR, then the other games' tiers."""
    return _choices(list(Rarity.choices), declared_words_of(RarityTier))


def declared_spellings(model: type[CardKind] | type[RarityTier]) -> dict[str, str]:
    """``{spelling: code}`` of the other games' kinds or tiers: the code and the name in every
    language, in lower case (``site``, ``地标`` → ``site``)."""
    spellings: dict[str, str] = {}
    for entry in declared_words_of(model):
        for word in (entry.code.lower(), *_names_lower(entry)):
            if word:
                spellings.setdefault(word, entry.code)
    return spellings


def _names_lower(row: object) -> list[str]:
    """A row's names in every language, in lower case, English first."""
    return [text.lower() for text in localized_texts(row, "name").values()]


def game_spellings() -> dict[str, str]:
    """``{spelling: game code}`` of every game: the code and the name in every language in
    lower case, and each name's first word (``斗巫师 TCG`` → ``斗巫师``)."""
    spellings: dict[str, str] = {}
    for game in Game.objects.all():
        for word in (game.code.lower(), *_names_lower(game)):
            if word:
                spellings.setdefault(word, game.code)
                spellings.setdefault(word.split()[0].rstrip(":"), game.code)
    return spellings


def game_choices() -> list[tuple[str, str]]:
    """(code, name in the page's language) of every game in the catalogue."""
    return [(g.code, g.display_name) for g in Game.objects.all()]


def game_q(codes: list[str]) -> Q:
    """The cards of any of these games; this site's own game includes the sets with no game."""
    engine = Game.objects.filter(code__in=codes, engine=True).exists() or ENGINE_GAME in codes
    q = Q(card_set__game__code__in=codes)
    return q | Q(card_set__game__isnull=True) if engine else q


def rarity_order_q(op_test: Callable[[int, int], bool], value: str) -> Q:
    """The cards of another game's rarity tier ``value`` compared by its game's order: for
    each game declaring ``value``, its tiers ``t`` with ``op_test(rank(t), rank(value))``."""
    by_game: dict[int, list[DeclaredWord]] = {}
    for tier in declared_words_of(RarityTier):
        by_game.setdefault(tier.game_id, []).append(tier)
    q = Q(pk__in=[])
    for game_id, tiers in by_game.items():
        ranks = {t.code: i for i, t in enumerate(tiers)}
        if value not in ranks:
            continue
        wanted = [t.code for t in tiers if op_test(ranks[t.code], ranks[value])]
        q |= Q(card_set__game_id=game_id, rarity__in=wanted)
    return q
