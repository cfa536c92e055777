"""The fields of the query language: names and aliases, what values they take, how they
compare. The help page, the parser and the compiler all read this one registry.

Invariants: a ``Field.normalise`` either returns a canonical value (enum codes lower-case,
rarities upper-case, numbers as ints within range) or raises ``QuerySyntaxError`` pointing at
the value; the compiler never sees a value it cannot turn into a database lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from cards.declared_words import declared_spellings, game_spellings
from cards.game_words import game_word
from cards.models import CardKind, RarityTier
from cards.query.errors import (
    MSG_BAD_CHOICE,
    MSG_BAD_OPERATOR,
    MSG_NOT_NUMBER,
    MSG_NUMBER_RANGE,
    QuerySyntaxError,
)
from rules.engine.cards import ATTRIBUTES, KINDS, RARITIES
from rules.engine.keywords import KEYWORD_QUERY_WORDS, KEYWORDS
from rules.engine.words import ATTRIBUTE_WORDS, KIND_WORDS, Word

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

NUMBER_LIMIT = 999
# The query fields' names in messages, where they are not a card's printed field (those are
# the engine's words: ``cards.game_words``).
FIELD_NOUNS = {"kind": _("card kind"), "set": _("set"), "keyword": _("keyword"),
               "text": _("rules text"), "name": _("name"), "code": _("code"),
               "game": _("game")}
EQUALITY_OPS = (":", "=", "!=")
ORDER_OPS = (":", "=", "!=", "<", "<=", ">", ">=")

# A field's value once read: a number for the number fields, else a code or words.
Value = str | int


@dataclass(frozen=True)
class Field:
    name: str                    # canonical name (the AST and the compiler use it)
    aliases: tuple[str, ...]     # every spelling accepted before the operator, name included
    type: str                    # choice | number | rarity | ref | text | code
    doc: StrOrPromise            # translatable (a lazy string)
    example: str
    ops: tuple[str, ...] = EQUALITY_OPS
    choices: Sequence[str] = ()
    # Extra spellings of choices: {"re-act": "react", "火": "fire"}.
    synonyms: Mapping[str, str] = field(default_factory=dict)
    multi: bool = False          # comma-separated values mean "any of": a:fire,water
    # More choices read from the catalogue when a value is none of the above: the kinds and
    # rarity tiers other games declare, ``{spelling: code}`` (one query, only then).
    declared: Callable[[], Mapping[str, str]] | None = None
    listed: bool = False         # ``doc`` lists the field's words from their registry

    def normalise(self, raw: str, pos: int, query: str) -> tuple[Value, ...]:
        """The canonical value(s) of ``raw`` as a tuple (one item unless ``multi``)."""
        parts = raw.split(",") if self.multi else [raw]
        values: list[Value] = []
        offset = pos
        for part in parts:
            values.append(self._one(part, offset, query))
            offset += len(part) + 1
        return tuple(values)

    def _one(self, raw: str, pos: int, query: str) -> Value:
        if self.type == "number":
            return _number(self, raw, pos, query)
        if self.type in ("choice", "rarity"):
            key = raw.upper() if self.type == "rarity" else raw.lower()
            key = self.synonyms.get(key, self.synonyms.get(raw, key))
            if key in self.choices:
                return key
            declared = self.declared() if self.declared is not None else {}
            found = declared.get(raw.lower(), declared.get(raw))
            if found is not None:
                return found
            choices = [word_shown(self.name, code) if self.listed else code
                       for code in self.choices]
            choices += dict.fromkeys(declared.values())
            raise QuerySyntaxError(MSG_BAD_CHOICE.format(
                value=raw, name=self.doc_noun,
                choices=pgettext("list separator", ", ").join(choices)),
                pos, len(raw), query)
        return raw

    @property
    def doc_noun(self) -> str:
        if self.name in FIELD_NOUNS:
            return str(FIELD_NOUNS[self.name])
        return game_word("field", self.name, prose=self.name != "hp")

    @property
    def help(self) -> str:
        """The help page's line: ``doc`` with the registered words listed (``{words}``)."""
        return str(self.doc).format(words=word_list(self.name)) if self.listed else str(self.doc)

    def check_op(self, spelled: str, op: str, pos: int, query: str) -> None:
        if op not in self.ops:
            allowed = " or ".join(f"'{o}'" for o in self.ops)
            raise QuerySyntaxError(MSG_BAD_OPERATOR.format(field=spelled, op=op,
                                                           allowed=allowed), pos, len(op), query)


def _number(spec: Field, raw: str, pos: int, query: str) -> int:
    if not raw.isascii() or not raw.isdigit():
        raise QuerySyntaxError(MSG_NOT_NUMBER.format(value=raw, field=spec.doc_noun,
                                                     example=spec.example),
                               pos, len(raw), query)
    value = int(raw)
    if value > NUMBER_LIMIT:
        raise QuerySyntaxError(MSG_NUMBER_RANGE.format(value=raw, field=spec.doc_noun,
                                                       limit=NUMBER_LIMIT),
                               pos, len(raw), query)
    return value


def _declared_kinds() -> Mapping[str, str]:
    return declared_spellings(CardKind)


def _declared_rarities() -> Mapping[str, str]:
    return declared_spellings(RarityTier)


def _declared_games() -> Mapping[str, str]:
    return game_spellings()


def word_list(field: str) -> str:
    """The codes a field takes, each with its name in the page's language where that reads
    differently ("shield, react (Re-act), regenerate"; "护盾 (shield), 再动 (react)…")."""
    return pgettext("list separator", ", ").join(word_shown(field, code)
                                                for code in FIELDS[field].choices)


def word_shown(field: str, code: str) -> str:
    """A code the field takes, with its name in the page's language where that reads
    differently ("react (Re-act)", "fire (火)")."""
    name = game_word(field, code)
    return code if name.lower() == code else f"{code} ({name})"


def _names_in_other_languages(words: Mapping[str, Word]) -> dict[str, str]:
    """``{name: code}`` for every language the catalogues hold: the query language reads values
    by their names in any of them (k:地标)."""
    return {name: word.code for word in words.values()
            for name in word.localized.in_every_language().values() if name != word.name_en}


FIELD_LIST = (
    Field("kind", ("k", "kind", "t", "type"), "choice",
          _("card kind: {words}, or a kind another game declares, by code or by English or "
            "Chinese name (k:site, k:地标)"),
          "k:minion", choices=KINDS, synonyms=_names_in_other_languages(KIND_WORDS), multi=True,
          declared=_declared_kinds, listed=True),
    Field("attribute", ("a", "attr", "attribute"), "choice",
          _("attribute, by code or by English or Chinese name: {words}"), "a:fire",
          choices=ATTRIBUTES, synonyms=_names_in_other_languages(ATTRIBUTE_WORDS), multi=True,
          listed=True),
    Field("rarity", ("r", "rarity"), "rarity",
          _("rarity, N < R < SR < SSR < UR, or a tier another game declares (in its order: "
            "r>=elite); compare with < <= > >="), "r>=SR",
          ops=ORDER_OPS, choices=RARITIES, multi=True, declared=_declared_rarities),
    Field("cost", ("c", "cost", "e", "energy"), "number", _("energy cost (minions and items)"),
          "c<=3", ops=ORDER_OPS),
    Field("attack", ("atk", "attack", "p", "power"), "number", _("attack (minions)"), "atk>=4",
          ops=ORDER_OPS),
    Field("hp", ("hp", "h"), "number", _("HP (heroes)"), "hp>=20", ops=ORDER_OPS),
    Field("faction", ("f", "faction"), "ref", _("faction, by code or by English or Chinese name"),
          "f:dawn"),
    Field("race", ("race", "rc"), "ref", _("race, by code or by English or Chinese name"),
          "race:dragon"),
    Field("set", ("s", "set"), "ref", _("card set code"), "s:core"),
    # Choices and spellings are the keyword registry's live views: a keyword registered in
    # ``rules.engine.keywords`` is searchable by its code, its names and its synonyms.
    Field("keyword", ("kw", "keyword"), "choice",
          _("printed keyword, by code or by English or Chinese name: {words}"), "kw:shield",
          choices=KEYWORDS, synonyms=KEYWORD_QUERY_WORDS, multi=True, listed=True),
    Field("text", ("o", "text", "oracle"), "text",
          _("words in the generated rules text, English or Chinese"), 'o:"draw"'),
    Field("name", ("n", "name"), "text", _("words in the English or Chinese name"), "n:pup"),
    Field("code", ("code", "id"), "code", _("the card's code, exactly"), "code:T-M01"),
    Field("game", ("g", "game"), "choice",
          _("the card's game, by code or by English or Chinese name (g:cardlab, g:sorcery, "
            "g:斗巫师)"), "g:cardlab", multi=True, declared=_declared_games),
)
FIELDS: dict[str, Field] = {f.name: f for f in FIELD_LIST}
ALIASES: dict[str, Field] = {alias: f for f in FIELD_LIST for alias in f.aliases}
