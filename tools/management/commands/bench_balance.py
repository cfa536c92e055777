"""python manage.py bench_balance — how a balance search and a planner run scale with worker
processes.

In a sandbox (a fresh database and queue: the site's data is never touched) with the core set
loaded, it submits the same fixed-budget search (``balance_search --via-celery``; by default
the issue's target: every starter deck, the meta objective, ``--budget-games 40000
--verify-games 400 --max-changes 3 --seed 7``) to one Celery worker of 1 process, then of
``--workers`` processes (``--repeat`` times, side by side), and reads each job's wall time from
the database (submission to finish). The job's games are fanned out as pieces any worker
process plays (``balance.pieces``), so the second should take about 1/W of the first.

The machine may be busy with other work, which no wall-clock figure hides. So before each
timed search the command runs the same search in this process on as many processes
(``LocalEvaluator``: the "same-moment" figure), reads the CPU time the worker used and the time
its processes waited for a CPU while runnable (Linux ``/proc``: ``schedstat``), and prints the
load average. On a machine whose cores other sessions keep busy, Linux's scheduler gives each
session (``sched_autogroup``) an equal share, so a session's second process adds nothing: the
wait says so, and the wall time less each process's mean wait is the figure for free cores.
Figures are printed, never asserted; the searches' results are compared (the same seed and
budget must give the same search whatever the number of processes).

On the same workers it then times a simulation run of ``--planner-games`` games (20,000 by
default) between two planner agents (``simulate --via-celery``), the slow agent a designer's
search would use: its chunks fan out to every worker process. Its same-moment figure is the
engine's rate in this process on as many processes, measured on ``--planner-sample-games`` of
the run's own games spread over the whole run (``bench_simulations``): playing all of them again
in-process would double an hour's benchmark. The runs' results are compared too.
``--planner-games 0`` leaves the planner run out.

``--hosts N`` (root, ``ip``) runs the W processes as N workers of W ÷ N processes, each in a
network namespace of its own (``tools.netns``: a bridge on a private /24 whose first address is
the host side's), so they reach the broker and the database over a link as workers on other
machines would; the 1-process row runs on the first host. A ``--broker-url redis://`` naming the
host side's address gets a sandbox redis-server listening there when none answers; a PostgreSQL
``--database-url`` on the loopback is reached through a relay on the host side's address (the
server's ``listen_addresses`` changes only with a restart). With SQLite and the filesystem
broker the hosts share this machine's filesystem: their link carries nothing. The CPU time of
each host's worker is printed. The namespaces, links and bridge are removed when the command
ends, on an error or a SIGTERM too.
"""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from collections.abc import Mapping
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Any, TypedDict

from django.core.management.base import BaseCommand, CommandError, CommandParser

from balance.models import BalanceJob
from balance.search.problem import search_problem
from rules.lab.balance_search import LocalEvaluator, balance_search
from tools.bench_workers import WorkerSet, host_side
from tools.management.commands.bench_simulations import _in_process
from tools.netns import (
    DEFAULT_SUBNET,
    HostsUnavailable,
    NetnsHost,
    namespace_hosts,
    terminate_as_exit,
)
from tools.sandbox import DbTime, Sandbox

JOB_FIELDS = ("status", "created_at", "finished_at", "games_played", "result", "decks",
              "cards", "agent", "seed", "max_changes", "allowed_cards", "fields", "spread",
              "budget_games", "verify_games", "objective", "band_low", "band_high",
              "field_band_low", "field_band_high", "matchup_band_low", "matchup_band_high",
              "epsilon", "min_share")
# A balance_balancejob row by JOB_FIELDS, its JSON columns decoded: all but the outcome go back
# into BalanceJob(**...) as the model's own fields, so each value has its field's type.
JobRow = dict[str, Any]
PLANNER_DECKS = "Ember Rush,Tidewall"   # the planner run's pairing when no decks are named


class SearchInProcess(TypedDict):
    """The same search run in this process (``Command._in_process``)."""

    processes: int
    wall_s: float
    games: int


def _time(value: DbTime) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} cores"
    except OSError:
        return "n/a"


class Command(BaseCommand):
    help = ("Benchmark a balance search on 1 and W worker processes (its games fanned out); "
            "prints wall times, the speed-up, a same-moment in-process figure and CPU time.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--workers", type=int, default=2, help="processes of the 2nd run")
        parser.add_argument("--agent", default="greedy")
        parser.add_argument("--decks", default="",
                            help="comma-separated starter decks of the core set (default: "
                                 "every starter deck, as balance_search)")
        parser.add_argument("--budget-games", type=int, default=40_000)
        parser.add_argument("--verify-games", type=int, default=400)
        parser.add_argument("--max-changes", type=int, default=3)
        parser.add_argument("--objective", default="meta", choices=("band", "meta"))
        parser.add_argument("--seed", type=int, default=7)
        parser.add_argument("--repeat", type=int, default=1,
                            help="time 1 and W processes this many times, side by side "
                                 "(1, W, 1, W …): the machine's load changes between runs")
        parser.add_argument("--planner-games", type=int, default=20_000,
                            help="games of the planner run on the same workers (0: none)")
        parser.add_argument("--planner-sample-games", type=int, default=200,
                            help="the planner run's games played in-process for its "
                                 "same-moment rate")
        parser.add_argument("--broker-url", default="",
                            help="a broker for the sandbox (default: the filesystem broker)")
        parser.add_argument("--database-url", default="",
                            help="a PostgreSQL URL to bench on a fresh database beside it "
                                 "(default: a fresh SQLite file)")
        parser.add_argument("--hosts", type=int, default=0,
                            help="run the --workers processes as this many workers, each in "
                                 "a network namespace of its own reaching the broker and the "
                                 "database over a link (root and `ip` needed; 0: all on this "
                                 "host). With SQLite and the filesystem broker the hosts "
                                 "share this machine's filesystem; give --broker-url "
                                 "redis://<host side address>:6379/N for a network broker")
        parser.add_argument("--hosts-subnet", default=DEFAULT_SUBNET,
                            help="the private /24 of the hosts; its first address is the "
                                 "host side's, where the broker and database are reached")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["hosts"] and max(1, opts["workers"]) % opts["hosts"]:
            raise CommandError("--workers must be a multiple of --hosts")
        self._say(opts, f"load average before: {_load()}")
        rows: list[dict[str, Any]] = []
        with ExitStack() as stack:
            hosts: list[NetnsHost] = []
            if opts["hosts"]:
                terminate_as_exit()
                try:
                    hosts = stack.enter_context(namespace_hosts(opts["hosts"],
                                                                opts["hosts_subnet"]))
                except HostsUnavailable as exc:
                    raise CommandError(str(exc)) from None
                self._say(opts, f"hosts: {', '.join(f'{h.name} ({h.address})' for h in hosts)}"
                                f"; the host side at {hosts[0].gateway}")
            root = stack.enter_context(
                tempfile.TemporaryDirectory(prefix="cardlab-bench-balance-"))
            sandbox = Sandbox(Path(root), database_url=opts["database_url"],
                              broker_url=opts["broker_url"])
            stack.callback(sandbox.drop)
            env = host_side(stack, sandbox, hosts, opts["broker_url"],
                            say=lambda text: self._say(opts, text))
            sandbox.install()
            reference = self._submit(sandbox, opts)   # frozen by the sandbox, not played
            sandbox.execute("UPDATE balance_balancejob SET status = 'cancelled' "
                            "WHERE uid = ?", reference)
            job = self._job(sandbox, reference)
            for _ in range(max(1, opts["repeat"])):
                for processes in sorted({1, max(1, opts["workers"])}):
                    workers = WorkerSet(sandbox, f"bench{processes}", processes, hosts, env)
                    rows.append(self._bench(sandbox, opts, workers, job))
                    self._say(opts, self._line(rows[-1]))
        summary = self._summary(opts, rows)
        self._say(opts, f"load average after: {_load()}")
        if opts["json"]:
            for row in rows:
                row.pop("result")
                if row.get("planner"):
                    row["planner"].pop("result")
            self.stdout.write(json.dumps({"runs": rows, **summary}, sort_keys=True))

    def _bench(self, sandbox: Sandbox, opts: Mapping[str, Any], workers: WorkerSet,
               job: JobRow) -> dict[str, Any]:
        """The row of ``workers``: the search (and the planner run) on them, beside the
        same-moment figures in this process."""
        processes = workers.processes
        try:
            workers.start()
            in_process = self._in_process(job, processes)
            load = _load()
            workers.mark()
            uid = self._submit(sandbox, opts)
            sandbox.wait(lambda: self._job(sandbox, uid)["status"] not in ("queued", "running"),
                         timeout=7200, what=f"balance search {uid}", poll=0.5)
            workers.measure()
            job = self._job(sandbox, uid)
            wall = (_time(job["finished_at"]) - _time(job["created_at"])).total_seconds()
            hosts = workers.per_host(wall)
            cpu, waited = workers.cpu_s(), workers.waited_s()
            planner = self._planner(sandbox, opts, workers) \
                if opts["planner_games"] > 0 else None
        finally:
            workers.stop()
        return {"processes": processes, "status": job["status"], "wall_s": wall,
                "games": job["games_played"], "games_per_s": job["games_played"] / wall,
                "cpu_s": cpu, "cpu_share": cpu / (wall * processes) if cpu else None,
                "waited_s": waited, "hosts": hosts if workers.hosts else None,
                "uncontended_s": wall - waited if waited is not None else None,
                "load": load, "in_process": in_process, "result": job["result"],
                "planner": planner}

    @staticmethod
    def _planner(sandbox: Sandbox, opts: Mapping[str, Any], workers: WorkerSet
                 ) -> dict[str, Any]:
        """A planner-vs-planner run of ``--planner-games`` games on the worker, after the
        engine's rate in this process on as many processes at the same moment."""
        deck_a, deck_b = ((opts["decks"] or PLANNER_DECKS).split(",") * 2)[:2]
        sample: dict[str, Any] = {
            "deck_a": deck_a, "deck_b": deck_b, "agent": "planner", "seed": opts["seed"],
            "games": opts["planner_games"],
            "baseline_games": max(2, opts["planner_sample_games"])}
        processes = workers.processes
        in_process = _in_process(sample, processes)
        load = _load()
        workers.mark()
        uid = sandbox.submit("--deck-a", deck_a, "--deck-b", deck_b, "--games",
                             str(opts["planner_games"]), "--seed", str(opts["seed"]),
                             "--agent-a", "planner", "--agent-b", "planner")
        sandbox.wait(lambda: sandbox.run_row(uid)["status"] not in ("queued", "running"),
                     timeout=14_400, what=f"planner run {uid}", poll=0.5)
        workers.measure()
        run = sandbox.run_row(uid)
        wall = (_time(run["finished_at"]) - _time(run["created_at"])).total_seconds()
        cpu = workers.cpu_s()
        return {"status": run["status"], "deck_a": deck_a, "deck_b": deck_b, "wall_s": wall,
                "games": run["games_done"], "games_per_s": run["games_done"] / wall,
                "cpu_s": cpu, "cpu_share": cpu / (wall * processes) if cpu else None,
                "load": load, "in_process": in_process, "result": sandbox.result_counts(uid)}

    def _summary(self, opts: Mapping[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
        """The speed-ups of each W-process row over the 1-process row before it (the search's
        and the planner run's), each beside the in-process one at the same moments, their
        median, and the same with each wall time less the time the processes waited for a
        CPU (``uncontended``); whether every row found the same."""
        pairs = list(zip(rows[0::2], rows[1::2], strict=False))
        if not pairs or len(rows) % 2:
            return {}
        ups = [one["wall_s"] / many["wall_s"] for one, many in pairs]
        ups_in = [one["in_process"]["wall_s"] / many["in_process"]["wall_s"]
                  for one, many in pairs]
        free = [one["uncontended_s"] / many["uncontended_s"] for one, many in pairs
                if one.get("uncontended_s") and many.get("uncontended_s")]
        summary: dict[str, Any] = {
            "speed_up": statistics.median(ups), "speed_ups": ups,
            "speed_up_in_process": statistics.median(ups_in),
            "speed_up_uncontended": statistics.median(free) if free else None,
            "same_result": all(row["result"] == rows[0]["result"] for row in rows)}
        processes = pairs[0][1]["processes"]
        each = ", ".join(f"{up:.2f}×" for up in ups)
        self._say(opts, f"speed-up with {processes} processes: "
                        f"{summary['speed_up']:.2f}× (median of {each}; in-process at the same "
                        f"moments: {summary['speed_up_in_process']:.2f}×); the same search: "
                        f"{'yes' if summary['same_result'] else 'NO'}")
        if free:
            self._say(opts, f"  less the time the processes waited for a CPU (the machine's "
                            f"load): {summary['speed_up_uncontended']:.2f}× (median of "
                            f"{', '.join(f'{up:.2f}×' for up in free)})")
        one, two = pairs[0][0]["planner"], pairs[0][1]["planner"]
        if one and two:
            summary.update(
                planner_speed_up=one["wall_s"] / two["wall_s"],
                planner_speed_up_in_process=(two["in_process"]["games_per_s"]
                                             / one["in_process"]["games_per_s"]),
                planner_same_result=one["result"] == two["result"])
            self._say(opts, f"planner run with {processes} processes: "
                            f"{summary['planner_speed_up']:.2f}× (in-process at the same "
                            f"moments: {summary['planner_speed_up_in_process']:.2f}×); the "
                            f"same results: {'yes' if summary['planner_same_result'] else 'NO'}")
        return summary

    def _submit(self, sandbox: Sandbox, opts: Mapping[str, Any]) -> str:
        decks = ["--decks", *opts["decks"].split(",")] if opts["decks"] else []
        return sandbox.manage(
            "balance_search", "--via-celery", "--no-wait", *decks,
            "--agent", opts["agent"], "--objective", opts["objective"], "--budget-games",
            str(opts["budget_games"]), "--verify-games", str(opts["verify_games"]),
            "--max-changes", str(opts["max_changes"]), "--seed", str(opts["seed"])).strip()

    @staticmethod
    def _job(sandbox: Sandbox, uid: str) -> JobRow:
        row = sandbox.query(f"SELECT {', '.join(JOB_FIELDS)} FROM balance_balancejob "
                            "WHERE uid = ?", uid)[0]
        out = dict(zip(JOB_FIELDS, row, strict=True))
        for key in ("result", "decks", "cards", "allowed_cards", "fields"):
            if isinstance(out[key], str):
                out[key] = json.loads(out[key])
        return out

    @staticmethod
    def _in_process(job: JobRow, processes: int) -> SearchInProcess:
        """The same search in this process, its games on ``processes`` processes."""
        frozen = BalanceJob(**{k: v for k, v in job.items()
                               if k not in ("status", "created_at", "finished_at",
                                            "games_played", "result")})
        problem = search_problem(frozen)
        start = time.perf_counter()
        with LocalEvaluator(problem.field, processes=processes) as evaluator:
            result = balance_search(problem, evaluator)
        return {"processes": processes, "wall_s": time.perf_counter() - start,
                "games": result.games_searched + result.games_verified}

    @staticmethod
    def _timed(what: str, run: Mapping[str, Any], processes: int) -> str:
        """How ``what`` went on the worker: its wall time, games, rate, CPU time and the load."""
        cpu = (f"; the worker used {run['cpu_s']:.1f} CPU s ({run['cpu_share']:.0%} of "
               f"{processes} cores)" if run["cpu_s"] else "")
        if run.get("waited_s") is not None:
            cpu += (f", each of its processes waited {run['waited_s']:.1f} s for a CPU "
                    f"(the load): {run['uncontended_s']:.1f} s without that wait")
        return (f"{what} {run['status']} in {run['wall_s']:.1f} s, {run['games']:,} games, "
                f"{run['games_per_s']:.2f} games/s{cpu}; load {run['load']}")

    @staticmethod
    def _line(row: Mapping[str, Any]) -> str:
        now = row["in_process"]
        line = (Command._timed(f"{row['processes']} process(es): search", row, row["processes"])
                + f"\n    same moment in-process on {now['processes']} process(es): "
                  f"{now['wall_s']:.1f} s for {now['games']:,} games")
        for host in row.get("hosts") or []:
            used = (f"{host['cpu_s']:.1f} CPU s ({host['cpu_share']:.0%} of its "
                    f"{host['processes']} process(es)' time)" if host["cpu_s"] else "CPU n/a")
            wait = (f", each process waited {host['waited_s']:.1f} s for a CPU"
                    if host["waited_s"] is not None else "")
            line += f"\n    host {host['host']}: {used}{wait}"
        run = row.get("planner")
        if not run:
            return line
        now = run["in_process"]
        return (line + "\n" + Command._timed(f"  planner run {run['deck_a']} vs {run['deck_b']}:",
                                             run, row["processes"])
                + f"\n    same moment in-process on {now['processes']} process(es): "
                  f"{now['games_per_s']:.2f} games/s ({now['games']:,} of the run's games)")

    def _say(self, opts: Mapping[str, Any], text: str) -> None:
        if not opts["json"]:
            self.stdout.write(text)
