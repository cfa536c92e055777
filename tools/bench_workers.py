"""The worker processes a benchmark times: W processes as one Celery worker on this host, or —
given ``tools.netns`` hosts — as one worker of W ÷ N processes on each of the N hosts, each
reaching the broker and the database over its link. Each worker's CPU time (itself and its
pool's processes) and its processes' wait for a CPU are read from Linux's ``/proc``, per host.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from tools.management.commands.bench_simulations import _cpu_seconds, _sched_seconds
from tools.netns import NetnsHost, TcpRelay
from tools.sandbox import Sandbox, answers, url_at

THIS_HOST = "this host"

Sched = dict[int, tuple[float, float]]


@dataclass
class Worker:
    name: str
    host: str
    processes: int
    process: subprocess.Popen[bytes]
    cpu_before: float | None = None
    sched_before: Sched | None = None
    cpu_s: float | None = None
    waited_s: float | None = None


@dataclass
class WorkerSet:
    """``processes`` worker processes in ``sandbox``: on this host when ``hosts`` is empty, else
    spread evenly over the first hosts (one process: the first host alone). ``env`` is what a
    host's workers need in their environment (the database's address as the hosts reach it)."""

    sandbox: Sandbox
    name: str
    processes: int
    hosts: list[NetnsHost] = field(default_factory=list)
    env: Mapping[str, str] = field(default_factory=dict)
    workers: list[Worker] = field(default_factory=list)

    def start(self) -> None:
        used = self.hosts[:self.processes] if self.hosts else []
        share = self.processes // len(used) if used else self.processes
        for index, host in enumerate(used or [None], start=1):
            name = f"{self.name}h{index}" if host else self.name
            process = self.sandbox.worker(
                name, pool="prefork" if share > 1 else "solo", concurrency=share,
                prefix=host.prefix if host else (), **(self.env if host else {}))
            self.workers.append(Worker(name, host.name if host else THIS_HOST, share, process))
        for worker in self.workers:
            self.sandbox.wait_ready(worker.name, timeout=180)

    def mark(self) -> None:
        """Read each worker's CPU time and its processes' waits before the timed work."""
        for worker in self.workers:
            worker.cpu_before = _cpu_seconds(worker.process.pid)
            worker.sched_before = _sched_seconds(worker.process.pid)

    def measure(self) -> None:
        """… and after it: each worker's CPU seconds and its processes' mean wait."""
        for worker in self.workers:
            after = _cpu_seconds(worker.process.pid)
            worker.cpu_s = after - worker.cpu_before \
                if worker.cpu_before is not None and after is not None else None
            worker.waited_s = pool_wait(worker.process.pid, worker.processes,
                                        worker.sched_before, _sched_seconds(worker.process.pid))

    def stop(self) -> None:
        for worker in self.workers:
            worker.process.terminate()
        for worker in self.workers:
            worker.process.wait(timeout=60)

    def cpu_s(self) -> float | None:
        found = [w.cpu_s for w in self.workers]
        return None if any(c is None for c in found) else sum(c or 0.0 for c in found)

    def waited_s(self) -> float | None:
        """The mean wait of every process of every worker."""
        found = [(w.waited_s, w.processes) for w in self.workers]
        if any(wait is None for wait, _ in found):
            return None
        return sum((wait or 0.0) * n for wait, n in found) / sum(n for _, n in found)

    def per_host(self, wall: float) -> list[dict[str, Any]]:
        """Each worker's host, processes, CPU seconds and its share of its cores' time."""
        return [{"host": w.host, "processes": w.processes, "cpu_s": w.cpu_s,
                 "cpu_share": w.cpu_s / (wall * w.processes) if w.cpu_s and wall else None,
                 "waited_s": w.waited_s} for w in self.workers]


def pool_wait(pid: int, processes: int, before: Sched | None, after: Sched | None
              ) -> float | None:
    """The mean seconds the worker's pool processes (the worker itself when solo; its
    children when prefork) waited for a CPU between ``before`` and ``after``
    (``_sched_seconds``); None when Linux did not say."""
    if before is None or after is None:
        return None
    pool = [pid] if processes == 1 else [p for p in after if p != pid and p in before]
    if not pool:
        return None
    return sum(after[p][1] - before[p][1] for p in pool) / len(pool)


def host_side(stack: ExitStack, sandbox: Sandbox, hosts: list[NetnsHost], broker_url: str, *,
              say: Callable[[str], None]) -> dict[str, str]:
    """What the hosts need on the host side: a redis-server at a redis:// ``broker_url`` naming
    the host side's address (when none answers there), a relay to a PostgreSQL on the loopback
    (closed with ``stack``); returns the environment that leads the hosts' workers to the
    database."""
    if not hosts:
        return {}
    gateway = hosts[0].gateway
    broker = urlsplit(broker_url)
    if broker.scheme == "redis" and broker.hostname == gateway \
            and not answers(gateway, broker.port or 6379):
        sandbox.start_redis(gateway, broker.port or 6379)
        say(f"a sandbox redis-server listens on {gateway}:{broker.port or 6379}")
    elif broker.scheme and broker.hostname not in (gateway, None):
        say(f"note: the hosts reach the broker at {broker.hostname} only if it is routed "
            f"from {gateway}")
    if not sandbox.pg_name:
        return {}
    database = urlsplit(sandbox.database_url)
    port = database.port or 5432
    relay = TcpRelay()
    stack.callback(relay.close)
    relay.forward((gateway, port), (database.hostname or "127.0.0.1", port))
    say(f"PostgreSQL reached by the hosts at {gateway}:{port} (relayed to {database.hostname})")
    return {"DATABASE_URL": url_at(sandbox.database_url, gateway)}
