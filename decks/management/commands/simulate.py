"""python manage.py simulate — play simulated games between two decks, in this process."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from decks.simulation_cli import load_decks_for_cli
from rules.agents import AGENTS, make_agent
from rules.engine.cards import CardDataError, Ruleset
from rules.match import run_match
from rules.report import match_summary, match_text


class Command(BaseCommand):
    help = ("Play N simulated games of deck A against deck B (seat-swapped pairs) and print "
            "wins, draws, errors, win rate with a Wilson 95 % interval, win rates going first "
            "and second, and average game length. Same seed, same output.")

    def add_arguments(self, parser):
        parser.add_argument("--deck-a", required=True, help="starter deck name (see --list)")
        parser.add_argument("--deck-b", required=True)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--agent-a", default="greedy")
        parser.add_argument("--agent-b", default="greedy")
        parser.add_argument("--set", dest="card_set", default=None,
                            help="a card set YAML file (default: the core set)")
        parser.add_argument("--ruleset", default=None,
                            help='ruleset options as JSON, e.g. \'{"hero_advantage": false}\'')
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, **opts):
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1")
        for key in ("agent_a", "agent_b"):
            try:
                make_agent(opts[key])
            except ValueError as exc:
                raise CommandError(f"--{key.replace('_', '-')}: {exc}") from None
        try:
            ruleset = Ruleset.from_dict(json.loads(opts["ruleset"]) if opts["ruleset"] else {})
        except (ValueError, CardDataError) as exc:
            raise CommandError(f"--ruleset: {exc}") from None
        cards, deck_a, deck_b = load_decks_for_cli(opts["deck_a"], opts["deck_b"],
                                                   opts["card_set"])
        games = opts["games"] + opts["games"] % 2
        bar = self._progress_bar(games, opts["json"])
        try:
            stats = run_match(cards, deck_a, deck_b, games=games, seed=opts["seed"],
                              agent_a=opts["agent_a"], agent_b=opts["agent_b"],
                              ruleset=ruleset, progress=bar.update_to if bar else None)
        finally:
            if bar:
                bar.close()
        summary = match_summary(stats, deck_a=deck_a.name, deck_b=deck_b.name,
                                seed=opts["seed"], agent_a=opts["agent_a"],
                                agent_b=opts["agent_b"])
        if opts["json"]:
            self.stdout.write(json.dumps(summary, sort_keys=True))
        else:
            self.stdout.write(match_text(summary))

    def _progress_bar(self, total: int, quiet: bool):
        if quiet or not sys.stderr.isatty():
            return None
        from tqdm import tqdm

        bar = tqdm(total=total, unit="game", file=sys.stderr, leave=False)

        def update_to(done: int) -> None:
            bar.update(done - bar.n)

        bar.update_to = update_to
        return bar


_ = AGENTS  # agent names are listed in --help through make_agent's error message
