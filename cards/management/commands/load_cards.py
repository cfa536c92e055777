"""``python manage.py load_cards [FILE]``: load a card set file (default: the core set)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cards.game_words import say
from cards.services import card_set_import
from rules.decks.cardset import CORE_SET, CardSetError

MSG_NO_FILE = "No such card set file: {path}"
MSG_REFUSED = "{path}: refused, nothing was changed. {count} problem(s):"


class Command(BaseCommand):
    help = ("Load a card set file into the catalogue (default: the core set). Idempotent: "
            "changed cards are updated, cards missing from the file are reported, never "
            "deleted; an invalid file is refused whole and the database is left as it was.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", default=str(CORE_SET),
                            help=f"a set file in YAML (default: {CORE_SET})")
        parser.add_argument("--dry-run", action="store_true",
                            help="check the file and report what would change, change nothing")

    def handle(self, *args: Any, file: str, dry_run: bool, **options: Any) -> None:
        path = Path(file)
        if not path.is_file():
            raise CommandError(MSG_NO_FILE.format(path=path))
        try:
            report = card_set_import(source=path, dry_run=dry_run)
        except CardSetError as exc:
            self.stderr.write(MSG_REFUSED.format(path=path, count=len(exc.problems)))
            for problem in exc.problems:
                self.stderr.write(f"  - {say(problem)}")
            raise CommandError(f"{len(exc.problems)} problem(s) in {path}") from None
        for line in report.lines():
            self.stdout.write(line)
