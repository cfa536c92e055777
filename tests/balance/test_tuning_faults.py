"""A deck tuning on real Celery workers, its worker SIGKILLed in the middle of the search: the
reaper sends the job again, a second worker resumes it from the blocks stored, and the result
is exactly the in-process tuning's for the same seed and budget.

Sandboxed like the balance search's fault test (tools.sandbox): a fresh database and
queue, short leases, and a short pause before each piece of games so "mid-tuning" can be hit."""

from __future__ import annotations

import json
import os
import signal

import pytest

from balance.models import BalanceJob
from balance.tuning.problem import tuning_problem
from rules.lab.deck_tuning import LocalTuneEvaluator, tune_deck
from tests.balance.test_faults import sandbox  # noqa: F401  (the fixture)

TUNING = ("--deck", "Dawn Test", "--field", "Dusk Test", "--budget-games", "2000",
          "--verify-games", "100", "--max-swaps", "1", "--seed", "7")


def _job(sandbox, uid: str) -> dict:  # noqa: F811
    row = sandbox.query("SELECT status, games_played, worker, attempts, result, decks, cards, "
                        "agent, seed, tuning FROM balance_balancejob WHERE uid = ?", uid)[0]
    keys = ("status", "games_played", "worker", "attempts", "result", "decks", "cards",
            "agent", "seed", "tuning")
    out = dict(zip(keys, row, strict=True))
    for key in ("result", "decks", "cards", "tuning"):
        if isinstance(out[key], str):
            out[key] = json.loads(out[key])
    return out


@pytest.mark.long
def test_sigkill_a_worker_mid_tuning_and_the_tuning_resumes_to_the_same_result(
        sandbox):  # noqa: F811
    victim = sandbox.worker("victim")
    sandbox.wait_ready("victim")
    uid = sandbox.manage("tune_deck", "--via-celery", "--no-wait", *TUNING).strip()
    sandbox.wait(lambda: _job(sandbox, uid)["games_played"] >= 300
                 and _job(sandbox, uid)["worker"].startswith("victim@"),
                 timeout=180, what="the victim to play part of the tuning")
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(timeout=10)
    played_before = _job(sandbox, uid)["games_played"]
    assert _job(sandbox, uid)["status"] == "running"
    sandbox.worker("survivor")
    sandbox.wait(lambda: _job(sandbox, uid)["status"] == "done", timeout=300,
                 what="the tuning to finish on the survivor")
    job = _job(sandbox, uid)
    assert job["attempts"] == 2 and job["worker"].startswith("survivor@")
    assert played_before > 0

    frozen = BalanceJob(kind="tuning", decks=job["decks"], cards=job["cards"],
                        agent=job["agent"], seed=job["seed"], max_changes=1,
                        budget_games=2000, verify_games=100, tuning=job["tuning"])
    problem = tuning_problem(frozen)
    with LocalTuneEvaluator(problem.field, processes=1) as evaluator:
        reference = tune_deck(problem, evaluator)
    names = frozen.deck_names[1:]
    assert job["result"] == json.loads(json.dumps(reference.to_dict(names)))
