"""python manage.py simulate — play simulated games between two decks: in this process, or on
the Celery workers with ``--via-celery`` (same games, same report for the same seed)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from rules.agents import AGENT_NAMES, DEFAULT_AGENT
from simulations.cli import run_in_process, run_via_celery


class Command(BaseCommand):
    help = ("Play N simulated games of deck A against deck B (seat-swapped pairs) and print "
            "wins, draws, errors, win rate with a Wilson 95 % interval, win rates going first "
            "and second, and average game length. Same seed, same output. With --via-celery "
            "the games are played by Celery workers: the run is submitted (decks frozen, split "
            "into chunks) and followed to the end.")

    def add_arguments(self, parser):
        parser.add_argument("--deck-a", required=True, help="starter deck name (see --list)")
        parser.add_argument("--deck-b", required=True)
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        agents = f"one of: {', '.join(AGENT_NAMES)} (default {DEFAULT_AGENT})"
        parser.add_argument("--agent-a", default=DEFAULT_AGENT, help=agents)
        parser.add_argument("--agent-b", default=DEFAULT_AGENT, help=agents)
        parser.add_argument("--set", dest="card_set", default=None,
                            help="a card set YAML file (default: the core set)")
        parser.add_argument("--ruleset", default=None,
                            help='ruleset options as JSON, e.g. \'{"hero_advantage": false}\'')
        parser.add_argument("--patch", default=None, metavar="FILE",
                            help="a balance patch (JSON, see docs/patches.md) played by both "
                                 "decks; the card set itself is not changed")
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        group = parser.add_argument_group("on Celery workers")
        group.add_argument("--via-celery", action="store_true",
                           help="submit the run to the workers and follow its progress")
        group.add_argument("--chunk-size", type=int, default=None,
                           help="games per task (default: about a second of work)")
        group.add_argument("--stop-width", type=float, default=None,
                           help="stop early when the 95 %% interval is narrower than this")
        group.add_argument("--user", default=None,
                           help="the run's owner (default: none; the run is public)")
        group.add_argument("--no-wait", action="store_true",
                           help="print the run's id and return at once")
        group.add_argument("--timeout", type=float, default=None,
                           help="give up following after this many seconds")

    def handle(self, *args, **opts):
        if opts["via_celery"]:
            run_via_celery(self, opts)
        else:
            run_in_process(self, opts)
