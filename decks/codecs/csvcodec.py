"""The CSV deck file (a spreadsheet's view of a deck).

Columns ``section,count,code,name,name_zh``; ``section`` is ``deck`` (the ``name`` cell is the
deck's name, the ``code`` cell its format), ``hero``, ``card`` or, for a deck in piles,
``pile:<code>`` (``pile:atlas``: a card of that pile). Reading needs the header row;
``section`` is optional (then a hero card is the hero), and a row needs a ``code`` or a
``name``.

Cells that a spreadsheet would run as a formula (starting with ``= + - @``, tab or CR) are
written with a leading apostrophe, and one apostrophe is removed from such cells on reading,
so the neutralising is exact both ways.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable

from django.utils.translation import gettext_lazy

from common.language import data_form_names
from decks.codecs.base import (
    DEFAULT_LIMITS,
    PILE_NAME,
    TOO_MANY_COPIES,
    ZERO_COPIES,
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
from rules.decks.legality import CardLike, Deck
from rules.decks.piles import MAIN_PILE

COLUMNS = ("section", "count", "code", "name", "name_zh")
NO_HEADER = gettext_lazy(
    'The first row must name the columns, e.g. "section,count,code,name"; it needs a "code" '
    'or a "name" column.'
)
NOT_CSV = gettext_lazy("This is not readable CSV ({detail}).")
BAD_COUNT = gettext_lazy("the count {value!r} is not a whole number; write 1 or more.")
BAD_SECTION = gettext_lazy("the section {value!r} is not deck, hero, card or pile:<name>.")
NO_CARD = gettext_lazy("the row names no card: fill in the code or the name.")
UNKNOWN = gettext_lazy("no card has the code or name {name!r}.")

_DANGER = re.compile(r"^'*[=+\-@\t\r]")
_NEUTRALISED = re.compile(r"^'+[=+\-@\t\r]")


def neutralise(cell: str) -> str:
    return "'" + cell if _DANGER.match(cell) else cell


def restore(cell: str) -> str:
    return cell[1:] if _NEUTRALISED.match(cell) else cell


def export_csv(deck: Deck, index: CardIndex, *, format_code: str | None = None) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)

    def row(section: str, count: object, code: str, name: str, name_zh: str) -> None:
        writer.writerow([neutralise(storable(str(cell))) for cell in (section, count, code,
                                                                        name, name_zh)])

    row("deck", "", format_code or "", clean_name(deck.name), "")
    for hero in deck.heroes:
        card = index.get(hero)
        row("hero", 1, hero, *_names(card))
    for section, counts in [("card", deck.counts),
                            *((f"pile:{p}", c) for p, c in sorted(deck.piles.items()))]:
        for code, count in sorted(counts.items()):
            card = index.get(code)
            row(section, count, code, *_names(card))
    return out.getvalue()


def _names(card: CardLike | None) -> tuple[str, str]:
    """The ``name`` and ``name_zh`` cells of a card (the file's columns), from its names."""
    if card is None:
        return "", ""
    names = data_form_names(card)
    return names["name_en"], names["name_zh"]


def parse_csv(text: str, index: CardIndex, limits: ImportLimits = DEFAULT_LIMITS
              ) -> ImportedDeck:
    """Read a CSV list (``import_deck`` has checked its size and characters)."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    rows: list[list[str]] = []
    starts: list[int] = []      # the line each row starts on (a quoted cell may span lines)
    previous_end = 0
    try:
        for row in reader:
            starts.append(previous_end + 1)
            previous_end = reader.line_num
            rows.append(row)
    except csv.Error as exc:
        raise DeckImportError(ImportProblem(NOT_CSV.format(detail=str(exc)[:80]),
                                            line=reader.line_num)) from None
    if not rows:
        raise DeckImportError(ImportProblem(NO_HEADER, line=1))
    header = [clean_name(c).casefold() for c in rows[0]]
    column = {name: header.index(name) for name in COLUMNS if name in header}
    if "name_en" in header and "name" not in column:
        column["name"] = header.index("name_en")
    if "code" not in column and "name" not in column:
        raise DeckImportError(ImportProblem(NO_HEADER, line=1))
    problems: list[ImportProblem] = []
    heroes: list[str] = []
    hero_lines: list[int | None] = []
    counts: dict[str, int] = {}
    piles: dict[str, dict[str, int]] = {}
    name, format_code = "", None
    for number, cells in zip(starts[1:], rows[1:], strict=True):
        def cell(key: str, cells: list[str] = cells) -> str:
            at = column.get(key)
            return restore(cells[at]).strip() if at is not None and at < len(cells) else ""

        if not any(c.strip() for c in cells):
            continue
        section = cell("section").casefold() or "card"
        if section == "deck":
            name, found = check_name(cell("name"), limits, line=number)
            problems += found
            format_code = clean_name(cell("code"), 40) or None
            continue
        into = counts
        if section.startswith("pile:"):
            pile = pile_code(section.removeprefix("pile:"))
            if pile is None:
                problems.append(ImportProblem(PILE_NAME.format(name=section[5:45]),
                                              line=number))
                continue
            into = counts if pile == MAIN_PILE else piles.setdefault(pile, {})
            section = "card"
        if section not in ("hero", "card"):
            problems.append(ImportProblem(BAD_SECTION.format(value=section[:20]), line=number))
            continue
        problems += _row(cell, number, section, index, limits, heroes, into,
                         auto_hero="section" not in column and into is counts)
        hero_lines += [number] * (len(heroes) - len(hero_lines))
    problems += check_heroes(heroes, hero_lines, [index.display(h) for h in heroes], limits)
    problems.sort(key=lambda p: p.line or 0)
    finish(problems, limits)
    piles = {k: v for k, v in piles.items() if v}
    check_total(merged(counts, piles), heroes, limits)
    return ImportedDeck(Deck(heroes=tuple(heroes), counts=counts, name=name, piles=piles),
                        format_code, "csv")


def _row(cell: Callable[[str], str], number: int, section: str, index: CardIndex,
         limits: ImportLimits, heroes: list[str], counts: dict[str, int],
         auto_hero: bool) -> list[ImportProblem]:
    raw_count = cell("count") or "1"
    if not raw_count.isascii() or not raw_count.isdigit() or len(raw_count) > 6:
        return [ImportProblem(BAD_COUNT.format(value=raw_count[:20]), line=number)]
    count = int(raw_count)
    code = None
    for ref in (cell("code"), cell("name"), cell("name_zh")):
        if ref:
            code = index.lookup(ref).code
            if code is not None:
                break
    if code is None:
        ref = cell("code") or cell("name") or cell("name_zh")
        if not ref:
            return [ImportProblem(NO_CARD, line=number)]
        return [ImportProblem(UNKNOWN.format(name=ref[:60]), line=number,
                              suggestions=index.suggest(cell("name") or ref[:60]),
                              written=cell("name") or None)]
    label = index.display(code)
    if count < 1:
        return [ImportProblem(ZERO_COPIES.format(name=label), line=number)]
    if count > limits.max_copies:
        return [ImportProblem(TOO_MANY_COPIES.format(count=count, name=label,
                                                     limit=limits.max_copies), line=number)]
    card = index.get(code)
    if section == "hero" or (auto_hero and card is not None and card.kind == "hero"):
        heroes.extend([code] * count)
    else:
        counts[code] = counts.get(code, 0) + count
    return []
