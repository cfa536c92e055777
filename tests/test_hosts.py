"""Workers on separate hosts: two Celery workers, each in a network namespace of its own
(tests/hosts.py) with its own CARDLAB_VAR_DIR, reach PostgreSQL and the broker only over a
virtual link, as workers on other machines would. A simulation run and a balance search
submitted on this host finish on them with exactly the in-process figures.

It needs what several machines need: a PostgreSQL server and a network broker (Redis or
RabbitMQ) — CI's PostgreSQL + Redis leg — and root, to make the namespaces. Otherwise it skips
and says why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid

import pytest

from tests.balance.test_faults import SEARCH, _in_process_result, _job
from tests.hosts import Relay, separate_hosts
from tests.simulations.helpers import reference_counts
from tools.sandbox import Sandbox

RUN = ("--deck-a", "Dawn Test", "--deck-b", "Dusk Test", "--games", "40", "--seed", "7",
       "--agent-a", "greedy", "--agent-b", "random", "--chunk-size", "4")
DATABASE_URL = os.environ.get("DATABASE_URL", "")
BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")


def _postgres_problem() -> str | None:
    if not DATABASE_URL.startswith(("postgres://", "postgresql://")):
        return ("workers on separate hosts share one database server: run with "
                "DATABASE_URL=postgres://… (CI's PostgreSQL + Redis leg)")
    import psycopg

    try:
        psycopg.connect(DATABASE_URL.replace("postgres://", "postgresql://", 1),
                        connect_timeout=5).close()
    except psycopg.OperationalError as exc:
        return f"PostgreSQL is not reachable at DATABASE_URL: {exc}"
    return None


def _broker_problem() -> str | None:
    if not BROKER_URL.startswith(("redis://", "amqp://", "pyamqp://")):
        return ("workers on separate hosts share one network broker: run with "
                "CELERY_BROKER_URL=redis://… or amqp://… (the filesystem broker is one "
                "machine's folder)")
    return None


@pytest.fixture
def linked_hosts():
    """Two separate hosts and the relay that leads them to this machine's servers."""
    problem = _postgres_problem() or _broker_problem()
    if problem:
        pytest.skip(problem)
    with separate_hosts(2) as made:
        relay = Relay()
        try:
            yield made, relay
        finally:
            relay.close()


@pytest.fixture
def cluster(linked_hosts, tmp_path):
    """A sandbox (fresh database and queue) whose workers start on the separate hosts."""
    sandbox = Sandbox(tmp_path / "web", database_url=DATABASE_URL, broker_url=BROKER_URL)
    sandbox.queue = f"hosts{uuid.uuid4().hex[:10]}"
    sandbox.env["CARDLAB_CELERY_QUEUE"] = sandbox.queue
    try:
        sandbox.install("rules/data/test_set.yaml")
        yield *linked_hosts, sandbox
    finally:
        sandbox.drop()


def _start_workers(tmp_path, hosts, relay, sandbox) -> None:
    for index, host in enumerate(hosts, start=1):
        env = {"CARDLAB_VAR_DIR": str(tmp_path / f"host{index}-var"),   # no shared var/
               "DATABASE_URL": host.url(sandbox.database_url, relay),
               "CELERY_BROKER_URL": host.url(BROKER_URL, relay)}
        if os.environ.get("CACHE_URL"):
            env["CACHE_URL"] = host.url(os.environ["CACHE_URL"], relay)
        sandbox.worker(f"host{index}", prefix=host.command([]), **env)
    for index in range(1, len(hosts) + 1):
        sandbox.wait_ready(f"host{index}")


def test_a_host_reaches_the_servers_only_through_its_link(linked_hosts):
    hosts, relay = linked_hosts
    probe = ("import socket, sys\n"
             "for address in sys.argv[1:]:\n"
             "    host, port = address.rsplit(':', 1)\n"
             "    try:\n"
             "        socket.create_connection((host, int(port)), timeout=3).close()\n"
             "        print(address, 'open')\n"
             "    except OSError:\n"
             "        print(address, 'closed')\n")
    port = relay.port_for(hosts[0].gateway, "127.0.0.1", 5432)
    out = subprocess.run(hosts[0].command([sys.executable, "-c", probe, "127.0.0.1:5432",
                                           f"{hosts[0].gateway}:{port}"]),
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.split("\n")[:2] == ["127.0.0.1:5432 closed", f"{hosts[0].gateway}:{port} open"]


def test_a_run_and_a_search_on_two_separate_hosts_find_the_in_process_results(cluster,
                                                                              tmp_path):
    hosts, relay, sandbox = cluster
    _start_workers(tmp_path, hosts, relay, sandbox)

    uid = sandbox.submit(*RUN)
    sandbox.wait(lambda: sandbox.run_row(uid)["status"] == "done", what="the run to finish")
    assert sandbox.result_counts(uid) == [reference_counts("Dawn Test", "Dusk Test", seed=7,
                                                           games=40)]
    run_id = sandbox.run_row(uid)["id"]
    players = sandbox.query("SELECT DISTINCT worker FROM simulations_chunk WHERE run_id = ?",
                            run_id)
    assert {worker.split("@")[0] for (worker,) in players} == {"host1", "host2"}

    search = json.loads(sandbox.manage("balance_search", "--via-celery", "--json", *SEARCH))
    (job_uid,) = sandbox.query("SELECT uid FROM balance_balancejob ORDER BY id DESC LIMIT 1")[0]
    job = _job(sandbox, job_uid)
    assert job["status"] == "done" and search == job["result"] == _in_process_result(job)
    pieces = sandbox.query("SELECT DISTINCT p.worker FROM balance_jobpiece p JOIN "
                           "balance_balancejob j ON j.id = p.job_id WHERE j.uid = ?", job_uid)
    assert {w.split("@")[0] for (w,) in pieces} | {job["worker"].split("@")[0]} <= {
        "host1", "host2"}
    assert all(relay.relayed.get(host.gateway) for host in hosts)   # both used their link
    assert not any((tmp_path / f"host{i}-var" / "db.sqlite3").exists() for i in (1, 2))
