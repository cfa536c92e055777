"""``python manage.py validate_deck FILE`` — check a deck file against its format.

Reads any import format (text list, JSON, CSV or a deck code; detected, or ``--as``), resolves
card names against the catalogue (or, with ``--cards``, a card set YAML file, no database
needed) and prints every legality problem with its fix.

Exit status: 0 the deck is legal, 1 it is not (problems printed), 2 the file could not be read
as a deck (the reader's problems printed).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from common.language import language_options, site_language
from decks.codecs import CODECS, CardIndex, DeckImportError, import_deck
from decks.problem_text import ProblemText, format_name, problems_text
from rules.decks import legality
from rules.decks.cardset import CardSetError, load_card_set
from rules.decks.legality import STANDARD, Deck, check_deck

NO_FILE = "No such file: {path}"
NOT_UTF8 = "{path} is not UTF-8 text."


class Command(BaseCommand):
    help = ("Check a deck file (text list, JSON, CSV or deck code) against its format and print "
            "every problem with its fix. Exit 0 legal, 1 not legal, 2 unreadable.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the deck file; '-' reads standard input")
        parser.add_argument("--as", dest="reader", choices=["auto", *CODECS], default="auto",
                            help="how to read the file (default: detect)")
        parser.add_argument("--format", dest="format_code", default=None,
                            help="the format to check against (default: the file's, else "
                                 "standard)")
        parser.add_argument("--cards", default=None,
                            help="a card set YAML file to read card names from instead of the "
                                 "catalogue (no database needed)")
        parser.add_argument("--lang", choices=language_options(), default="en",
                            help="the language of the problems and the card names in them")

    def handle(self, *args: Any, file: str, reader: str, format_code: str | None, cards: str | None,
               lang: str, **options: Any) -> None:
        with translation.override(site_language(lang)):
            self._validate(file, reader, format_code, cards)

    def _validate(self, file: str, reader: str, format_code: str | None,
                  cards: str | None) -> None:
        text = self._read(file)
        index, rules_format, set_of, game_of = self._catalogue(cards, format_code, text,
                                                               reader)
        try:
            imported = import_deck(text, index, reader)
        except DeckImportError as exc:
            self.stderr.write(f"{file}: could not be read as a deck:")
            for problem in exc.problems:
                self.stderr.write(f"  - {problem}")
            raise CommandError(f"{len(exc.problems)} problem(s) reading {file}",
                               returncode=2) from None
        deck: Deck = imported.deck
        if format_code is None and imported.format_code and cards is None:
            rules_format = self._db_format(imported.format_code)
        problems = check_deck(deck, index.cards, rules_format, set_of=set_of, game_of=game_of)
        self._report(file, deck, format_name(rules_format),
                     problems_text(problems, fmt=rules_format, cards=index.cards))
        if problems:
            sys.exit(1)

    def _read(self, file: str) -> str:
        if file == "-":
            return sys.stdin.read()
        path = Path(file)
        if not path.is_file():
            raise CommandError(NO_FILE.format(path=path), returncode=2)
        try:
            return path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            raise CommandError(NOT_UTF8.format(path=path), returncode=2) from None

    def _catalogue(self, cards: str | None, format_code: str | None, text: str, reader: str
                   ) -> tuple[CardIndex, legality.Format, Mapping[str, str] | None,
                              Mapping[str, str] | None]:
        if cards:
            try:
                card_set = load_card_set(Path(cards))
            except (CardSetError, OSError) as exc:
                raise CommandError(f"{cards}: {exc}", returncode=2) from None
            if format_code not in (None, "standard"):
                raise CommandError("With --cards only the standard format is known.",
                                   returncode=2)
            return CardIndex(card_set.cards.values()), STANDARD, None, None
        from decks.adapters import cards_by_code, catalogue_index, game_of, set_of

        index = catalogue_index()
        rows = cards_by_code(index.cards)
        return index, self._db_format(format_code), set_of(rows), game_of(rows)

    def _db_format(self, code: str | None) -> legality.Format:
        from decks.adapters import format_to_rules
        from decks.models import Format
        from decks.selectors import format_get, formats_known

        try:
            return format_to_rules(format_get(code))
        except Format.DoesNotExist:
            known = formats_known()
            raise CommandError(f"There is no format {code!r}; choose one of: {known}.",
                               returncode=2) from None

    def _report(self, file: str, deck: Deck, format_name: str,
                problems: list[ProblemText]) -> None:
        label = f"{file}: {deck.name or 'deck'} ({deck.size} cards, {format_name})"
        if not problems:
            self.stdout.write(f"{label}: legal.")
            return
        self.stdout.write(f"{label}: {len(problems)} problem(s):")
        for problem in problems:
            self.stdout.write(f"  - [{problem.code}, {problem.rule}] {problem.message} "
                              f"Fix: {problem.fix}.")
