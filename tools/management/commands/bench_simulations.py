"""python manage.py bench_simulations — throughput of the simulation service on real workers.

For each broker it sets up a sandbox (a fresh database and a queue of its own; the site's data
is never touched), loads the core set, starts one Celery worker with ``--workers`` processes,
warms it up, submits one run of ``--games`` games with ``simulate --via-celery`` and reads its
wall time from the database (submission to finalisation). Beside it, the in-process engine
rate of the same pairing is measured in this process; the efficiency is

    measured games/s ÷ (in-process games/s × workers).

The machine may be busy with other work, which no wall-clock figure can hide. So, right
before each run, the command also plays the same games in-process on ``--workers`` parallel
processes ("same-moment baseline"), reads the CPU time the worker processes used (Linux
``/proc``), and prints the load average:

- *efficiency now*: measured games/s ÷ the same-moment parallel in-process games/s;
- *CPU efficiency*: in-process games per CPU second ÷ worker games per CPU second — the
  service's own overhead, whatever else runs;
- *CPU share*: the workers' CPU seconds ÷ (wall × workers) — how much of the cores they got.

Figures are printed, never asserted.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import tempfile
import time
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, TypedDict

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.ai.agents import DEFAULT_AGENT
from rules.decks.cardset import CORE_SET, load_card_set
from rules.lab.match import run_games
from tools.sandbox import DbTime, Sandbox

# One process's share of the in-process games: deck A, deck B, agent, seed and the first game
# of each seat-swapped pair it plays.
PairsJob = tuple[str, str, str, int, list[int]]


class InProcess(TypedDict):
    """The engine's figures in this process (``_in_process``)."""

    processes: int
    games: int
    wall_s: float
    games_per_s: float
    cpu_s: float
    games_per_cpu_s: float


def _parse_time(value: DbTime) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _play_pairs(args: PairsJob) -> tuple[int, float, float]:
    """Play the given seat-swapped pairs of the run in this process: (games, wall s, CPU s)."""
    deck_a, deck_b, agent, seed, starts = args
    cards = load_card_set(CORE_SET)
    a, b = cards.deck(deck_a), cards.deck(deck_b)
    wall, cpu = time.perf_counter(), time.process_time()
    for start in starts:
        run_games(cards.cards, a, b, seed=seed, start=start, stop=start + 2, agent_a=agent,
                  agent_b=agent)
    return 2 * len(starts), time.perf_counter() - wall, time.process_time() - cpu


def _in_process(opts: Mapping[str, Any], processes: int) -> InProcess:
    """The engine alone on ``processes`` parallel processes (forked), playing a sample of the
    run's own games: ``--baseline-games`` games in pairs spread evenly over the whole run (game
    lengths vary with the seed, so the sample must come from the same games)."""
    pairs = max(processes, opts["baseline_games"] // 2)
    step = max(1.0, (opts["games"] // 2) / pairs)
    starts = sorted({2 * int(i * step) for i in range(pairs)})
    jobs: list[PairsJob] = [
        (opts["deck_a"], opts["deck_b"], opts["agent"], opts["seed"], starts[i::processes])
        for i in range(processes)]
    start = time.perf_counter()
    if processes == 1:
        results = [_play_pairs(jobs[0])]
    else:
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            results = pool.map(_play_pairs, jobs)
    wall = time.perf_counter() - start
    played = sum(r[0] for r in results)
    cpu = sum(r[2] for r in results)
    return {"processes": processes, "games": played, "wall_s": wall,
            "games_per_s": played / wall, "cpu_s": cpu, "games_per_cpu_s": played / cpu}


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process and its descendants (Linux), or None."""
    tick = os.sysconf("SC_CLK_TCK")
    total, todo, seen = 0.0, [pid], set[int]()
    try:
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    except (OSError, ValueError, IndexError):
        return None
    return total


def _sched_seconds(pid: int) -> dict[int, tuple[float, float]] | None:
    """For a process and each of its descendants, the seconds its main thread ran on a CPU and
    waited for one while runnable (Linux ``schedstat``), or None. The main thread is the one
    that plays a worker process's tasks (its other threads — heartbeats, the reaper — wake
    often and wait a little each time, which says nothing of the work). The waiting is the
    machine's load: a wall time less it is what the same work would take with a core free for
    each process."""
    out: dict[int, tuple[float, float]] = {}
    todo = [pid]
    try:
        while todo:
            current = todo.pop()
            if current in out:
                continue
            ran, waited, _ = Path(f"/proc/{current}/schedstat").read_text().split()
            out[current] = (int(ran) / 1e9, int(waited) / 1e9)
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    except (OSError, ValueError):
        return None
    return out


class Command(BaseCommand):
    help = ("Benchmark the simulation service: a run of N games on W worker processes, per "
            "broker; prints wall time, games/s and efficiency against the in-process engine.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=10_000)
        parser.add_argument("--workers", type=int, default=2, help="worker processes")
        parser.add_argument("--agent", default=DEFAULT_AGENT)
        parser.add_argument("--deck-a", default="Ember Rush")
        parser.add_argument("--deck-b", default="Tidewall")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--chunk-size", type=int, default=None)
        parser.add_argument("--baseline-games", type=int, default=2000,
                            help="games played in-process to measure the engine's rate")
        parser.add_argument("--brokers", default="filesystem,redis",
                            help="comma-separated: filesystem, redis, rabbitmq")
        parser.add_argument("--redis-url", default=os.environ.get(
            "CARDLAB_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0"))
        parser.add_argument("--rabbitmq-url", default=os.environ.get(
            "CARDLAB_BENCH_RABBITMQ_URL", "amqp://guest:guest@127.0.0.1:5672//"))
        parser.add_argument("--database-url", default="",
                            help="a PostgreSQL URL to bench on a fresh database beside it "
                                 "(default: a fresh SQLite file)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        self._say(opts, f"load average before: {self._load()}")
        baseline = _in_process(opts, 1)
        self._say(opts, f"in-process engine: {baseline['games_per_s']:.1f} games/s on one "
                        f"process, {baseline['games_per_cpu_s']:.1f} games per CPU second "
                        f"({baseline['games']} of the run's games, {opts['deck_a']} vs "
                        f"{opts['deck_b']}, {opts['agent']})")
        rows: list[dict[str, Any]] = []
        for broker in [b.strip() for b in opts["brokers"].split(",") if b.strip()]:
            if broker not in ("filesystem", "redis", "rabbitmq"):
                raise CommandError(f"--brokers: unknown broker {broker!r}")
            row = self._bench(broker, opts, baseline)
            rows.append(row)
            self._say(opts, self._line(row))
        self._say(opts, f"load average after: {self._load()}")
        if opts["json"]:
            self.stdout.write(json.dumps({"baseline": baseline, "runs": rows}, sort_keys=True))

    @staticmethod
    def _load() -> str:
        try:
            return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"
        except OSError:
            return "n/a"

    def _say(self, opts: Mapping[str, Any], text: str) -> None:
        if not opts["json"]:
            self.stdout.write(text)

    @staticmethod
    def _line(row: Mapping[str, Any]) -> str:
        if "error" in row:
            return f"{row['broker']:<10} skipped: {row['error']}"
        now = row["same_moment"]
        line = (f"{row['broker']:<10} {row['games']} games, {row['workers']} worker processes, "
                f"chunks of {row['chunk_size']}: wall {row['wall_s']:.2f} s, "
                f"{row['games_per_s']:.1f} games/s, efficiency {row['efficiency']:.2f}\n"
                f"{'':<10} same moment in-process on {now['processes']} processes: "
                f"{now['games_per_s']:.1f} games/s → efficiency now {row['efficiency_now']:.2f}")
        if row.get("cpu_efficiency") is not None:
            line += (f"; CPU efficiency {row['cpu_efficiency']:.2f}; the workers got "
                     f"{row['cpu_share']:.0%} of {row['workers']} cores")
        return line

    def _bench(self, broker: str, opts: Mapping[str, Any], baseline: InProcess
               ) -> dict[str, Any]:
        """The broker's row of the report (JSON with --json), or the reason it was skipped."""
        row: dict[str, Any] = {"broker": broker, "games": opts["games"],
                               "workers": opts["workers"]}
        broker_url = {"filesystem": "", "redis": opts["redis_url"],
                      "rabbitmq": opts["rabbitmq_url"]}[broker]
        if broker_url:
            from kombu import Connection

            try:
                with Connection(broker_url, connect_timeout=3) as conn:
                    conn.ensure_connection(max_retries=1)
            except Exception as exc:
                return {**row, "error": f"{broker} at {broker_url} is not reachable ({exc})"}
        with tempfile.TemporaryDirectory(prefix="cardlab-bench-") as root:
            sandbox = Sandbox(Path(root), database_url=opts["database_url"],
                              broker_url=broker_url)
            try:
                sandbox.install()
                worker = sandbox.worker("bench", pool="prefork", concurrency=opts["workers"])
                sandbox.wait_ready("bench", timeout=120)
                self._play(sandbox, opts, games=max(2, opts["workers"]) * 20)   # warm-up
                same_moment = _in_process(opts, opts["workers"])
                cpu_before = _cpu_seconds(worker.pid)
                uid, chunk_size = self._play(sandbox, opts, games=opts["games"])
                cpu_after = _cpu_seconds(worker.pid)
                run = sandbox.run_row(uid)
            finally:
                sandbox.drop()
        wall = (_parse_time(run["finished_at"]) - _parse_time(run["created_at"])).total_seconds()
        rate = run["games_done"] / wall
        row.update({"chunk_size": chunk_size, "wall_s": wall, "games_per_s": rate,
                    "efficiency": rate / (baseline["games_per_s"] * opts["workers"]),
                    "same_moment": same_moment,
                    "efficiency_now": rate / same_moment["games_per_s"],
                    "status": run["status"], "cpu_s": None, "cpu_efficiency": None,
                    "cpu_share": None})
        if cpu_before is not None and cpu_after is not None and cpu_after > cpu_before:
            cpu = cpu_after - cpu_before   # includes polling between the warm-up and the run
            row.update({"cpu_s": cpu,
                        "cpu_efficiency": (run["games_done"] / cpu
                                           / same_moment["games_per_cpu_s"]),
                        "cpu_share": cpu / (wall * opts["workers"])})
        return row

    def _play(self, sandbox: Sandbox, opts: Mapping[str, Any], *, games: int
              ) -> tuple[str, int]:
        args = ["--deck-a", opts["deck_a"], "--deck-b", opts["deck_b"], "--games", str(games),
                "--seed", str(opts["seed"]), "--agent-a", opts["agent"], "--agent-b",
                opts["agent"]]
        if opts["chunk_size"]:
            args += ["--chunk-size", str(opts["chunk_size"])]
        uid = sandbox.submit(*args)
        sandbox.wait(lambda: sandbox.run_row(uid)["status"] not in ("queued", "running"),
                     timeout=3600, what=f"run {uid}", poll=0.2)
        status = sandbox.run_row(uid)["status"]
        if status != "done":
            raise CommandError(f"run {uid} ended {status}")
        (size,) = sandbox.query("SELECT chunk_size FROM simulations_simulationrun WHERE uid = ?",
                                uid)[0]
        return uid, size
