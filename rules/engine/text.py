"""Card rules text, generated from the ability data in each language that has a grammar.

Text is never written by hand: it is derived from the same data the engine runs, so what a
card says and what it does cannot disagree. A language's grammar is a module (``text_en``,
``text_zh``: one clause function per vocabulary term, its game words from the registries'
catalogues) naming its ``LANGUAGE`` as the catalogues do; this module is the public door. A
language without a grammar reads the English text (as a page reads a sentence gettext has no
translation for), a derived language (the pseudo-locale) derives its own from it.

Invariants: every function accepts an ability as written (data form) *or* already normalised
(the form ``CardDef.by_trigger`` holds) and gives the same text for both; the data must be
valid (``ability_language.validate_abilities``), since text is only made for cards the engine
accepts.
Free-form data values (faction and race codes) are shown through ``names``, else as the code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from rules.engine import text_en, text_zh
from rules.engine.ability_language import normalise_abilities, normalise_effects
from rules.engine.cards import CardDef
from rules.engine.text_base import Ctx, Data, as_data
from rules.localized import derived_text, is_derived_language, resolve_language


class Language(Protocol):
    """What each language module provides (``text_en``, ``text_zh``)."""

    LANGUAGE: str

    def ability(self, ab: Data, ctx: Ctx) -> str: ...
    def effects(self, items: Iterable[Data], ctx: Ctx) -> str: ...
    def keywords(self, codes: Iterable[str]) -> str: ...
    def sentence(self, clause: str) -> str: ...


GRAMMARS: tuple[Language, ...] = (text_en, text_zh)
LANGS: dict[str, Language] = {grammar.LANGUAGE: grammar for grammar in GRAMMARS}


def written_languages() -> tuple[str, ...]:
    """The languages with a grammar of their own, English first: the rules text a card keeps."""
    return tuple(LANGS)


def _language(lang: str) -> Language:
    """The grammar ``lang`` reads: its own, else English's."""
    return LANGS.get(resolve_language(lang), text_en)


def _in(lang: str, write: Callable[[Language], str]) -> str:
    """``write`` in ``lang``'s grammar; in a derived language, derived from the English."""
    if is_derived_language(lang):
        english = write(text_en)
        return derived_text(lang, english) or english
    return write(_language(lang))


def ability_text(ability: Mapping[str, Any], lang: str = "en",
                 names: Mapping[str, str] | None = None, *, kind: str | None = None) -> str:
    """One ability as one sentence: ``Awaken: Draw 2 cards.`` / ``唤醒技：抽2张卡。``

    ``kind`` is the card kind carrying it, when known: a hero's ``ally_dies`` reads "an allied
    minion", a minion's "another ally".
    """
    data = normalise_abilities([as_data(ability)])[0]
    ctx = Ctx(trigger=data["trigger"], kind=kind, names=names or {})
    return _in(lang, lambda grammar: grammar.ability(data, ctx))


def effect_text(effect: Mapping[str, Any], lang: str = "en",
                names: Mapping[str, str] | None = None, *, trigger: str = "awaken") -> str:
    """One effect on its own, as a sentence (for the vocabulary reference).

    ``trigger`` is the ability it would sit in: an aura's effects read "have" rather than "get".
    """
    data = normalise_effects([as_data(effect)])
    ctx = Ctx(trigger=trigger, names=names or {})
    return _in(lang, lambda grammar: grammar.sentence(grammar.effects(data, ctx)))


def keywords_text(keywords: Iterable[str], lang: str = "en") -> str:
    """The keyword line: ``Shield. Re-act.`` / ``护盾。再动。`` (empty without keywords)."""
    codes = tuple(keywords)
    return _in(lang, lambda grammar: grammar.keywords(codes))


def card_text(card: CardDef | Mapping[str, Any], lang: str = "en",
              names: Mapping[str, str] | None = None) -> str:
    """A card's whole rules text: the keyword line, then one line per ability, in order."""
    kind: str | None
    if isinstance(card, CardDef):
        kind, keywords, abilities = card.kind, card.keywords, card.abilities
    else:
        kind = card.get("kind")
        keywords = tuple(card.get("keywords") or ())
        abilities = tuple(card.get("abilities") or ())
    lines = [keywords_text(keywords, lang)] if keywords else []
    lines += [ability_text(a, lang, names, kind=kind) for a in abilities]
    return "\n".join(lines)
