"""python manage.py reap_simulations — one pass of the simulation reaper (or ``--every N``
seconds until stopped). Workers already reap at start-up and every few seconds; this is for
operators who want it from cron or a separate process."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from simulations.reaper import simulation_reap


class Command(BaseCommand):
    help = "Re-send simulation chunks whose worker or message was lost."

    def add_arguments(self, parser):
        parser.add_argument("--every", type=float, default=None,
                            help="repeat every this many seconds until interrupted")

    def handle(self, *args, **opts):
        while True:
            report = simulation_reap()
            total = sum(report.values())
            self.stdout.write(f"re-sent {total} chunk(s)" + (
                f": {', '.join(f'{k} {v}' for k, v in report.items() if v)}" if total else ""))
            if opts["every"] is None:
                return
            time.sleep(opts["every"])
