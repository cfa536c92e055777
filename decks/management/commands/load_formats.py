"""``python manage.py load_formats FILE``: load a rule book file — a game, its kinds and rarity
tiers, card sets and formats (docs/formats.md). Idempotent; an invalid file is refused whole."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from decks.format_loader import rule_book_load, rule_book_read
from rules.formats import FormatDataError

MSG_NO_FILE = "No such file: {path}"
MSG_REFUSED = "{path}: refused, nothing was changed. {count} problem(s):"


class Command(BaseCommand):
    help = ("Load formats (and their game, card kinds, rarity tiers and card sets) from a YAML "
            "file; see docs/formats.md. Loading it again updates the same rows.")

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="+", help="rule book files in YAML, e.g. "
                                                    "rules/data/games/sorcery.yaml")

    def handle(self, *args, file: list[str], **options):
        for name in file:
            path = Path(name)
            if not path.is_file():
                raise CommandError(MSG_NO_FILE.format(path=path))
            try:
                report = rule_book_load(rule_book_read(path.read_text("utf-8")))
            except (FormatDataError, UnicodeDecodeError) as exc:
                problems = getattr(exc, "problems", [str(exc)])
                self.stderr.write(MSG_REFUSED.format(path=path, count=len(problems)))
                for problem in problems:
                    self.stderr.write(f"  - {problem}")
                raise CommandError(f"{len(problems)} problem(s) in {path}") from None
            for line in report.lines:
                self.stdout.write(f"{path}: {line}")
