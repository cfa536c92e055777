"""A Cardlab installation of its own, for the benchmark and the fault tests: a fresh database
(an SQLite file, or a new PostgreSQL database next to the one ``DATABASE_URL`` names), the
filesystem broker's data in a folder of its own or a queue of its own on a shared Redis, real
worker processes (``celery -A config worker``) and ``manage.py`` commands run as subprocesses.

Nothing here touches the site's own database or queue.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any, TypedDict
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent

# A time as the sandbox's database returns it: SQLite keeps text, PostgreSQL gives a datetime;
# None while it is unset.
DbTime = datetime | str | None


class RunRow(TypedDict):
    """The columns ``run_row`` reads of a simulation run."""

    id: int
    status: str
    games_done: int
    created_at: DbTime
    started_at: DbTime
    finished_at: DbTime


class Sandbox:
    def __init__(self, root: Path, *, database_url: str = "", broker_url: str = "",
                 env: dict[str, str] | None = None) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.queue = f"sandbox{uuid.uuid4().hex[:10]}"
        self.pg_name: str | None = None
        if database_url.startswith(("postgres://", "postgresql://")):
            self.pg_name = f"cardlab_sandbox_{uuid.uuid4().hex[:10]}"
            self.pg_admin = _with_db(database_url, "postgres")
            self.database_url = _with_db(database_url, self.pg_name)
            self._pg(f'CREATE DATABASE "{self.pg_name}"')
        else:
            self.database_url = f"sqlite:///{self.root / 'db.sqlite3'}"
        self.env = {**os.environ, "CARDLAB_VAR_DIR": str(self.root),
                    "DATABASE_URL": self.database_url, "CARDLAB_CELERY_QUEUE": self.queue,
                    "PYTHONUNBUFFERED": "1", **(env or {})}
        self.env.pop("DJANGO_SETTINGS_MODULE", None)
        if broker_url:
            self.env["CELERY_BROKER_URL"] = broker_url
        else:
            self.env.pop("CELERY_BROKER_URL", None)
        self.processes: list[subprocess.Popen[bytes]] = []

    # --- setting up and tearing down

    def install(self, card_set: str = "") -> None:
        self.manage("migrate", "-v", "0")
        self.manage("load_cards", *([card_set] if card_set else []))

    def _pg(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(_psycopg_url(self.pg_admin), autocommit=True) as conn:
            conn.execute(sql)

    def stop(self) -> None:
        for process in reversed(self.processes):    # the workers before their broker
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        self.processes.clear()

    def drop(self) -> None:
        self.stop()
        self.drop_queue()
        if self.pg_name:
            self._pg(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)')

    def drop_queue(self) -> None:
        """Delete the sandbox's queue from a shared broker (RabbitMQ keeps a durable queue, and
        its messages, after every consumer left)."""
        url = self.env.get("CELERY_BROKER_URL", "")
        if not url.startswith(("amqp://", "pyamqp://", "redis://")):
            return
        from kombu import Connection

        try:
            with Connection(url, connect_timeout=5) as conn:
                # kombu's stubs type the channel as the abstract StdChannel, which declares no
                # queue_delete; the channel of every transport accepted above has it.
                conn.default_channel.queue_delete(self.queue)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 (a broker that is away keeps nothing worth a failure)
            pass

    # --- processes

    def manage(self, *args: str, **env: str) -> str:
        result = subprocess.run([sys.executable, "manage.py", *args], cwd=REPO,
                                env={**self.env, **env}, capture_output=True, text=True,
                                timeout=600)
        if result.returncode != 0:
            raise RuntimeError(f"manage.py {' '.join(args)} failed:\n"
                               f"{result.stdout}{result.stderr}")
        return result.stdout

    def worker(self, name: str, *, pool: str = "solo", concurrency: int = 1,
               prefix: Sequence[str] = (), **env: str) -> subprocess.Popen[bytes]:
        """A worker process named ``name@<hostname>``; ``prefix`` runs it inside another
        command (``ip netns exec NAME``: a worker on a test host of its own)."""
        log = open(self.log_path(name), "w")  # noqa: SIM115 (lives as long as the process)
        process = subprocess.Popen(
            [*prefix, sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", pool,
             "--concurrency", str(concurrency), "-n", f"{name}@%h", "-Q", self.queue,
             "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "info"],
            cwd=REPO, env={**self.env, **env}, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)
        return process

    def start_redis(self, address: str, port: int = 6379) -> subprocess.Popen[bytes]:
        """A throwaway redis-server of the sandbox's own that listens on ``address`` only (the
        host side address of ``tools.netns`` hosts, where other hosts reach it), its data in
        memory; stopped with the sandbox's other processes."""
        log = open(self.log_path("redis"), "w")  # noqa: SIM115 (lives as long as the process)
        process = subprocess.Popen(
            ["redis-server", "--bind", address, "--port", str(port), "--save", "",
             "--appendonly", "no", "--dir", str(self.root), "--protected-mode", "no"],
            cwd=self.root, stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)
        self.wait(lambda: answers(address, port), timeout=30, what=f"redis-server on {address}")
        return process

    def start_measured_workers(self, name: str, processes: int) -> None:
        """Install, start a prefork worker of ``processes`` and wait until it has measured its
        pace (the benchmarks' estimates and chunk sizes read that measurement)."""
        self.install()
        self.worker(name, pool="prefork", concurrency=processes)
        self.wait_ready(name)
        self.wait(lambda: self.query("SELECT COUNT(*) FROM simulations_pacecalibration")[0][0],
                  timeout=120, what="the worker's pace measurement", poll=0.2)

    def log_path(self, name: str) -> Path:
        return self.root / f"{name}.log"

    def wait_ready(self, name: str, timeout: float = 180) -> None:
        self.wait(lambda: "ready." in self.log_path(name).read_text(), timeout=timeout,
                  what=f"worker {name} to start")

    def submit(self, *args: str, **env: str) -> str:
        """``simulate --via-celery --no-wait``; returns the run's uid."""
        out = self.manage("simulate", "--via-celery", "--no-wait", "--json", *args, **env)
        uid: str = json.loads(out)["uid"]
        return uid

    def wait(self, condition: Callable[[], object], *, timeout: float = 240, what: str = "",
             poll: float = 0.05) -> None:
        """Poll ``condition`` until it holds; a TimeoutError with the logs after ``timeout``
        seconds (generous: the tests also run beside a CPU hog)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if condition():
                return
            time.sleep(poll)
        logs = "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}"
                         for p in sorted(self.root.glob("*.log")))
        raise TimeoutError(f"timed out waiting for {what}\n{logs}")

    # --- reading its database

    def query(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        """Plain SQL with ``?`` placeholders, on either database."""
        if self.pg_name:
            import psycopg

            with psycopg.connect(_psycopg_url(self.database_url)) as conn:
                return conn.execute(sql.replace("?", "%s"), params).fetchall()
        import sqlite3

        with closing(sqlite3.connect(self.root / "db.sqlite3", timeout=20)) as conn:
            return conn.execute(sql, params).fetchall()

    def execute(self, sql: str, *params: object) -> None:
        """A plain SQL write with ``?`` placeholders, committed, on either database."""
        if self.pg_name:
            import psycopg

            with psycopg.connect(_psycopg_url(self.database_url)) as conn:
                conn.execute(sql.replace("?", "%s"), params)
            return
        import sqlite3

        with closing(sqlite3.connect(self.root / "db.sqlite3", timeout=20)) as conn:
            conn.execute(sql, params)
            conn.commit()

    def run_row(self, uid: str) -> RunRow:
        (id_, status, games_done, created_at, started_at, finished_at) = self.query(
            "SELECT id, status, games_done, created_at, started_at, finished_at "
            "FROM simulations_simulationrun WHERE uid = ?", uid)[0]
        return {"id": id_, "status": status, "games_done": games_done, "created_at": created_at,
                "started_at": started_at, "finished_at": finished_at}

    def result_counts(self, uid: str) -> list[dict[str, Any]]:
        """Each matchup's raw counts (``rules.lab.stats.MatchStats.counts``), in order."""
        rows = self.query('SELECT m.result FROM simulations_matchup m JOIN '
                          'simulations_simulationrun r ON r.id = m.run_id WHERE r.uid = ? '
                          'ORDER BY m."index"', uid)
        return [(json.loads(r) if isinstance(r, str) else r)["counts"] for (r,) in rows]


def answers(address: str, port: int) -> bool:
    """Whether something accepts TCP connections at ``address:port``."""
    import socket

    try:
        socket.create_connection((address, port), timeout=1).close()
    except OSError:
        return False
    return True


def url_at(url: str, address: str, port: int | None = None) -> str:
    """``url`` with its server's address (and port, when given) replaced, its user kept."""
    parts = urlsplit(url)
    auth = parts.netloc.rpartition("@")[0]
    where = f"{address}:{port or parts.port}" if (port or parts.port) else address
    return urlunsplit(parts._replace(netloc=f"{auth}@{where}" if auth else where))


def _with_db(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def _psycopg_url(url: str) -> str:
    return url.replace("postgres://", "postgresql://", 1)
