"""A balance search on real Celery workers, its worker SIGKILLed in the middle of the search:
the reaper sends the job again, a second worker resumes it from the blocks stored, and the
result is exactly the in-process search's for the same seed and budget.

Sandboxed like the simulation fault tests (tools.sandbox): a fresh database and queue,
leases short yet longer than a piece of games under load, and a short pause before each piece
of games so "mid-search" can be hit."""

from __future__ import annotations

import json
import os
import signal
import uuid

import pytest

from balance.models import BalanceJob
from balance.search.problem import search_problem
from rules.lab.balance_search import LocalEvaluator, balance_search
from tests.private_brokers import private_broker
from tools.sandbox import Sandbox

# A job renews its lease once a piece (4 blocks of 50 games): the lease must outlast a piece even
# with every core busy on the plain-Python engine (.ci/run), or the reaper takes the job from a
# worker still playing it. It is also how long the survivor waits after the kill.
FAST_FAULTS = {"CARDLAB_SIMULATIONS_LEASE_SECONDS": "20",
               "CARDLAB_SIMULATIONS_REAP_SECONDS": "0.5",
               "CARDLAB_SIMULATIONS_CHUNK_PAUSE": "0.3"}
SEARCH = ("--decks", "Dawn Test", "Dusk Test", "--objective", "band", "--budget-games", "2000",
          "--verify-games", "100", "--cards", "T-H01,T-H02,T-M01,T-M03", "--max-changes", "2",
          "--seed", "5")


@pytest.fixture
def sandbox(tmp_path):
    box = Sandbox(tmp_path, database_url=os.environ.get("DATABASE_URL", ""),
                  broker_url=os.environ.get("CELERY_BROKER_URL", ""), env=FAST_FAULTS)
    box.queue = f"faults{uuid.uuid4().hex[:10]}"
    box.env["CARDLAB_CELERY_QUEUE"] = box.queue
    try:
        box.install("rules/data/test_set.yaml")
        yield box
    finally:
        box.stop()
        box.drop()


def _job(sandbox, uid: str) -> dict:
    row = sandbox.query("SELECT status, games_played, worker, attempts, result, decks, cards, "
                        "agent, seed FROM balance_balancejob WHERE uid = ?", uid)[0]
    keys = ("status", "games_played", "worker", "attempts", "result", "decks", "cards",
            "agent", "seed")
    out = dict(zip(keys, row, strict=True))
    for key in ("result", "decks", "cards"):
        if isinstance(out[key], str):
            out[key] = json.loads(out[key])
    return out


@pytest.mark.long
def test_sigkill_a_worker_mid_search_and_the_search_resumes_to_the_same_result(sandbox):
    victim = sandbox.worker("victim")
    sandbox.wait_ready("victim")
    uid = sandbox.manage("balance_search", "--via-celery", "--no-wait", *SEARCH).strip()
    sandbox.wait(lambda: _job(sandbox, uid)["games_played"] >= 300
                 and _job(sandbox, uid)["worker"].startswith("victim@"),
                 timeout=180, what="the victim to play part of the search")
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(timeout=10)
    played_before = _job(sandbox, uid)["games_played"]
    sandbox.worker("survivor")
    sandbox.wait(lambda: _job(sandbox, uid)["status"] == "done", timeout=300,
                 what="the search to finish on the survivor")
    job = _job(sandbox, uid)
    assert job["attempts"] == 2 and job["worker"].startswith("survivor@")
    assert played_before > 0

    frozen = BalanceJob(decks=job["decks"], cards=job["cards"], agent=job["agent"],
                        seed=job["seed"], band_low=0.45, band_high=0.55, max_changes=2,
                        fields=["cost", "attack", "hp"], spread=2,
                        allowed_cards=["T-H01", "T-H02", "T-M01", "T-M03"],
                        budget_games=2000, verify_games=100)
    problem = search_problem(frozen)
    with LocalEvaluator(problem.field, processes=1) as evaluator:
        reference = balance_search(problem, evaluator)
    assert job["result"] == json.loads(json.dumps(reference.to_dict(frozen.deck_names)))


def _in_process_result(job: dict) -> dict:
    frozen = BalanceJob(decks=job["decks"], cards=job["cards"], agent=job["agent"],
                        seed=job["seed"], band_low=0.45, band_high=0.55, max_changes=2,
                        fields=["cost", "attack", "hp"], spread=2,
                        allowed_cards=["T-H01", "T-H02", "T-M01", "T-M03"],
                        budget_games=2000, verify_games=100)
    problem = search_problem(frozen)
    with LocalEvaluator(problem.field, processes=1) as evaluator:
        reference = balance_search(problem, evaluator)
    return json.loads(json.dumps(reference.to_dict(frozen.deck_names)))


@pytest.mark.long
def test_one_and_two_worker_processes_play_the_same_search_and_write_its_patch(sandbox,
                                                                              tmp_path):
    # Pieces of one block each (a hundredth of a second's games): on a quiet machine the
    # coordinator and its follow-on claims could otherwise play a job of a few large pieces
    # alone before the second process took one. The blocks, hence the figures, are the same.
    sandbox.env["CARDLAB_SIMULATIONS_CHUNK_SECONDS"] = "0.01"
    results, patches = [], []
    for names in (["solo"], ["left", "right"]):
        workers = [sandbox.worker(name) for name in names]
        for name in names:
            sandbox.wait_ready(name)
        out = tmp_path / f"{len(names)}.json"
        results.append(json.loads(sandbox.manage("balance_search", "--via-celery", "--json",
                                                 "--out", str(out), *SEARCH)))
        patches.append(json.loads(out.read_text()))
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=30)
    one, two = results
    assert one == two                                     # change for change, figure for figure
    assert patches[0] == patches[1] == one["best"]["patch"]
    (uid,) = sandbox.query("SELECT uid FROM balance_balancejob ORDER BY id DESC LIMIT 1")[0]
    assert two == _in_process_result(_job(sandbox, uid))
    players = sandbox.query("SELECT DISTINCT p.worker FROM balance_jobpiece p JOIN "
                            "balance_balancejob j ON j.id = p.job_id WHERE j.uid = ?", uid)
    assert {w.split("@")[0] for (w,) in players} == {"left", "right"}   # both played its games


@pytest.mark.long
@pytest.mark.parametrize("broker", ["redis", "rabbitmq"])
def test_restarting_the_broker_mid_search_and_the_search_finds_the_same_result(
        sandbox, broker, tmp_path):
    with private_broker(broker, tmp_path) as server:
        env = {"CELERY_BROKER_URL": server.url}
        for name in ("left", "right"):
            sandbox.worker(name, **env)
            sandbox.wait_ready(name)
        uid = sandbox.manage("balance_search", "--via-celery", "--no-wait", *SEARCH,
                             **env).strip()
        sandbox.wait(lambda: _job(sandbox, uid)["games_played"] >= 300, timeout=180,
                     what="the workers to play part of the search")
        server.restart()
        sandbox.wait(lambda: _job(sandbox, uid)["status"] == "done", timeout=300,
                     what="the search to finish after the restart")
    job = _job(sandbox, uid)
    assert job["result"] == _in_process_result(job)
    blocks = sandbox.query("SELECT COUNT(*) FROM balance_jobblock b JOIN balance_balancejob j "
                           "ON j.id = b.job_id WHERE j.uid = ?", uid)[0][0]
    assert job["games_played"] == blocks * 50               # no block counted twice
