"""``python manage.py export_deck ID --format text|json|csv|code [--output FILE]``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from decks.codecs import CODECS
from decks.models import Deck
from decks.selectors import deck_rows, draft_from_deck
from decks.transfer.services import draft_export

NO_DECK = "No deck has the id {id!r} (use the id from the deck's address, /decks/<id>/)."


class Command(BaseCommand):
    help = ("Write a saved deck as a plain-text list, JSON, CSV or a deck code, to standard "
            "output or a file. ID is the deck's id from its address (or its database number).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", help="the deck's id (from /decks/<id>/) or database number")
        parser.add_argument("--format", dest="format_name", choices=list(CODECS),
                            default="text")
        parser.add_argument("--output", "-o", default=None,
                            help="write to this file (default: standard output)")

    def handle(self, *args: Any, id: str, format_name: str, output: str | None,
               **options: Any) -> None:
        deck = deck_rows().filter(uid=id).first()
        if deck is None and id.isdigit():
            deck = deck_rows().filter(pk=int(id)).first()
        if deck is None:
            raise CommandError(NO_DECK.format(id=id))
        deck = Deck.objects.prefetch_related("entries__card").select_related(
            "format", "hero").get(pk=deck.pk)
        export = draft_export(draft_from_deck(deck), format_name)
        if output:
            Path(output).write_text(export.content, encoding="utf-8")
            self.stderr.write(f"Wrote {output} ({len(export.content.encode())} bytes).")
        else:
            self.stdout.write(export.content, ending="")
