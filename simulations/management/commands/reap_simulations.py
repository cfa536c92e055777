"""python manage.py reap_simulations — one pass of the reaper (or ``--every N`` seconds until
stopped): simulation chunks, balance searches and tunings whose worker or message was lost are
handed back, and the broker is topped up. Workers already reap at start-up and every few
seconds; this is for operators who want it from cron or a separate process."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from work.reaper import work_reap


class Command(BaseCommand):
    help = "Hand back work whose worker or message was lost, and send the next pieces."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--every", type=float, default=None,
                            help="repeat every this many seconds until interrupted")

    def handle(self, *args: Any, **opts: Any) -> None:
        while True:
            report = work_reap()
            sent = report.pop("dispatched", 0)
            total = sum(report.values())
            self.stdout.write(f"handed back {total} piece(s) of work" + (
                f": {', '.join(f'{k} {v}' for k, v in report.items() if v)}" if total else "")
                + f"; sent {sent}")
            if opts["every"] is None:
                return
            time.sleep(opts["every"])
