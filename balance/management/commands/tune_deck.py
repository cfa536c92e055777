"""python manage.py tune_deck — legal swaps that raise a deck's win rate against a field."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from balance.cli import OptionError, add_run_arguments, card_set_of, check_agent
from balance.tuning.cli import Clock, build_problem, field_shares, patch_lines, run_via_celery
from balance.tuning.report import progress_line, report_text
from rules.ai.agents import DEFAULT_AGENT
from rules.lab.deck_tuning import LocalTuneEvaluator, TuneField, TuningError, tune_deck
from simulations.cli.input import load_patch_for_cli, patched_cards_for_cli


class Command(BaseCommand):
    help = ("Search legal card swaps (some copies of a card out, another card of the set in) "
            "that raise a starter deck's win rate against a field of decks; re-verify the "
            "best on fresh seeds and print each with its paired improvement. Same seed and "
            "--budget-games, same search.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--deck", required=True, help="the starter deck to tune, by name")
        parser.add_argument("--field", nargs="+", default=None,
                            help="starter deck names (default: every other starter deck)")
        parser.add_argument("--shares", default=None,
                            help="comma-separated play shares of the field's decks, in order "
                                 "(default: every deck alike), e.g. 3,1,1")
        parser.add_argument("--patch", default=None, metavar="FILE",
                            help="a balance patch (docs/patches.md): tune against the card "
                                 "pool as patched")
        parser.add_argument("--agent", default=DEFAULT_AGENT)
        parser.add_argument("--set", dest="card_set", default=None,
                            help="a card set YAML file (default: the core set)")
        parser.add_argument("--keep", default="", help="comma-separated codes that stay")
        parser.add_argument("--any-hero", action="store_true", help="the hero may change")
        parser.add_argument("--max-swaps", type=int, default=3)
        parser.add_argument("--budget-games", type=int, default=100_000,
                            help="games the search may play (verification apart)")
        parser.add_argument("--verify-games", type=int, default=1000,
                            help="games against each opponent when re-verifying")
        add_run_arguments(parser, via_celery_help="submit the tuning as a job for the workers "
                                                  "and follow it (decks: starter names, or "
                                                  "deck:<id>)")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["via_celery"]:
            return run_via_celery(self, opts)
        check_agent(opts)
        card_set = card_set_of(opts)
        try:
            deck = card_set.deck(opts["deck"])
            others = [card_set.deck(n) for n in opts["field"]] if opts["field"] else \
                [d for d in card_set.decks.values() if d.name.casefold()
                 != deck.name.casefold()]
        except KeyError as exc:
            raise CommandError(f"--deck/--field: {exc.args[0]}") from None
        cards, diff = patched_cards_for_cli(card_set.cards, load_patch_for_cli(opts["patch"]),
                                            opts["card_set"])
        try:
            field = TuneField(cards=cards, opponents=tuple(others), agent=opts["agent"],
                              weights=field_shares(opts["shares"], len(others)))
            problem = build_problem(field, deck, opts)
        except OptionError as exc:
            raise CommandError(str(exc)) from None
        clock = Clock()
        names = [d.name for d in others]

        def progress(event: dict[str, Any]) -> None:
            if not opts["json"]:
                sys.stderr.write(progress_line(clock, card_set.cards, event) + "\n")
                sys.stderr.flush()

        with LocalTuneEvaluator(field, processes=max(1, opts["processes"])) as evaluator:
            try:
                result = tune_deck(problem, evaluator, progress=progress)
            except TuningError as exc:
                raise CommandError(str(exc)) from None
        if opts["json"]:
            data = result.to_dict(names)
            data.update(wall_seconds=round(clock.elapsed, 1), seed=problem.seed,
                        patch=diff and {"name": opts["patch"], "diff": diff})
            self.stdout.write(json.dumps(data, sort_keys=True))
        else:
            self.stdout.write(patch_lines(diff) + report_text(result, names, problem, cards,
                                                              elapsed=clock.elapsed))
