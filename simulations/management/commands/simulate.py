"""python manage.py simulate — play simulated games between two decks, or a round-robin of three
or more (``--decks``, with the field's meta): in this process, or on the Celery workers with
``--via-celery`` (same games, same report for the same seed)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.ai.agents import AGENT_NAMES, DEFAULT_AGENT
from simulations.cli.round_robin import run_round_robin_in_process
from simulations.cli.simulate import run_in_process, run_via_celery

TWO_OR_MORE = ("give either --deck-a and --deck-b (a match) or --decks with three or more "
               "decks (a round-robin), not both.")
ONE_AGENT = ("--agent-b: a round-robin plays one agent for every deck; give --agent-a only "
             "(got --agent-a {a}, --agent-b {b}).")

class Command(BaseCommand):
    help = ("Play N simulated games of deck A against deck B (seat-swapped pairs) and print "
            "wins, draws, errors, win rate with a Wilson 95 % interval, win rates going first "
            "and second, and average game length; with --decks, every pairing of three or more "
            "decks and the field's meta (field win rates, Nash and ε-equilibrium). Same seed, "
            "same output. With --via-celery "
            "the games are played by Celery workers: the run is submitted (decks frozen, split "
            "into chunks) and followed to the end.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--deck-a", help="starter deck name")
        parser.add_argument("--deck-b")
        parser.add_argument("--decks", nargs="+", default=None, metavar="NAME",
                            help="a round-robin of these starter decks (three or more): every "
                                 "pairing on the same seed, then the field's meta")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        agents = f"one of: {', '.join(AGENT_NAMES)} (default {DEFAULT_AGENT})"
        parser.add_argument("--agent-a", default=DEFAULT_AGENT, help=agents)
        parser.add_argument("--agent-b", default=None, help=agents + "; a round-robin plays "
                            "--agent-a for every deck")
        parser.add_argument("--set", dest="card_set", default=None,
                            help="a card set YAML file (default: the core set)")
        parser.add_argument("--ruleset", default=None,
                            help='ruleset options as JSON, e.g. \'{"hero_advantage": false}\'')
        parser.add_argument("--patch", default=None, metavar="FILE",
                            help="a balance patch (JSON, see docs/patches.md) played by both "
                                 "decks; the card set itself is not changed")
        parser.add_argument("--json", action="store_true",
                            help="print one JSON object (a round-robin's has the meta under "
                                 "'meta')")
        parser.add_argument("--epsilon", type=float, default=0.5,
                            help="round-robin: the win rate a deck may give up in the "
                                 "ε-equilibrium, in points (0.5)")
        parser.add_argument("--processes", type=int, default=2,
                            help="round-robin in this process: processes that play (2)")
        group = parser.add_argument_group("on Celery workers")
        group.add_argument("--via-celery", action="store_true",
                           help="submit the run to the workers and follow its progress")
        group.add_argument("--chunk-size", type=int, default=None,
                           help="at most this many games per task (they are cut to about a second "
                                "of work in any case)")
        group.add_argument("--stop-width", type=float, default=None,
                           help="stop early when the 95 %% interval is narrower than this")
        group.add_argument("--user", default=None,
                           help="the run's owner (default: none; the run is public)")
        group.add_argument("--no-wait", action="store_true",
                           help="print the run's id and return at once")
        group.add_argument("--timeout", type=float, default=None,
                           help="give up following after this many seconds")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["decks"] is not None:
            if opts["deck_a"] or opts["deck_b"]:
                raise CommandError(TWO_OR_MORE)
            if opts["agent_b"] not in (None, opts["agent_a"]):
                raise CommandError(ONE_AGENT.format(a=opts["agent_a"], b=opts["agent_b"]))
        elif not (opts["deck_a"] and opts["deck_b"]):
            raise CommandError(TWO_OR_MORE)
        default_b = opts["agent_a"] if opts["decks"] else DEFAULT_AGENT
        opts["agent_b"] = opts["agent_b"] or default_b
        if opts["via_celery"]:
            run_via_celery(self, opts)
        elif opts["decks"] is not None:
            run_round_robin_in_process(self, opts)
        else:
            run_in_process(self, opts)
