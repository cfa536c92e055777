"""``python manage.py load_formats FILE``: load a rule book file — a game, its kinds and rarity
tiers, card sets and formats (docs/formats.md). Idempotent; an invalid file is refused whole.
It speaks the active language: ``--lang zh`` (or ``en``; by default the site's language)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation
from django.utils.translation import gettext_lazy

from common.language import language_options, reader_language, site_language
from decks.formats.loader import RuleBookRefused, rule_book_load, rule_book_read

MSG_NO_FILE = gettext_lazy("No such file: {path}")
MSG_REFUSED = gettext_lazy("{path}: refused, nothing was changed. {count} problem(s):")
MSG_PROBLEMS = gettext_lazy("{count} problem(s) in {path}")


class Command(BaseCommand):
    help = ("Load formats (and their game, card kinds, rarity tiers and card sets) from a YAML "
            "file; see docs/formats.md. Loading it again updates the same rows.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="+", help="rule book files in YAML, e.g. "
                                                    "rules/data/games/sorcery.yaml")
        parser.add_argument("--lang", choices=language_options(), default=None,
                            help="the language of the report and the problems (default: the "
                                 "active language)")

    def handle(self, *args: Any, file: list[str], lang: str | None = None,
               **options: Any) -> None:
        with translation.override(site_language(lang) if lang else reader_language()):
            self._load(file)

    def _load(self, file: list[str]) -> None:
        for name in file:
            path = Path(name)
            if not path.is_file():
                raise CommandError(MSG_NO_FILE.format(path=path))
            try:
                report = rule_book_load(rule_book_read(path.read_text("utf-8")))
            except (RuleBookRefused, UnicodeDecodeError) as exc:
                problems = getattr(exc, "problems", [str(exc)])
                self.stderr.write(MSG_REFUSED.format(path=path, count=len(problems)))
                for problem in problems:
                    self.stderr.write(f"  - {problem}")
                raise CommandError(MSG_PROBLEMS.format(count=len(problems), path=path)) from None
            for line in report.lines:
                self.stdout.write(f"{path}: {line}")
