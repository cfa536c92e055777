"""python manage.py bench_fairness — how long a small run takes while another user's big runs
fill the workers, and once they are cancelled.

In a sandbox (a fresh database and a queue of its own: the site's data is never touched) it
starts one Celery worker with ``--workers`` processes (which measures the deployment's pace as
it starts, ``simulations.agents.calibration``), lets one user submit ``--big-runs`` runs of
``--big-games`` games between ``--big-agent`` agents — asking for chunks of
``--big-chunk-size`` games, as an API client may — and waits until they play. Then another
user submits ``--small-runs`` runs of ``--small-games`` games, one after another, each timed
from submission to its figures (the database's own timestamps), while the big runs keep
playing; then the big runs are cancelled and ``--after-cancel`` more small runs are timed on the
workers they leave. It prints each time, their median and the worst, how many games the big
runs played meanwhile, and the load average: the machine may be busy with other work, which no
wall-clock figure hides.

Figures are printed, never asserted.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, TypedDict

from django.core.management.base import BaseCommand, CommandParser

from tools.sandbox import DbTime, Sandbox

SUBMIT = """
from django.contrib.auth import get_user_model
from simulations.services import simulation_request
user, _ = get_user_model().objects.get_or_create(username={user!r})
for seed in range({runs}):
    run = simulation_request(user=user, kind="match", deck_specs={decks!r}, games={games},
                             agent_a={agent!r}, agent_b={agent!r}, seed={seed} + seed,
                             chunk_size={chunk_size!r})
    print(run.uid)
"""
CANCEL = """
from simulations.models import SimulationRun
from simulations.services import simulation_cancel
for run in SimulationRun.objects.filter(uid__in={uids!r}, status__in=("queued", "running")):
    simulation_cancel(run=run)
"""
RUN_FIELDS = ("status", "games_done", "games_total", "chunk_size", "created_at", "finished_at")


class RunFields(TypedDict):
    """A simulation run's RUN_FIELDS (``Command._row``)."""

    status: str
    games_done: int
    games_total: int
    chunk_size: int
    created_at: DbTime
    finished_at: DbTime


class Timings(TypedDict):
    """The small runs' times (``Command._summary``)."""

    seconds: list[float]
    median: float | None
    worst: float | None


def _time(value: DbTime) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"


class Command(BaseCommand):
    help = ("Time small runs while another user's big runs fill the workers, and after they "
            "are cancelled; prints each time, the median and the worst.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--broker-url", default="",
                            help="a broker for the sandbox, e.g. redis://127.0.0.1:6379/1 or "
                                 "amqp://guest:guest@127.0.0.1:5672// (default: the "
                                 "filesystem broker)")
        parser.add_argument("--database-url", default="",
                            help="a PostgreSQL URL to bench on a fresh database beside it "
                                 "(default: a fresh SQLite file)")
        parser.add_argument("--workers", type=int, default=2, help="worker processes")
        parser.add_argument("--big-agent", default="planner")
        parser.add_argument("--big-games", type=int, default=20_000, help="games per big run")
        parser.add_argument("--big-runs", type=int, default=3)
        parser.add_argument("--big-chunk-size", type=int, default=10_000,
                            help="the chunk size the big runs ask for (an upper bound)")
        parser.add_argument("--small-agent", default="greedy")
        parser.add_argument("--small-games", type=int, default=2)
        parser.add_argument("--small-runs", type=int, default=7,
                            help="small runs timed while the big runs play")
        parser.add_argument("--after-cancel", type=int, default=3,
                            help="small runs timed once the big runs are cancelled")
        parser.add_argument("--pause", type=float, default=1.0,
                            help="seconds between one small run's end and the next one")
        parser.add_argument("--deck-a", default="Ember Rush")
        parser.add_argument("--deck-b", default="Tidewall")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        self._say(opts, f"load average before: {_load()}")
        with tempfile.TemporaryDirectory(prefix="cardlab-bench-fairness-") as root:
            box = Sandbox(Path(root), database_url=opts["database_url"],
                          broker_url=opts["broker_url"],
                          env={"CARDLAB_SIMULATIONS_WORKERS": str(opts["workers"])})
            try:
                box.start_measured_workers("bench", opts["workers"])
                report = self._bench(box, opts)
            finally:
                box.drop()
        report["load_after"] = _load()
        self._print(opts, report)

    def _bench(self, box: Sandbox, opts: Mapping[str, Any]) -> dict[str, Any]:
        big = self._submit(box, opts, "ursula", runs=opts["big_runs"], games=opts["big_games"],
                           agent=opts["big_agent"], chunk_size=opts["big_chunk_size"], seed=1)
        box.wait(lambda: box.query("SELECT COUNT(*) FROM simulations_chunkresult")[0][0],
                 timeout=600, what="the big runs to play", poll=0.2)
        played = self._games(box, big)
        loaded = self._small_runs(box, opts, opts["small_runs"], seed=1000)
        big_rows = [self._row(box, uid) for uid in big]
        report: dict[str, Any] = {
            "big": {"runs": len(big), "agent": opts["big_agent"],
                    "chunk_size_asked": opts["big_chunk_size"],
                    "chunk_size": big_rows[0]["chunk_size"],
                    "chunks": box.query("SELECT COUNT(*) FROM simulations_chunk")[0][0]
                    - len(loaded),
                    "games_played_meanwhile": self._games(box, big) - played,
                    "still_playing": sum(r["status"] == "running" for r in big_rows)},
            "while_big_runs_play": self._summary(loaded), "load_during": _load()}
        box.manage("shell", "-c", CANCEL.format(uids=big))
        report["after_cancel"] = self._summary(
            self._small_runs(box, opts, opts["after_cancel"], seed=2000))
        return report

    def _small_runs(self, box: Sandbox, opts: Mapping[str, Any], count: int, *, seed: int
                    ) -> list[float]:
        times: list[float] = []
        for i in range(count):
            uid = self._submit(box, opts, "victor", runs=1, games=opts["small_games"],
                               agent=opts["small_agent"], chunk_size=None, seed=seed + i)[0]

            def finished(uid: str = uid) -> bool:
                return self._row(box, uid)["status"] not in ("queued", "running")

            box.wait(finished, timeout=900, what=f"small run {uid}", poll=0.05)
            row = self._row(box, uid)
            times.append((_time(row["finished_at"]) - _time(row["created_at"])).total_seconds())
            self._say(opts, f"  small run {i + 1}/{count}: {row['status']} in {times[-1]:.2f} s")
            time.sleep(opts["pause"])
        return times

    @staticmethod
    def _submit(box: Sandbox, opts: Mapping[str, Any], user: str, *, runs: int, games: int,
                agent: str, chunk_size: int | None, seed: int) -> list[str]:
        decks = [f"starter:{opts['deck_a']}", f"starter:{opts['deck_b']}"]
        out = box.manage("shell", "-c", SUBMIT.format(
            user=user, runs=runs, decks=decks, games=games, agent=agent, seed=seed,
            chunk_size=chunk_size))
        return out.split()[-runs:]

    @staticmethod
    def _row(box: Sandbox, uid: str) -> RunFields:
        (status, games_done, games_total, chunk_size, created_at, finished_at) = box.query(
            f"SELECT {', '.join(RUN_FIELDS)} FROM simulations_simulationrun WHERE uid = ?",
            uid)[0]
        return {"status": status, "games_done": games_done, "games_total": games_total,
                "chunk_size": chunk_size, "created_at": created_at, "finished_at": finished_at}

    @staticmethod
    def _games(box: Sandbox, uids: list[str]) -> int:
        marks = ", ".join("?" * len(uids))
        games: int = box.query("SELECT COALESCE(SUM(games_done), 0) FROM "
                               f"simulations_simulationrun WHERE uid IN ({marks})", *uids)[0][0]
        return games

    @staticmethod
    def _summary(times: list[float]) -> Timings:
        return {"seconds": [round(t, 2) for t in times],
                "median": statistics.median(times) if times else None,
                "worst": max(times, default=None)}

    def _print(self, opts: Mapping[str, Any], report: Mapping[str, Any]) -> None:
        if opts["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
            return
        big, loaded, after = report["big"], report["while_big_runs_play"], report["after_cancel"]
        self.stdout.write(
            f"big runs: {big['runs']} of {opts['big_games']:,} {big['agent']} games, chunks of "
            f"{big['chunk_size']} games ({big['chunks']:,} chunks; {big['chunk_size_asked']} "
            f"asked for); they played {big['games_played_meanwhile']:,} games while the small "
            f"runs were timed, and {big['still_playing']} still played at the end")
        for title, part in (("while the big runs play", loaded),
                            ("after the big runs were cancelled", after)):
            if part["seconds"]:
                self.stdout.write(
                    f"{opts['small_games']}-game {opts['small_agent']} runs {title}: median "
                    f"{part['median']:.2f} s, worst {part['worst']:.2f} s "
                    f"({', '.join(f'{t:.2f}' for t in part['seconds'])})")
        self.stdout.write(f"{opts['workers']} worker processes; load average during: "
                          f"{report['load_during']}, after: {report['load_after']}")

    def _say(self, opts: Mapping[str, Any], text: str) -> None:
        if not opts["json"]:
            self.stdout.write(text)
