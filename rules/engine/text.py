"""Card rules text, generated from the ability data in every language that writes it.

Text is never written by hand: it is derived from the same data the engine runs, so what a
card says and what it does cannot disagree. English, the source, has a grammar of its own
(``text_en``: one clause function per vocabulary term); every other language writes its rules
text from the templates of its catalogue (``text_templates``: ``rules/locale/<code>.json``'s
``text.*`` keys, data), so a language is added with its catalogue alone. This module is the
public door. A language whose catalogue has no templates reads the English text (as a page
reads a sentence gettext has no translation for), a derived language (the pseudo-locale)
derives its own from it.

Invariants: every function accepts an ability as written (data form) *or* already normalised
(the form ``CardDef.by_trigger`` holds) and gives the same text for both; the data must be
valid (``ability_language.validate_abilities``), since text is only made for cards the engine
accepts.
Free-form data values (faction and race codes) are shown through ``names``, else as the code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from rules.engine import text_en, text_templates
from rules.engine.ability_language import normalise_abilities, normalise_effects
from rules.engine.cards import CardDef
from rules.engine.text_base import Ctx, Data, as_data
from rules.localized import (
    catalogue_languages,
    derived_text,
    is_derived_language,
    resolve_language,
)


class Language(Protocol):
    """What a grammar provides (``text_en``, ``text_templates``); ``ctx.lang`` is the language
    it writes."""

    def ability(self, ab: Data, ctx: Ctx) -> str: ...
    def effects(self, items: Iterable[Data], ctx: Ctx) -> str: ...
    def keywords(self, codes: Iterable[str], ctx: Ctx) -> str: ...
    def sentence(self, clause: str, ctx: Ctx) -> str: ...


def written_languages() -> tuple[str, ...]:
    """The languages the rules text is written in, English first: the rules text a card
    keeps (English's grammar, and every catalogue with the templates)."""
    return (text_en.LANGUAGE, *(lang for lang in catalogue_languages()
                                if lang != text_en.LANGUAGE
                                and text_templates.writes_rules_text(lang)))


def _grammar(lang: str) -> tuple[Language, str]:
    """The grammar ``lang`` reads and the language it writes: the templates of its catalogue,
    else English's."""
    code = resolve_language(lang)
    if code != text_en.LANGUAGE and text_templates.writes_rules_text(code):
        return text_templates, code
    return text_en, text_en.LANGUAGE


def _in(lang: str, write: Callable[[Language, str], str]) -> str:
    """``write`` in ``lang``'s grammar; in a derived language, derived from the English."""
    if is_derived_language(lang):
        english = write(text_en, text_en.LANGUAGE)
        return derived_text(lang, english) or english
    grammar, code = _grammar(lang)
    return write(grammar, code)


def ability_text(ability: Mapping[str, Any], lang: str = "en",
                 names: Mapping[str, str] | None = None, *, kind: str | None = None) -> str:
    """One ability as one sentence: ``Awaken: Draw 2 cards.`` / ``唤醒技：抽2张卡。``

    ``kind`` is the card kind carrying it, when known: a hero's ``ally_dies`` reads "an allied
    minion", a minion's "another ally".
    """
    data = normalise_abilities([as_data(ability)])[0]
    return _in(lang, lambda grammar, code: grammar.ability(
        data, Ctx(trigger=data["trigger"], kind=kind, names=names or {}, lang=code)))


def effect_text(effect: Mapping[str, Any], lang: str = "en",
                names: Mapping[str, str] | None = None, *, trigger: str = "awaken") -> str:
    """One effect on its own, as a sentence (for the vocabulary reference).

    ``trigger`` is the ability it would sit in: an aura's effects read "have" rather than "get".
    """
    data = normalise_effects([as_data(effect)])

    def write(grammar: Language, code: str) -> str:
        ctx = Ctx(trigger=trigger, names=names or {}, lang=code)
        return grammar.sentence(grammar.effects(data, ctx), ctx)

    return _in(lang, write)


def keywords_text(keywords: Iterable[str], lang: str = "en") -> str:
    """The keyword line: ``Shield. Re-act.`` / ``护盾。再动。`` (empty without keywords)."""
    codes = tuple(keywords)
    return _in(lang, lambda grammar, code: grammar.keywords(codes, Ctx(trigger="", lang=code)))


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
