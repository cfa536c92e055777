"""The JSON deck file: the site's full export, and a loose reader for hand-written files.

Written shape (``cardlab_deck`` is the file version)::

    {"cardlab_deck": 1, "name": "Ember Rush", "format": "standard",
     "hero": {"code": "T-H01", "name": "Flame Warden", "name_zh": "炎之守望者"},
     "cards": [{"code": "T-M01", "count": 3, "name": "Ember Pup", "name_zh": "余烬幼犬",
                "kind": "minion"}]}

A deck in piles (a format in piles) adds ``"piles": {"atlas": [entries as in "cards"]}``
beside ``"cards"`` (the main list); a deck without them writes no ``"piles"``.

Read: the same, or ``"hero": "T-H01"``, ``"heroes": [...]``, ``"cards": {"T-M01": 3}``, and
card entries naming a card by ``code`` or ``name`` (``count`` defaults to 1). Every problem
is reported with its path (``cards[2].count``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy

from common.language import data_form_names
from decks.codecs.base import (
    DEFAULT_LIMITS,
    PILE_NAME,
    TOO_MANY_COPIES,
    DeckImportError,
    ImportedDeck,
    ImportLimits,
    ImportProblem,
    check_heroes,
    check_name,
    check_total,
    clean_name,
    finish,
    merged,
    pile_code,
    storable,
)
from decks.codecs.index import CardIndex
from rules.decks.legality import Deck
from rules.decks.piles import MAIN_PILE

VERSION = 1
NOT_JSON = gettext_lazy(
    "This is not valid JSON ({detail}); export the deck again or paste it as text."
)
TOO_DEEP = gettext_lazy("lists and objects nested too deeply")
NOT_OBJECT = gettext_lazy('A JSON deck is an object with "hero" and "cards".')
NEWER_VERSION = gettext_lazy(
    "This file is deck format version {version}; this site reads version {known}."
)
BAD_CARDS = gettext_lazy(
    '"cards" must be a list of {"code": ..., "count": ...} or an object {code: count}.'
)
BAD_PILES = gettext_lazy('"piles" must be an object {pile: cards}, e.g. {"atlas": {"SC-T01": 4}}.')
BAD_ENTRY = gettext_lazy('must be an object with a "code" (or "name") and a "count".')
BAD_COUNT = gettext_lazy("must be a whole number from 1 to {limit}.")
BAD_REF = gettext_lazy("must be a card code or name (a string).")
UNKNOWN = gettext_lazy("no card has the code or name {name!r}.")
AMBIGUOUS = gettext_lazy("{name!r} could be {options}: use the code.")


def export_json(deck: Deck, index: CardIndex, *, format_code: str | None = None) -> str:
    def ref(code: str) -> dict[str, Any]:
        card = index.get(code)
        out: dict[str, Any] = {"code": code}
        if card is not None:
            # The file's format: the English name and the Chinese one, from the card's names.
            names = data_form_names(card)
            out.update(name=storable(names["name_en"]), name_zh=storable(names["name_zh"]))
        return out

    data: dict[str, Any] = {"cardlab_deck": VERSION, "name": clean_name(deck.name),
                            "format": format_code}
    if len(deck.heroes) == 1:
        data["hero"] = ref(deck.heroes[0])
    else:
        data["heroes"] = [ref(h) for h in deck.heroes]
    cards = []
    for code, count in sorted(deck.counts.items()):
        entry = {**ref(code), "count": count}
        card = index.get(code)
        if card is not None:
            entry["kind"] = card.kind
        cards.append(entry)
    data["cards"] = cards
    piles = {name: _entries(counts, index, ref) for name, counts in sorted(deck.piles.items())
             if counts}
    if piles:
        data["piles"] = piles
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _entries(counts: Mapping[str, int], index: CardIndex,
             ref: Callable[[str], dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for code, count in sorted(counts.items()):
        entry = {**ref(code), "count": count}
        card = index.get(code)
        if card is not None:
            entry["kind"] = card.kind
        out.append(entry)
    return out


def parse_json(text: str, index: CardIndex, limits: ImportLimits = DEFAULT_LIMITS
               ) -> ImportedDeck:
    """Read a JSON deck (``import_deck`` has checked its size and characters)."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise DeckImportError(NOT_JSON.format(detail=TOO_DEEP)) from None
    except json.JSONDecodeError as exc:
        raise DeckImportError(ImportProblem(NOT_JSON.format(detail=exc.msg[:80]),
                                            line=exc.lineno, column=exc.colno)) from None
    except ValueError as exc:  # e.g. a number too long to convert
        raise DeckImportError(NOT_JSON.format(detail=str(exc)[:80])) from None
    if not isinstance(data, Mapping):
        raise DeckImportError(NOT_OBJECT)
    version = data.get("cardlab_deck", VERSION)
    if version != VERSION:
        raise DeckImportError(NEWER_VERSION.format(version=str(version)[:10], known=VERSION))
    problems: list[ImportProblem] = []
    name = ""
    if data.get("name") is not None:
        if isinstance(data["name"], str):
            name, found = check_name(data["name"], limits, where="name")
            problems += found
        else:
            problems.append(ImportProblem("must be a string.", where="name"))
    format_code = data.get("format")
    format_code = clean_name(format_code, 40) or None if isinstance(format_code, str) else None
    heroes = _heroes(data, index, problems)
    problems += check_heroes(heroes, [None] * len(heroes), [index.display(h) for h in heroes],
                             limits, where="heroes")
    counts = _cards(data.get("cards"), index, limits, problems)
    piles: dict[str, dict[str, int]] = {}
    raw_piles = data.get("piles")
    if raw_piles is not None and not isinstance(raw_piles, Mapping):
        problems.append(ImportProblem(BAD_PILES, where="piles"))
    for key, raw in (raw_piles.items() if isinstance(raw_piles, Mapping) else ()):
        pile = pile_code(key) if isinstance(key, str) else None
        where = f"piles.{str(key)[:40]}"
        if pile is None:
            problems.append(ImportProblem(PILE_NAME.format(name=str(key)[:40]), where=where))
            continue
        pile_counts = _cards(raw, index, limits, problems, where=where)
        into = counts if pile == MAIN_PILE else piles.setdefault(pile, {})
        for code, n in pile_counts.items():
            into[code] = into.get(code, 0) + n
    piles = {k: v for k, v in piles.items() if v}
    finish(problems, limits)
    check_total(merged(counts, piles), heroes, limits)
    return ImportedDeck(Deck(heroes=tuple(heroes), counts=counts, name=name, piles=piles),
                        format_code, "json")


def _resolve(value: Any, where: str, index: CardIndex,
             problems: list[ImportProblem]) -> str | None:
    if isinstance(value, Mapping):
        value = value.get("code") if value.get("code") is not None else value.get("name")
    if not isinstance(value, str) or not value.strip():
        problems.append(ImportProblem(BAD_REF, where=where))
        return None
    found = index.lookup(value)
    if found.code is None:
        if found.ambiguous:
            options = ", ".join(f"{index.display(c)} ({c})" for c in found.ambiguous)
            problems.append(ImportProblem(AMBIGUOUS.format(name=value[:60], options=options),
                                          where=where))
        else:
            problems.append(ImportProblem(UNKNOWN.format(name=value[:60]), where=where,
                                          suggestions=index.suggest(value[:60])))
    return found.code


def _heroes(data: Mapping[str, Any], index: CardIndex,
            problems: list[ImportProblem]) -> list[str]:
    raw = data.get("heroes")
    if raw is None:
        raw = [] if data.get("hero") is None else [data["hero"]]
        wheres = ["hero"]
    elif isinstance(raw, list):
        wheres = [f"heroes[{i}]" for i in range(len(raw))]
    else:
        problems.append(ImportProblem("must be a list of cards.", where="heroes"))
        return []
    out = []
    for value, where in zip(raw, wheres, strict=False):
        code = _resolve(value, where, index, problems)
        if code is not None:
            out.append(code)
    return out


def _cards(raw: Any, index: CardIndex, limits: ImportLimits,
           problems: list[ImportProblem], where: str = "cards") -> dict[str, int]:
    root = where
    if raw is None:
        return {}
    if isinstance(raw, Mapping):
        entries: list[tuple[str, Any, Any]] = [(f"{root}.{k}"[:60], k, v)
                                               for k, v in raw.items()]
    elif isinstance(raw, list):
        entries = [(f"{root}[{i}]", item, item.get("count", 1) if isinstance(item, Mapping)
                    else None) for i, item in enumerate(raw)]
    else:
        problems.append(ImportProblem(BAD_CARDS, where=root))
        return {}
    counts: dict[str, int] = {}
    for where, ref, count in entries:
        if isinstance(raw, list) and not isinstance(ref, Mapping):
            problems.append(ImportProblem(BAD_ENTRY, where=where))
            continue
        code = _resolve(ref, where, index, problems)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            problems.append(ImportProblem(BAD_COUNT.format(limit=limits.max_copies),
                                          where=f"{where}.count"))
        elif count > limits.max_copies:
            problems.append(ImportProblem(TOO_MANY_COPIES.format(
                count=count, name=index.display(code or "?"), limit=limits.max_copies),
                where=f"{where}.count"))
        elif code is not None:
            counts[code] = counts.get(code, 0) + count
    return counts
