"""The plain-text deck list: what people paste, and what the site writes for them.

Reading is forgiving. Each line is one of:

- blank, or a comment starting with ``#`` or ``//``;
- a section heading such as ``Deck``, ``Minions (12)``, ``Items:`` or ``随从（12）`` (unless
  it is a card's name);
- a header ``Deck: <name>``, ``Format: <code>`` or ``Hero: <card>`` (also ``Name:``, and the
  Chinese ``卡组：``, ``赛制：``, ``英雄：``);
- a pile header ``Pile: <code>`` (``牌堆：``): the card lines after it go to that pile (a
  format in piles, e.g. ``Pile: atlas``) until the next one; ``Pile: deck`` is the main list;
- a card with a count: ``3x Ember Pup``, ``3 x Ember Pup``, ``Ember Pup x3``, ``3 Ember Pup``,
  ``3张 余烬幼犬``, or no count (one copy); the card is a code, an English or a Chinese name.

Lines are read after Unicode NFKC, so full-width digits and letters work; CRLF works; repeated
lines add up; without a ``Hero:`` line, a hero card on a card line becomes the hero (the kind
the list's format puts beside the deck: Sorcery's avatar), and outside a ``Pile:`` a card goes
to the pile its format keeps its kind in (a Sorcery site to the atlas). Card codes
win over names; a line whose whole text is a card's name wins over reading a count out of it
(a card called "3 Headed Dog" stays one card).

Writing: ``Deck:``, ``Format:`` and ``Hero:`` headers, then ``3x Name`` lines grouped under
comment headings. Each written line is checked by reading it back; a name that would read as
another card is written as the card's code instead, so the text always re-imports exactly.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy, pgettext_lazy

from cards.game_words import game_word
from decks.codecs.base import (
    DEFAULT_LIMITS,
    DEFAULT_PLACING,
    PILE_NAME,
    TOO_MANY_COPIES,
    ZERO_COPIES,
    ImportedDeck,
    ImportLimits,
    ImportProblem,
    Placing,
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

UNKNOWN_CARD = gettext_lazy("No card is called {name!r}.")
AMBIGUOUS_CARD = gettext_lazy("{name!r} could be {options}: write the card's code instead.")

# A header line: a word, a colon (or a full-width one), its value.
HEADER = re.compile(r"^\s*([^\s:：]+)\s*[:：]\s*(.*)$")
# The header words the reader knows besides the ones the site writes in each of its languages
# (``HEADER_WORDS``): other sites' spellings.
HEADER_KEYS = {"hero": "hero", "deck": "name", "name": "name", "format": "format",
               "pile": "pile", "名称": "name"}
# The header words the list is written with, in the reader's language.
HEADER_WORDS = {
    "name": pgettext_lazy("a deck list's header: the deck's name follows", "Deck"),
    "format": pgettext_lazy("a deck list's header: the format's code follows", "Format"),
    "hero": pgettext_lazy("a deck list's header: the hero card follows", "Hero"),
    "pile": pgettext_lazy("a deck list's header: a pile's code follows", "Pile"),
}
HEADER_COLON = pgettext_lazy("between a deck list's header and its value", ": ")
OTHER_CARDS = pgettext_lazy("a deck list's heading over the cards of no kind above", "Other cards")
# (count group, name group) patterns, tried in order after the whole line.
COUNTED = [
    re.compile(r"^([0-9]+)\s*[x×*]\s*(.+)$", re.IGNORECASE),
    re.compile(r"^([0-9]+)\s*[张枚]\s*(.+)$"),
    re.compile(r"^([0-9]+)\s+(.+)$"),
    re.compile(r"^(.+?)\s*[x×*]\s*([0-9]+)$", re.IGNORECASE),
    re.compile(r"^(.+?)\s*[x×*]?\s*([0-9]+)\s*[张枚]$", re.IGNORECASE),
]
NAME_FIRST = {3, 4}  # patterns whose first group is the name
# Headings other sites and our own export put above groups of cards, with or without a count.
SECTION = re.compile(
    r"^(?:deck|main deck|decklist|deck list|cards?|heroe?s?|minions?|items?|other cards|"
    r"卡组|卡牌|英雄|随从|物品|道具|其他卡牌)\s*(?:[(\[]\s*[0-9]+\s*[)\]])?\s*[:]?$",
    re.IGNORECASE)


def _candidates(line: str) -> Iterator[tuple[int, str, str]]:
    """``(count, name, digits)`` readings of a card line, most literal first."""
    yield 1, line, "1"
    for number, pattern in enumerate(COUNTED):
        match = pattern.match(line)
        if match:
            digits, name = match.group(1), match.group(2)
            if number in NAME_FIRST:
                digits, name = name, digits
            # Over six digits is never a real count; keep int() far from huge numbers.
            yield (int(digits) if len(digits) <= 6 else 10 ** 6), name.strip(), digits


def read_card_line(line: str, index: CardIndex) -> tuple[int, str | None, str, tuple[str, ...]]:
    """``(count, code or None, name as written, ambiguous codes)`` for one card line.

    Every reading is first tried as a card code, then every reading as a name: codes are
    exact identifiers, so ``3x T-M01`` means three T-M01 whatever the cards are called.
    """
    readings = list(_candidates(line))
    ambiguous: tuple[str, ...] = ()
    for lookup in (index.lookup_code, index.lookup_name):
        for count, name, _ in readings:
            found = lookup(name)
            if found.code is not None:
                return count, found.code, name, ()
            ambiguous = ambiguous or (found.ambiguous if lookup == index.lookup_name else ())
    # Nothing matched: report the name as the first count-reading saw it.
    count, name, _ = readings[1] if len(readings) > 1 else readings[0]
    return count, None, name, ambiguous


def _prepare(raw: str) -> str:
    return unicodedata.normalize("NFKC", raw.replace("\ufeff", "")).strip()


def _header(raw: str) -> tuple[str, str] | None:
    """``(key, value)`` of a header line, the value as written (names keep their width)."""
    if raw.lstrip().startswith(("#", "//")):
        return None
    match = HEADER.match(_prepare(raw))
    key = _header_keys().get(match.group(1).lower()) if match is not None else None
    if match is None or key is None:
        return None
    as_written = HEADER.match(raw)
    value = as_written.group(2) if as_written else match.group(2)
    return key, value


@cache
def _header_keys() -> dict[str, str]:
    """Every header word the reader knows: other sites' and the site's own in each of its
    languages, so a list written from any page re-imports anywhere."""
    keys = dict(HEADER_KEYS)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            keys.update({str(word).lower(): key for key, word in HEADER_WORDS.items()})
    return keys


def parse_text(text: str, index: CardIndex, limits: ImportLimits = DEFAULT_LIMITS
               ) -> ImportedDeck:
    """Read a pasted deck list; raises DeckImportError naming every bad line. ``import_deck``
    has checked its size and characters."""
    lines = text.splitlines()
    headers = [_header(raw) for raw in lines]
    # With a Hero: line the hero is explicit; without one, a hero card on a card line is it,
    # unless the list's format keeps its heroes in the deck.
    explicit_hero = any(h is not None and h[0] == "hero" for h in headers)
    named = [clean_name(h[1], 40) for h in headers if h is not None and h[0] == "format"]
    list_format = (named[-1] if named else "") or limits.default_format
    placing = _placing(list_format, limits)
    if explicit_hero or list_format in limits.heroes_in_deck:
        placing = replace(placing, hero_kinds=frozenset())
    problems: list[ImportProblem] = []
    heroes: list[str] = []
    hero_lines: list[int | None] = []
    counts: dict[str, int] = {}
    piles: dict[str, dict[str, int]] = {}
    into = counts
    name, format_code, format_line = "", None, None
    for number, (raw, header) in enumerate(zip(lines, headers, strict=True), start=1):
        if header is not None:
            key, value = header
            if key == "pile":
                pile = pile_code(value)
                if pile is None:
                    problems.append(ImportProblem(PILE_NAME.format(name=value.strip()[:40]),
                                                  line=number))
                    into = {}
                else:
                    into = counts if pile == MAIN_PILE else piles.setdefault(pile, {})
                continue
            if key == "name":
                name, found = check_name(value, limits, line=number)
                problems += found
                continue
            if key == "format":
                format_code, format_line = clean_name(value, 40) or None, number
                continue
            line = _prepare(value)
        else:
            line = _prepare(raw)
            if line.startswith(("#", "//")) or _is_section(line, index):
                continue
        if line:
            problems += _read_entry(line, number, index, limits, heroes, into,
                                    as_hero=header is not None,
                                    placing=placing if into is counts else None, piles=piles)
            hero_lines += [number] * (len(heroes) - len(hero_lines))
    problems += check_heroes(heroes, hero_lines, [index.display(h) for h in heroes], limits)
    problems.sort(key=lambda p: p.line or 0)
    finish(problems, limits)
    piles = {k: v for k, v in piles.items() if v}
    check_total(merged(counts, piles), heroes, limits)
    return ImportedDeck(Deck(heroes=tuple(heroes), counts=counts, name=name, piles=piles),
                        format_code, "text", format_line=format_line)


def _is_section(line: str, index: CardIndex) -> bool:
    """A heading line (not a card that happens to be called "Items")."""
    return SECTION.match(line) is not None and index.lookup(line.rstrip(":")).code is None


def _placing(list_format: str | None, limits: ImportLimits) -> Placing:
    """How the list's format places its cards (matched as ``_import_format`` matches a
    format: its code in any case); this game's way for a format the site does not know."""
    if list_format:
        for code, placing in limits.placing.items():
            if code.casefold() == list_format.casefold():
                return placing
    return DEFAULT_PLACING


def _read_entry(line: str, number: int, index: CardIndex, limits: ImportLimits,
                heroes: list[str], counts: dict[str, int], *, as_hero: bool,
                placing: Placing | None, piles: dict[str, dict[str, int]]
                ) -> list[ImportProblem]:
    """Read one card line into the hero, ``counts`` or, with ``placing`` (a line of the main
    list), the hero or the pile the card's kind goes to."""
    count, code, written, ambiguous = read_card_line(line, index)
    if code is None:
        if ambiguous:
            options = ", ".join(f"{index.display(c)} ({c})" for c in ambiguous)
            return [ImportProblem(AMBIGUOUS_CARD.format(name=written, options=options),
                                  line=number)]
        among = placing.cards if placing is not None else None
        return [ImportProblem(UNKNOWN_CARD.format(name=written), line=number,
                              suggestions=index.suggest(written, among=among),
                              written=written)]
    label = index.display(code)
    if count < 1:
        return [ImportProblem(ZERO_COPIES.format(name=label), line=number)]
    if count > limits.max_copies:
        return [ImportProblem(TOO_MANY_COPIES.format(count=count, name=label,
                                                     limit=limits.max_copies), line=number)]
    kind = getattr(index.get(code), "kind", None)
    if as_hero or (placing is not None and kind in placing.hero_kinds):
        heroes.extend([code] * count)
        return []
    pile = placing.kind_piles.get(kind or "") if placing is not None else None
    into = piles.setdefault(pile, {}) if pile else counts
    into[code] = into.get(code, 0) + count
    return []


def _label(code: str, count: int, index: CardIndex, as_hero: bool) -> str:
    """The card's name if it reads back as this card, else its code."""
    for label in (index.display(code), code):
        if not label or label != " ".join(label.split()) or storable(label) != label:
            continue
        line = _prepare(label if as_hero else f"{count}x {label}")
        got_count, got, _, _ = read_card_line(line, index)
        if got == code and got_count == (1 if as_hero else count):
            return label
    return code


def _sort_key(code: str, index: CardIndex) -> tuple[int, str, str]:
    card = index.get(code)
    cost = getattr(card, "cost", None) or 0
    return (cost, index.display(code).casefold(), code)


def _kind(code: str, index: CardIndex) -> str:
    card = index.get(code)
    return card.kind if card is not None else "other"


def _header_line(key: str, value: str) -> str:
    """A header in the reader's language ("Deck: Ember Rush", "卡组：Ember Rush")."""
    return f"{HEADER_WORDS[key]}{HEADER_COLON}{value}"


def export_text(deck: Deck, index: CardIndex, *, format_code: str | None = None,
                kind_headings: Sequence[tuple[str, str]] | None = None,
                heroes_in_deck: bool = False) -> str:
    """The deck as a re-importable list (see the module docstring). ``kind_headings`` are
    ``(kind, heading)`` in order, another game's own (this game's: Minions, Items); with
    ``heroes_in_deck`` (a format whose heroes are cards of the deck) hero cards stay among
    the cards with no empty ``Hero:`` line, as such a list reads back."""
    lines: list[str] = []
    name = clean_name(deck.name)
    if name:
        lines.append(_header_line("name", name))
    if format_code:
        lines.append(_header_line("format", clean_name(format_code)))
    for hero in deck.heroes:
        lines.append(_header_line("hero", _label(hero, 1, index, as_hero=True)))
    if not heroes_in_deck and not deck.heroes and any(
            _kind(c, index) == "hero" for c in deck.counts):
        # "no hero": keeps the hero cards below in the deck on import
        lines.append(_header_line("hero", "").rstrip())
    kinds = tuple(kind_headings) if kind_headings is not None else (
        ("minion", game_word("kinds", "minion")), ("item", game_word("kinds", "item")))
    known = {kind for kind, _heading in kinds}
    groups: dict[str, list[str]] = {}
    for code in deck.counts:
        kind = _kind(code, index)
        groups.setdefault(kind if kind in known else "other", []).append(code)
    for kind, heading in [*kinds, ("other", str(OTHER_CARDS))]:
        codes = sorted(groups.get(kind, []), key=lambda c: _sort_key(c, index))
        if not codes:
            continue
        total = sum(deck.counts[c] for c in codes)
        lines += ["", f"# {heading} ({total})"]
        lines += [f"{deck.counts[c]}x {_label(c, deck.counts[c], index, False)}" for c in codes]
    for pile, counts in sorted(deck.piles.items()):
        if not counts:
            continue
        codes = sorted(counts, key=lambda c: _sort_key(c, index))
        lines += ["", _header_line("pile", pile)]
        lines += [f"{counts[c]}x {_label(c, counts[c], index, False)}" for c in codes]
    return "\n".join(lines) + "\n"
