"""Card rules text, generated from the ability data in English and Chinese.

Text is never written by hand: it is derived from the same data the engine runs, so what a
card says and what it does cannot disagree. The words live in ``text_en`` and ``text_zh``
(one clause function per vocabulary term in each); this module is the public door.

Invariants: every function accepts an ability as written (data form) *or* already normalised
(the form ``CardDef.by_trigger`` holds) and gives the same text for both; the data must be
valid (``ability_language.validate_abilities``), since text is only made for cards the engine
accepts.
Free-form data values (faction and race codes) are shown through ``names``, else as the code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from rules.engine import text_en, text_zh
from rules.engine.ability_language import normalise_abilities, normalise_effects
from rules.engine.cards import CardDef
from rules.engine.text_base import Ctx, Data, as_data, capitalise


class Language(Protocol):
    """What each language module provides (``text_en``, ``text_zh``)."""

    def ability(self, ab: Data, ctx: Ctx) -> str: ...
    def effects(self, items: Iterable[Data], ctx: Ctx) -> str: ...
    def keywords(self, codes: Iterable[str]) -> str: ...


LANGS: dict[str, Language] = {"en": text_en, "zh": text_zh}
MSG_LANG = "unknown language {lang!r} (known: {known})"


def _language(lang: str) -> Language:
    if lang not in LANGS:
        raise ValueError(MSG_LANG.format(lang=lang, known=", ".join(LANGS)))
    return LANGS[lang]


def ability_text(ability: Mapping[str, Any], lang: str = "en",
                 names: Mapping[str, str] | None = None, *, kind: str | None = None) -> str:
    """One ability as one sentence: ``Awaken: Draw 2 cards.`` / ``唤醒技：抽2张卡。``

    ``kind`` is the card kind carrying it, when known: a hero's ``ally_dies`` reads "an allied
    minion", a minion's "another ally".
    """
    module = _language(lang)
    data = normalise_abilities([as_data(ability)])[0]
    return module.ability(data, Ctx(trigger=data["trigger"], kind=kind, names=names or {}))


def effect_text(effect: Mapping[str, Any], lang: str = "en",
                names: Mapping[str, str] | None = None, *, trigger: str = "awaken") -> str:
    """One effect on its own, as a sentence (for the vocabulary reference).

    ``trigger`` is the ability it would sit in: an aura's effects read "have" rather than "get".
    """
    module = _language(lang)
    data = normalise_effects([as_data(effect)])
    clause = module.effects(data, Ctx(trigger=trigger, names=names or {}))
    return f"{capitalise(clause)}." if lang == "en" else f"{clause}。"


def keywords_text(keywords: Iterable[str], lang: str = "en") -> str:
    """The keyword line: ``Shield. Re-act.`` / ``护盾。再动。`` (empty without keywords)."""
    return _language(lang).keywords(keywords)


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
