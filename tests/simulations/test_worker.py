"""A real Celery worker (in a thread, on the configured broker, on a queue of this test's own)
plays submitted runs: tasks are sent when the submission commits, a message delivered twice
counts once."""

from __future__ import annotations

import json
import time

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import OperationalError

from config.celery import app
from simulations.models import ChunkResult, SimulationRun
from simulations.services import simulation_request
from simulations.tasks import simulation_chunk_run
from tests.simulations.helpers import DAWN, DUSK, reference_counts
from work.models import WorkStatus

pytestmark = pytest.mark.django_db(transaction=True)

# Deadlines, not pauses: CI runs the suite with every core busy (.ci/run), where a worker's chunk
# can take many times longer than on a quiet machine.
DEADLINE = 240


def wait_until_finished(run: SimulationRun, timeout: float = DEADLINE) -> SimulationRun:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            run.refresh_from_db()
        except OperationalError:   # SQLite's shared in-memory test database: a writer holds it
            time.sleep(0.05)
            continue
        if not run.is_active:
            return run
        time.sleep(0.1)
    raise AssertionError(f"run still {run.status} after {timeout} s: {run.games_done} games")


@pytest.fixture
def worker(unique_queue, catalogue):
    with start_worker(app, pool="solo", perform_ping_check=False, queues=[unique_queue],
                      shutdown_timeout=30) as running:
        yield running


@pytest.fixture
def finished_tasks():
    """The ids of the tasks the in-process worker has finished, with what each returned."""
    finished: dict[str, object] = {}

    def record(task_id=None, retval=None, **kwargs):
        finished[task_id] = retval

    task_postrun.connect(record, weak=False)
    try:
        yield finished
    finally:
        task_postrun.disconnect(record)


def test_a_submitted_run_is_played_by_a_worker(worker):
    run = simulation_request(user=None, kind="match", deck_specs=[DAWN, DUSK], games=20,
                             agent_a="greedy", agent_b="random", seed=5, trusted=True,
                             chunk_size=4)
    run = wait_until_finished(run)
    assert run.status == WorkStatus.DONE and run.games_done == 20
    assert run.matchups.get().result["counts"] == reference_counts(
        "Dawn Test", "Dusk Test", seed=5, games=20)
    assert all(run.chunks.values_list("worker", flat=True))   # who played each chunk


def test_a_message_delivered_twice_counts_once(worker, unique_queue, finished_tasks):
    run = simulation_request(user=None, kind="match", deck_specs=[DAWN, DUSK], games=8,
                             agent_a="random", agent_b="random", seed=2, trusted=True,
                             chunk_size=4)
    first = run.chunks.get(index=0)
    copy = simulation_chunk_run.apply_async(args=[first.pk], queue=unique_queue)  # a 2nd copy
    run = wait_until_finished(run)
    end = time.monotonic() + DEADLINE     # the copy is played (or skipped) after the run ends
    while copy.id not in finished_tasks:
        assert time.monotonic() < end, f"the second copy was not consumed in {DEADLINE} s"
        time.sleep(0.05)
    assert finished_tasks[copy.id] in ("skipped", "duplicate")
    assert ChunkResult.objects.filter(run=run).count() == 2
    run.refresh_from_db()
    assert run.games_done == 8
    assert run.matchups.get().result["counts"] == reference_counts(
        "Dawn Test", "Dusk Test", seed=2, games=8, agent_a="random")


def simulate_both_ways(args: list[str], json_flags=([], ["--json"])) -> list[str]:
    """``simulate``'s output in this process, then through the worker, once per json flag:
    [in-process text, in-process json, worker text, worker json] by default."""
    from io import StringIO

    from django.core.management import call_command

    outputs = []
    for extra in ([], ["--via-celery", "--chunk-size", "4", "--timeout", str(DEADLINE)]):
        for json_flag in json_flags:
            out = StringIO()
            call_command("simulate", *args, *extra, *json_flag, stdout=out)
            outputs.append(out.getvalue())
    return outputs


def test_simulate_via_celery_prints_what_the_in_process_command_prints(worker):


    args = ["--deck-a", "Dawn Test", "--deck-b", "Dusk Test", "--set",
            "rules/data/test_set.yaml", "--games", "12", "--seed", "3", "--agent-a", "greedy",
            "--agent-b", "random"]
    in_process_text, in_process_json, celery_text, celery_json = simulate_both_ways(args)
    assert celery_text == in_process_text and celery_json == in_process_json
    assert "12 games in seat-swapped pairs, seed 3" in celery_text
    assert SimulationRun.objects.filter(status=WorkStatus.DONE).count() == 2


def test_simulate_via_celery_plays_a_patch_file_like_the_in_process_command(worker, tmp_path):


    path = tmp_path / "pup.json"
    path.write_text('{"name": "Pup +1", "changes": [{"card": "T-M01", "field": "attack", '
                    '"value": 3}]}', encoding="utf-8")
    args = ["--deck-a", "Dawn Test", "--deck-b", "Dusk Test", "--set",
            "rules/data/test_set.yaml", "--games", "8", "--seed", "3", "--patch", str(path),
            "--json"]
    outputs = simulate_both_ways(args, json_flags=([],))
    assert outputs[0] == outputs[1]
    assert '"text": "Ember Pup: attack 2 \\u2192 3"' in outputs[1]
    run = SimulationRun.objects.get()
    assert run.patch["name"] == "Pup +1" and run.cards["T-M01"]["attack"] == 3


def test_simulate_via_celery_plays_a_round_robin_and_its_meta_like_the_in_process_command(
        worker):


    from rules.decks.cardset import CORE_SET

    args = ["--decks", "Ember Rush", "Tidewall", "Gravecallers", "--set", str(CORE_SET),
            "--games", "8", "--seed", "3", "--agent-a", "random", "--processes", "1"]
    in_process_text, in_process_json, celery_text, celery_json = simulate_both_ways(args)
    assert celery_json == in_process_json and celery_text == in_process_text
    assert "vs field (95 %)" in celery_text
    assert json.loads(celery_json)["meta"]["decks"] == ["Ember Rush", "Tidewall", "Gravecallers"]
    assert [r.kind for r in SimulationRun.objects.filter(status=WorkStatus.DONE)] == \
        ["round_robin", "round_robin"]
