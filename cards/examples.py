"""Query examples drawn from the catalogue as it is loaded, for the help pages.

A fixed example ("ember pup", ``f:dawn``) finds nothing once the set changes, so every example
here is built from the cards in the database: the commonest attribute, a faction that has
cards, a word that really occurs in a name or in the rules text. Each builder returns None
when the catalogue has nothing to show it with, so an example is left out rather than shown
finding nothing (tests run every example and check each finds a card).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from cards.declared_words import game_q
from cards.game_words import game_word
from cards.models import ENGINE_GAME, Card, Rarity
from common.language import (
    SOURCE_LANGUAGE,
    data_languages,
    language_name,
    localized_texts,
    reader_language,
)
from rules.engine.text import written_languages
from rules.localized import catalogue_languages

# Words of the rules text a search example may look for, in English; another language's are
# their translations (gettext, in that language).
RULES_WORDS = {
    "draw": pgettext_lazy("a word of the cards' rules text, searched for in an example", "draw"),
    "destroy": pgettext_lazy("a word of the cards' rules text, searched for in an example",
                             "destroy"),
    "heal": pgettext_lazy("a word of the cards' rules text, searched for in an example", "heal"),
    "damage": pgettext_lazy("a word of the cards' rules text, searched for in an example",
                            "damage"),
    "attack": pgettext_lazy("a word of the cards' rules text, searched for in an example",
                            "attack"),
    "summon": pgettext_lazy("a word of the cards' rules text, searched for in an example",
                            "summon"),
    "energy": pgettext_lazy("a word of the cards' rules text, searched for in an example",
                            "energy"),
}
RARITY_ORDER = [r.value for r in Rarity]


@dataclass(frozen=True)
class Example:
    query: str
    meaning: str


class Catalogue:
    """The facts examples are made of, read once from the loaded cards."""

    def __init__(self) -> None:
        self.cards = list(Card.objects.select_related("faction", "race", "card_set")
                          .order_by("code"))
        self.minions = [c for c in self.cards if c.kind == "minion"]
        self.heroes = [c for c in self.cards if c.kind == "hero"]
        self.items = [c for c in self.cards if c.kind == "item"]
        self.attributes = [a for a, _n in Counter(c.attribute for c in self.minions
                                                  if c.attribute).most_common()]

    def rarities(self) -> list[str]:
        """Rarities present, highest first."""
        present = {c.rarity for c in self.cards}
        return [r for r in reversed(RARITY_ORDER) if r in present]


def _attr(code: str) -> str:
    return game_word("attribute", code, prose=True)


def _keyword(code: str) -> str:
    return game_word("keyword", code)


def _median(values: list[int]) -> int:
    values = sorted(values)
    return values[len(values) // 2]


def _cheap_attribute_minions(cat: Catalogue) -> Example | None:
    if not cat.attributes:
        return None
    attr = cat.attributes[0]
    cost = _median([c.cost or 0 for c in cat.minions if c.attribute == attr])
    return Example(f"k:minion a:{attr} c<={cost}",
                   _("{attr} minions that cost {cost} or less").format(attr=_attr(attr), cost=cost))


def _top_rarities(cat: Catalogue) -> Example | None:
    top = cat.rarities()[:2]
    if len(top) < 2:
        return None
    return Example(f"r:{top[0]} or r:{top[1]}",
                   _("the two highest rarities in the set (also r>={low})").format(low=top[1]))


def _not_attribute(cat: Catalogue) -> Example | None:
    if not cat.attributes:
        return None
    attr = cat.attributes[-1]
    return Example(f"-a:{attr}", _("everything that is not {attr} (items, which have no "
                                   "attribute, included)").format(attr=_attr(attr)))


def _keyword_race(cat: Catalogue) -> Example | None:
    pairs = Counter((k, c.race.code) for c in cat.minions if c.race for k in c.keywords or [])
    races = {c.race.code: c.race for c in cat.minions if c.race}
    if pairs:
        (keyword, race), _n = pairs.most_common(1)[0]
        return Example(f"kw:{keyword} race:{race}",
                       _("{race} minions with {keyword}").format(
                           race=races[race].display_name, keyword=_keyword(keyword)))
    keywords = Counter(k for c in cat.minions for k in c.keywords or [])
    if keywords:
        keyword = keywords.most_common(1)[0][0]
        return Example(f"kw:{keyword}",
                       _("minions with {keyword}").format(keyword=_keyword(keyword)))
    return None


def _rules_words(lang: str) -> list[str]:
    """The rules-text words of the examples in ``lang``."""
    if lang == SOURCE_LANGUAGE:
        return list(RULES_WORDS)
    with translation.override(lang):
        return [str(word) for word in RULES_WORDS.values()]


def _rules_word(lang: str) -> Callable[[Catalogue], Example | None]:
    """A search of the rules text in ``lang`` for a word it really says: in English, then the
    same in each other language the rules text is written in."""
    def build(cat: Catalogue) -> Example | None:
        for word in _rules_words(lang):
            if any(word.casefold() in (c.texts or {}).get(lang, "").casefold()
                   for c in cat.cards):
                meaning = (_("cards whose rules text says “{word}”").format(word=word)
                           if lang == SOURCE_LANGUAGE else
                           _("the same in the rules text in {language}").format(
                               language=language_name(lang)))
                return Example(f'o:"{word}"', meaning)
        return None
    return build


def _big_heroes(cat: Catalogue) -> Example | None:
    if not cat.heroes:
        return None
    hp = _median([c.hp or 0 for c in cat.heroes])
    return Example(f"k:hero hp>={hp}", _("heroes with {hp} HP or more").format(hp=hp))


def _big_minions(cat: Catalogue) -> Example | None:
    if len(cat.attributes) < 2:
        return None
    a, b = cat.attributes[:2]
    attack = _median([c.attack or 0 for c in cat.minions if c.attribute in (a, b)])
    return Example(f"(a:{a} or a:{b}) atk>={attack}",
                   _("{a} or {b} minions with {attack} attack or more").format(
                       a=_attr(a), b=_attr(b), attack=attack))


def _rare_of_two(cat: Catalogue) -> Example | None:
    rarities = cat.rarities()
    if len(cat.attributes) < 2 or len(rarities) < 2:
        return None
    a, b = cat.attributes[:2]
    low = rarities[len(rarities) // 2]
    return Example(f"a:{a},{b} r>={low}",
                   _("{low} or rarer cards of {a} or {b}").format(low=low, a=_attr(a),
                                                                   b=_attr(b)))


def _faction(cat: Catalogue) -> Example | None:
    counts = Counter(c.faction.code for c in cat.cards if c.faction and c.kind != "item")
    if not counts:
        return None
    code = counts.most_common(1)[0][0]
    faction = next(c.faction for c in cat.cards if c.faction and c.faction.code == code)
    return Example(f"f:{code} -k:item",
                   _("heroes and minions of the {name} faction (by code or by name)")
                   .format(name=faction.display_name))


def _bare_word(cat: Catalogue) -> Example | None:
    words = Counter(w.casefold() for c in cat.minions for w in c.english_name.split()
                    if len(w) > 3 and w.isalpha())
    if not words:
        return None
    return Example(words.most_common(1)[0][0],
                   _("a bare word searches the names in every language"))


def _other_language_word(lang: str) -> Callable[[Catalogue], Example | None]:
    """A bare word of a card name in ``lang``, another language the names are written in: the
    last two characters of a name in a script without spaces, else its longest word."""
    def build(cat: Catalogue) -> Example | None:
        for card in cat.minions:
            name = localized_texts(card, "name").get(lang, "")
            words = [w for w in name.split() if len(w) > 3 and w.isalpha()]
            if " " not in name and len(name) >= 2 and not name.isascii():
                word = name[-2:]
            elif words:
                word = max(words, key=len).casefold()
            else:
                continue
            return Example(word, _("… in {language} too").format(language=language_name(lang)))
        return None
    return build


def _phrase(cat: Catalogue) -> Example | None:
    names = [c.english_name for c in cat.minions if " " in c.english_name]
    if not names:
        return None
    return Example(f'"{names[0].casefold()}"', _("quotes keep a phrase together"))


def _cheap_items(cat: Catalogue) -> Example | None:
    if not cat.items:
        return None
    cost = min(c.cost or 0 for c in cat.items)
    if cost == 0:
        return Example("k:item c=0", _("free items"))
    return Example(f"k:item c={cost}", _("the cheapest items ({cost} energy)").format(cost=cost))


def _builders() -> list[Callable[[Catalogue], Example | None]]:
    """The example builders in the order the help shows them: a search of the rules text in
    each language it is written in, a bare word of a name in each other language."""
    others = [lang for lang in data_languages() if lang != SOURCE_LANGUAGE]
    return [_cheap_attribute_minions, _top_rarities, _not_attribute, _keyword_race,
            *(_rules_word(lang) for lang in written_languages()),
            _big_heroes, _big_minions, _rare_of_two, _faction, _bare_word,
            *(_other_language_word(lang) for lang in others), _phrase, _cheap_items]


def query_examples() -> list[Example]:
    """Example queries for the help page, each one finding cards in the loaded catalogue; on a
    Chinese page spelt with the Chinese words the query language accepts."""
    cat = Catalogue()
    return [replace(example, query=localised_query(example.query))
            for build in _builders() if (example := build(cat)) is not None]


# Query fields whose values the query language also reads by their Chinese names.
LOCALISED_FIELDS = {"k": "kind", "a": "attribute", "kw": "keyword"}
QUERY_VALUE = re.compile(r"\b(k|a|kw):([a-z,\-]+)")


def _reader_types_names() -> str | None:
    """The reader's language when the query language reads its names of values (a language
    with a catalogue of its own, not English), else None."""
    lang = reader_language()
    return lang if lang != SOURCE_LANGUAGE and lang in catalogue_languages() else None


def localised_query(query: str) -> str:
    """``k:minion a:fire kw:shield`` as a reader would type it in their language on their page
    (``k:随从 a:火 kw:护盾``); unchanged on an English one. Both find the same cards."""
    lang = _reader_types_names()
    if lang is None:
        return query

    def spell(match: re.Match[str]) -> str:
        field, values = LOCALISED_FIELDS[match.group(1)], match.group(2).split(",")
        return f"{match.group(1)}:" + ",".join(game_word(field, v, lang=lang) for v in values)

    return QUERY_VALUE.sub(spell, query)


def field_examples() -> dict[str, str]:
    """An example per query field, with values from the loaded catalogue where the field's
    values are data (faction, race, set, name, code); the fixed fields keep their own."""
    card = (Card.objects.select_related("faction", "race", "card_set")
            .filter(kind="minion", faction__isnull=False, race__isnull=False)
            .order_by("code").first()) or Card.objects.select_related("card_set").first()
    if card is None:
        return {}
    out = {"set": f"s:{card.card_set.code}", "code": f"code:{card.code}"}
    by_name = _reader_types_names() is not None
    if card.faction:
        out["faction"] = f"f:{card.faction.display_name if by_name else card.faction.code}"
    if card.race:
        out["race"] = f"race:{card.race.display_name if by_name else card.race.code}"
    words = [w for w in card.english_name.split() if w.isalpha()]
    if by_name and card.display_name:
        out["name"] = f"n:{card.display_name}"
    elif words:
        out["name"] = f"n:{max(words, key=len).casefold()}"
    if by_name:
        out.update({"kind": localised_query("k:minion"), "attribute": localised_query("a:fire"),
                    "keyword": localised_query("kw:shield")})
    return out


@dataclass(frozen=True)
class ImportExamples:
    """Card names and codes for the import page's help, from the loaded catalogue: cards of
    the chosen format's game, so the help never shows another game's examples."""

    minion_en: str
    minion_zh: str
    minion_code: str
    hero_en: str
    minion_name: str = ""     # in the page's language
    hero_name: str = ""
    format_code: str = "standard"
    heroes_in_deck: bool = False
    """The format keeps its heroes among the deck's cards (``2x Ashen Duelist``, no Hero:)."""
    pile: str = ""
    """A pile besides the main list (``atlas``), for the ``Pile:`` example; "" when none."""


def import_examples(*, game: str = ENGINE_GAME, format_code: str = "standard",
                    hero_kinds: tuple[str, ...] = ("hero",),
                    card_kinds: tuple[str, ...] = ("minion",), heroes_in_deck: bool = False,
                    pile: str = "") -> ImportExamples | None:
    """Examples from the cards of ``game``: a card of ``card_kinds`` (the cheapest; empty:
    any kind) and one of ``hero_kinds``; None when the game has no such card loaded (a
    format whose heroes are in the deck may have no hero kind at all)."""
    cards = Card.objects.filter(game_q([game]))
    minion = (cards.filter(kind__in=card_kinds) if card_kinds else cards).order_by(
        "cost", "code").first()
    hero = cards.filter(kind__in=hero_kinds).order_by("code").first()
    if minion is None or (hero is None and not heroes_in_deck):
        return None
    return ImportExamples(minion_en=minion.english_name,
                          minion_zh=minion.name_zh or minion.english_name,
                          minion_code=minion.code, hero_en=hero.english_name if hero else "",
                          minion_name=minion.display_name,
                          hero_name=hero.display_name if hero else "",
                          format_code=format_code, heroes_in_deck=heroes_in_deck, pile=pile)
