"""``python manage.py bench_deck_validation`` — how long validating one deck takes.

Prints the median and 95th-percentile time of:

- ``legality``: ``rules.decks.legality.check_deck`` alone, the cards already in memory (the engine's
  share, what the ≤ 5 ms target is about);
- ``service``: the builder's full path, ``decks.selectors.deck_view`` — fetch the deck's cards
  and the format's ban list from the database, check legality, compute the statistics —
  when the deck's cards are in the catalogue.

The decks are the starter decks of a card set file (the core set by default), each validated in
turn. Figures are printed, never asserted.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.decks.cardset import CORE_SET, TEST_SET, CardSetError, load_card_set
from rules.decks.legality import STANDARD, Deck, check_deck


class Timings(TypedDict):
    """One path's figures, in milliseconds."""

    runs: int
    median_ms: float
    p95_ms: float
    max_ms: float


def _timings(fn: Callable[[], object], runs: int) -> Timings:
    samples: list[float] = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return {"runs": runs, "median_ms": round(statistics.median(samples), 4),
            "p95_ms": round(samples[int(len(samples) * 0.95) - 1], 4),
            "max_ms": round(samples[-1], 4)}


class Command(BaseCommand):
    help = "Time the validation of one deck (engine alone, and the builder's service path)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--runs", type=int, default=2000)
        parser.add_argument("--set", dest="card_set", default=None,
                            help="card set YAML (default: the core set)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, runs: int, card_set: str | None, **options: Any) -> None:
        if runs < 20:
            raise CommandError("--runs must be at least 20")
        path = Path(card_set) if card_set else (CORE_SET if CORE_SET.exists() else TEST_SET)
        try:
            cards = load_card_set(path)
        except CardSetError as exc:
            raise CommandError(f"{path}: {exc}") from None
        decks = [Deck.of(d.hero, d.counts(), d.name) for d in cards.decks.values()]
        if not decks:
            raise CommandError(f"{path} has no starter decks to validate")
        turn = iter(range(10**9))

        def engine() -> None:
            check_deck(decks[next(turn) % len(decks)], cards.cards, STANDARD)

        report: dict[str, Any] = {"card_set": path.name, "decks": len(decks),
                                  "legality": _timings(engine, runs),
                                  "service": self._service(decks, runs)}
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(f"Deck validation, {report['decks']} starter decks of {path.name}:")
        for name in ("legality", "service"):
            row = report[name]
            if row is None:
                self.stdout.write(f"  {name:9} skipped: load the set's cards first "
                                  f"(manage.py load_cards {path})")
                continue
            self.stdout.write(f"  {name:9} median {row['median_ms']:.3f} ms, p95 "
                              f"{row['p95_ms']:.3f} ms, max {row['max_ms']:.3f} ms "
                              f"over {row['runs']} runs")

    def _service(self, decks: list[Deck], runs: int) -> Timings | None:
        from cards.models import Card
        from decks.drafts import Draft
        from decks.selectors import deck_view, format_default

        wanted = {c for d in decks for c in (*d.counts, *d.heroes)}
        if Card.objects.filter(code__in=wanted).count() < len(wanted):
            return None
        fmt = format_default()
        drafts = [Draft(name=d.name, hero=d.hero, cards=dict(d.counts)) for d in decks]
        turn = iter(range(10**9))
        return _timings(lambda: deck_view(drafts[next(turn) % len(drafts)], fmt=fmt),
                        max(20, runs // 10))
