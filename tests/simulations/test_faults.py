"""Faults with real processes: Celery workers started as `celery -A config worker`, a run
submitted with `manage.py simulate --via-celery`, then a worker SIGKILLed in the middle of a
chunk, or the broker restarted (a Redis losing every queued message, a RabbitMQ node delivering
its unacknowledged messages again). Each run must finish with
exactly the figures of the engine's own match runner for the same seed.

They run in a sandbox (tools.sandbox): a fresh database (an SQLite file, or a new
PostgreSQL database when DATABASE_URL names one), the broker's data in a folder of its own or a
queue of its own, short leases, and a short pause before each chunk so that "the middle of a
chunk" is a moment one can hit.
"""

from __future__ import annotations

import os
import signal
import uuid

import pytest

from tests.private_brokers import on_rabbitmq_leg, private_broker
from tests.simulations.helpers import reference_counts
from tools.sandbox import Sandbox

GAMES, CHUNK, SEED = 40, 4, 7
FAST_FAULTS = {"CARDLAB_SIMULATIONS_LEASE_SECONDS": "3",
               "CARDLAB_SIMULATIONS_HEARTBEAT_SECONDS": "0.5",
               "CARDLAB_SIMULATIONS_REAP_SECONDS": "0.5",
               "CARDLAB_SIMULATIONS_STALL_SECONDS": "3",
               "CARDLAB_SIMULATIONS_CHUNK_PAUSE": "0.4"}
RUN = ("--deck-a", "Dawn Test", "--deck-b", "Dusk Test", "--games", str(GAMES), "--seed",
       str(SEED), "--agent-a", "greedy", "--agent-b", "random", "--chunk-size", str(CHUNK))


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """One installation (migrated, test set loaded) for the tests of this module."""
    sandbox = Sandbox(tmp_path_factory.mktemp("faults"),
                      database_url=os.environ.get("DATABASE_URL", ""),
                      broker_url=os.environ.get("CELERY_BROKER_URL", ""), env=FAST_FAULTS)
    try:
        sandbox.install("rules/data/test_set.yaml")
        yield sandbox
    finally:
        sandbox.drop()


@pytest.fixture
def sandbox(installed):
    installed.queue = f"faults{uuid.uuid4().hex[:10]}"
    installed.env["CARDLAB_CELERY_QUEUE"] = installed.queue
    try:
        yield installed
    finally:
        installed.stop()
        installed.drop_queue()


def expected() -> dict:
    return reference_counts("Dawn Test", "Dusk Test", seed=SEED, games=GAMES)


def test_sigkill_a_worker_mid_chunk_and_the_run_still_finds_the_same_figures(sandbox):
    victim = sandbox.worker("victim")
    sandbox.wait_ready("victim")
    uid = sandbox.submit(*RUN)
    run_id = sandbox.run_row(uid)["id"]

    def victim_is_playing():
        return sandbox.query('SELECT "index" FROM simulations_chunk WHERE run_id = ? AND '
                             "state = 'running' AND worker LIKE ?", run_id, "victim@%")

    sandbox.wait(victim_is_playing, what="the victim to start a chunk")
    (held,) = victim_is_playing()[0]
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(timeout=10)
    sandbox.worker("survivor")
    sandbox.wait(lambda: sandbox.run_row(uid)["status"] == "done", what="the run to finish")

    assert sandbox.run_row(uid)["games_done"] == GAMES
    assert sandbox.result_counts(uid) == [expected()]
    (attempts, sends, state) = sandbox.query(
        'SELECT attempts, sends, state FROM simulations_chunk WHERE run_id = ? AND "index" = ?',
        run_id, held)[0]
    # The killed chunk was played again: sent again by the reaper once its lease lapsed, or, on
    # RabbitMQ, its unacknowledged message handed to the survivor when the victim's connection
    # dropped (one send).
    assert (state, attempts) == ("done", 2) and sends >= (1 if on_rabbitmq_leg() else 2)
    assert sandbox.query("SELECT COUNT(*) FROM simulations_chunkresult WHERE run_id = ?",
                         run_id)[0][0] == GAMES // CHUNK


@pytest.mark.parametrize("broker", ["redis", "rabbitmq"])
def test_restarting_the_broker_mid_run_and_the_run_still_finishes(sandbox, broker, tmp_path):
    """Redis without persistence loses every queued message; RabbitMQ keeps its durable queue
    and delivers the unacknowledged messages again: either way the figures are the engine's."""
    with private_broker(broker, tmp_path) as server:
        env = {"CELERY_BROKER_URL": server.url}
        sandbox.worker("w1", **env)
        sandbox.wait_ready("w1")
        uid = sandbox.submit(*RUN, **env)
        run_id = sandbox.run_row(uid)["id"]
        sandbox.wait(lambda: sandbox.query(
            "SELECT COUNT(*) FROM simulations_chunk WHERE run_id = ? AND state = 'done'",
            run_id)[0][0] >= 2, what="two chunks done")
        server.restart()
        sandbox.wait(lambda: sandbox.run_row(uid)["status"] == "done", timeout=300,
                     what="the run to finish after the restart")
        assert sandbox.result_counts(uid) == [expected()]
        assert sandbox.query("SELECT COUNT(*) FROM simulations_chunkresult WHERE run_id = ?",
                             run_id)[0][0] == GAMES // CHUNK
        if broker == "redis":                  # its lost chunks were sent again
            assert sandbox.query("SELECT MAX(sends) FROM simulations_chunk WHERE run_id = ?",
                                 run_id)[0][0] >= 2
