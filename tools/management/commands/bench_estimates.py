"""python manage.py bench_estimates — how close the time estimates come to what runs take.

In a sandbox (a fresh database and a queue of its own: the site's data is never touched) it
starts one Celery worker with ``--workers`` processes, waits for the pace it measures as it
starts (``simulations.agents.calibration``), then plays runs one after another on the otherwise idle
workers: short ones (greedy matches of 20 and 200 games, a planner match of 20: mostly the
costs besides the games), long ones (a gauntlet of planner against search, 600 games; the same
gauntlet again, now at the pace the deployment observed in the first one's chunks; a planner
round-robin of four decks; a greedy match of 20,000 games) and the short ones again, now with
the costs besides the games observed on the runs before them (``simulations.run_costs``). For
each it prints the estimate at submission (``run_estimate_seconds``, the form's figure), the
time from submission to the figures, their ratio, and the time left the run's page said once
a tenth of its games had finished against the time it then took; at the end, the costs
besides the games the deployment observed (the figures ``run_costs.MEASURED_HERE`` holds).

The machine may be busy with other work: the load average is printed with the figures.
Figures are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypedDict

from django.core.management.base import BaseCommand, CommandParser

from tools.sandbox import DbTime, Sandbox

SUBMIT = """
from django.contrib.auth import get_user_model
from simulations.services import simulation_request
from simulations.agents.strength import run_costs, run_estimate_seconds
user, _ = get_user_model().objects.get_or_create(username="estimator")
costs = run_costs()
run = simulation_request(user=user, kind={kind!r}, deck_specs={decks!r}, games={games},
                         agent_a={agent_a!r}, agent_b={agent_b!r}, seed={seed})
print(json.dumps(costs.as_dict()), run.uid, run_estimate_seconds(run))
"""
COSTS = """
from django.core.cache import cache
from simulations.run_costs import OBSERVED_KEY
from simulations.agents.strength import run_costs
cache.delete(OBSERVED_KEY)
print(json.dumps(run_costs().as_dict()))
"""
TIME_LEFT = """
from django.utils import timezone
from simulations.models import SimulationRun
from simulations.selectors import run_progress, run_seconds_left
run = SimulationRun.objects.get(uid={uid!r})
print(timezone.now().isoformat(), run_seconds_left(run, run_progress(run)))
"""


class RunCosts(TypedDict):
    """``simulations.run_costs.RunCosts.as_dict()``, as SUBMIT and COSTS print it."""

    start: float
    chunk: float
    finish: float
    observed: bool


class RunProgress(TypedDict):
    """The columns ``Command._row`` reads of a simulation run."""

    status: str
    games_done: int
    games_total: int
    created_at: DbTime
    finished_at: DbTime


# A run to time: title, kind, decks, games (a pairing's, for the long ones), agent A, agent B.
Run = tuple[str, str, list[str], int, str, str]

CORE = ["Ember Rush", "Tidewall", "Gravecallers", "Dawn Crusade"]
SHORT: tuple[Run, ...] = (
    ("greedy match of 20 games", "match", CORE[:2], 20, "greedy", "greedy"),
    ("greedy match of 200 games", "match", CORE[:2], 200, "greedy", "greedy"),
    ("planner match of 20 games", "match", CORE[:2], 20, "planner", "planner"),
)
LONG: tuple[Run, ...] = (   # games a pairing; --scale multiplies these
    ("gauntlet of planner vs search", "gauntlet", CORE, 200, "planner", "search"),
    ("the same gauntlet again", "gauntlet", CORE, 200, "planner", "search"),
    ("planner round-robin of 4 decks", "round_robin", CORE, 40, "planner", "planner"),
    ("greedy match", "match", CORE[:2], 20_000, "greedy", "greedy"),
)
# The runs in turn, each with whether --scale multiplies its games: short, long, short again.
RUNS: tuple[tuple[str, str, list[str], int, str, str, bool], ...] = (
    *((*run, False) for run in SHORT), *((*run, True) for run in LONG),
    *((f"{run[0]}, again", *run[1:], False) for run in SHORT))


def _time(value: DbTime) -> datetime:
    """A stored or printed time as naive UTC (SQLite keeps naive UTC; PostgreSQL and the
    printed ``timezone.now()`` are aware)."""
    when = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return when.astimezone(UTC).replace(tzinfo=None) if when.tzinfo else when


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"


class Command(BaseCommand):
    help = "Compare the time estimates with what runs take on idle workers; prints the ratios."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workers", type=int, default=2, help="worker processes")
        parser.add_argument("--broker-url", default="", help="default: the filesystem broker")
        parser.add_argument("--database-url", default="",
                            help="a PostgreSQL URL (default: a fresh SQLite file)")
        parser.add_argument("--scale", type=float, default=1.0,
                            help="multiply every run's games by this")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        self._say(opts, f"load average before: {_load()}")
        rows: list[dict[str, Any]] = []
        with tempfile.TemporaryDirectory(prefix="cardlab-bench-estimates-") as root:
            box = Sandbox(Path(root), database_url=opts["database_url"],
                          broker_url=opts["broker_url"],
                          env={"CARDLAB_SIMULATIONS_WORKERS": str(opts["workers"])})
            try:
                box.start_measured_workers("bench", opts["workers"])
                for seed, (title, kind, decks, games, agent_a, agent_b, scaled) in \
                        enumerate(RUNS):
                    games = max(2, round(games * opts["scale"])) if scaled else games
                    rows.append(self._one(box, title, kind, decks, games, agent_a, agent_b,
                                          seed + 1))
                    self._say(opts, self._line(rows[-1]))
                observed: RunCosts = json.loads(box.manage("shell", "-c", f"import json\n{COSTS}")
                                      .strip().splitlines()[-1])
                self._say(opts, "costs besides the games observed on these runs: start "
                                f"{observed['start']:.3f} s, chunk {observed['chunk']:.3f} s, "
                                f"finish {observed['finish']:.3f} s")
            finally:
                box.drop()
        self._say(opts, f"{opts['workers']} worker processes; load average after: {_load()}")
        if opts["json"]:
            self.stdout.write(json.dumps({"runs": rows, "load": _load()}, sort_keys=True))

    def _one(self, box: Sandbox, title: str, kind: str, decks: list[str], games: int,
             agent_a: str, agent_b: str, seed: int) -> dict[str, Any]:
        specs = [f"starter:{name}" for name in decks]
        out = box.manage("shell", "-c", "import json\n" + SUBMIT.format(
            kind=kind, decks=specs, games=games, agent_a=agent_a, agent_b=agent_b,
            seed=seed)).strip().splitlines()[-1]
        printed_costs, uid, estimate = out.rsplit(" ", 2)
        costs: RunCosts = json.loads(printed_costs)
        said: tuple[str, float | None] | None = None
        while True:
            row = self._row(box, uid)
            if row["status"] not in ("queued", "running"):
                break
            if said is None and row["games_done"] >= row["games_total"] / 10:
                now, left = box.manage("shell", "-c", TIME_LEFT.format(uid=uid)).split()[-2:]
                said = (now, None if left == "None" else float(left))
            time.sleep(0.1)
        took = (_time(row["finished_at"]) - _time(row["created_at"])).total_seconds()
        out_row: dict[str, Any] = {
            "title": title, "games": row["games_total"], "status": row["status"],
            "estimate_s": float(estimate), "took_s": took, "ratio": took / float(estimate),
            "load": _load(), "costs": "observed" if costs["observed"] else "measured here"}
        if said and said[1] is not None:
            then = (_time(row["finished_at"]) - _time(said[0])).total_seconds()
            out_row.update(left_said_s=said[1], left_took_s=then,
                           left_ratio=then / said[1] if said[1] else None)
        return out_row

    @staticmethod
    def _row(box: Sandbox, uid: str) -> RunProgress:
        (status, games_done, games_total, created_at, finished_at) = box.query(
            "SELECT status, games_done, games_total, created_at, finished_at "
            "FROM simulations_simulationrun WHERE uid = ?", uid)[0]
        return {"status": status, "games_done": games_done, "games_total": games_total,
                "created_at": created_at, "finished_at": finished_at}

    @staticmethod
    def _line(row: Mapping[str, Any]) -> str:
        line = (f"{row['title']} ({row['games']:,} games): estimated {row['estimate_s']:.1f} s "
                f"(costs besides the games {row['costs']}), took {row['took_s']:.1f} s "
                f"({row['ratio']:.2f} × the estimate)")
        if row.get("left_said_s") is not None:
            line += (f"; at a tenth the page said {row['left_said_s']:.1f} s left, it took "
                     f"{row['left_took_s']:.1f} s")
        return f"{line}; load {row['load']}"

    def _say(self, opts: Mapping[str, Any], text: str) -> None:
        if not opts["json"]:
            self.stdout.write(text)
