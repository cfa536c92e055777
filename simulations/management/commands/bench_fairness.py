"""python manage.py bench_fairness — how long a small run waits behind other users' big ones.

In a sandbox (a fresh database and a queue of its own; the site's data is never touched) it
starts one Celery worker with ``--workers`` processes, lets two users each submit ``--runs``
runs of ``--games`` games, waits until they play, then submits a third user's 2-game run and
prints how long that run took from submission to its figures, with how many of the big runs'
chunks were still unfinished then, and the load average. With fair dispatch
(``simulations.fair``) the small run waits for a few chunks, not for the others' queues.

Figures are printed, never asserted.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from django.core.management.base import BaseCommand

from rules.ai.agents import DEFAULT_AGENT
from simulations.sandbox import Sandbox

SUBMIT = """
from django.contrib.auth import get_user_model
from simulations.services import simulation_request
user, _ = get_user_model().objects.get_or_create(username={name!r})
for seed in range({runs}):
    run = simulation_request(user=user, kind="match", deck_specs=[{a!r}, {b!r}], games={games},
                             agent_a={agent!r}, agent_b={agent!r}, seed=seed + 1)
    print(run.uid)
"""


class Command(BaseCommand):
    help = "Time a third user's 2-game run while two users' big runs are queued."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=40_000, help="games per big run")
        parser.add_argument("--runs", type=int, default=2, help="big runs per user")
        parser.add_argument("--workers", type=int, default=2, help="worker processes")
        parser.add_argument("--agent", default=DEFAULT_AGENT)
        parser.add_argument("--deck-a", default="Ember Rush")
        parser.add_argument("--deck-b", default="Tidewall")

    def handle(self, *args, **opts):
        box = Sandbox(Path(tempfile.mkdtemp(prefix="bench-fairness-")),
                      database_url=os.environ.get("DATABASE_URL", ""),
                      broker_url=os.environ.get("CELERY_BROKER_URL", ""))
        try:
            box.install()
            box.worker("bench", pool="prefork", concurrency=opts["workers"])
            box.wait_ready("bench")
            for name in ("alice", "bob"):
                box.manage("shell", "-c", self._submit(name, opts, opts["games"], opts["runs"]))
            box.wait(lambda: box.query("SELECT COUNT(*) FROM simulations_chunkresult")[0][0] >= 2,
                     timeout=1200, what="the big runs to start")
            start = time.monotonic()
            out = box.manage("shell", "-c", self._submit("carol", opts, 2, 1))
            uid = out.split()[-1]
            box.wait(lambda: box.run_row(uid)["status"] == "done", timeout=3600,
                     what="the small run to finish")
            waited = time.monotonic() - start
            left = box.query("SELECT COUNT(*) FROM simulations_chunk WHERE state IN "
                             "('pending', 'running')")[0][0]
            total = box.query("SELECT COUNT(*) FROM simulations_chunk")[0][0] - 1
            self.stdout.write(
                f"a third user's 2-game run finished {waited:.1f} s after submission; the big "
                f"runs' chunks unfinished then: {left} of {total}; "
                f"{opts['workers']} worker processes, load average {os.getloadavg()[0]:.1f}")
        finally:
            box.drop()

    @staticmethod
    def _submit(name: str, opts: dict, games: int, runs: int) -> str:
        return SUBMIT.format(name=name, runs=runs, games=games, agent=opts["agent"],
                             a=f"starter:{opts['deck_a']}", b=f"starter:{opts['deck_b']}")
