"""python manage.py simulate — the decks app's in-process command, plus ``--via-celery``.

This app is listed before ``decks`` in INSTALLED_APPS, so this command is the one Django runs;
without ``--via-celery`` it is exactly the decks app's command.
"""

from __future__ import annotations

from decks.management.commands.simulate import Command as InProcessCommand


class Command(InProcessCommand):
    help = (InProcessCommand.help + " With --via-celery the games are played by Celery workers: "
            "the run is submitted (decks frozen, split into chunks) and followed to the end.")

    def add_arguments(self, parser):
        super().add_arguments(parser)
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
        if not opts["via_celery"]:
            return super().handle(*args, **opts)
        from simulations.cli import run_via_celery

        run_via_celery(self, opts)
