"""A run's time estimate counts what a run costs besides its games — the wait for its first
claim, each chunk's bookkeeping, the finish — as this deployment observed them on its finished
runs: a 20-game run takes a second, not the milliseconds of its games. One estimate
everywhere: the form's script computes what ``estimate_seconds`` computes, the API gives its
figures, a running run's page counts down from it."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import cache
from django.utils import timezone
from rest_framework.test import APIClient

from simulations.agents.strength import (
    OBSERVED_KEY as PACE_KEY,
)
from simulations.agents.strength import (
    estimate_inputs,
    estimate_seconds,
    game_seconds_here,
    run_costs,
    run_estimate_seconds,
)
from simulations.models import Chunk, ChunkState, SimulationRun
from simulations.run_costs import MEASURED_HERE, OBSERVED_KEY, RunCosts, rounds
from simulations.selectors import Progress, run_seconds_left
from tests.simulations.test_status import make_run
from work.models import WorkStatus

pytestmark = pytest.mark.django_db

SCRIPT = Path(django_settings.BASE_DIR) / "static" / "js" / "run_estimate.js"


def _played(run: SimulationRun, *, start: float, cycle: float, finish: float,
            attempts: int = 1) -> None:
    """Stamp a run as played on two idle worker processes: its first claim ``start`` seconds
    after submission, each process playing its chunks one after another ``cycle`` seconds
    apart, its figures ``finish`` seconds after its last chunk."""
    submitted = timezone.now() - timedelta(minutes=5)
    SimulationRun.objects.filter(pk=run.pk).update(created_at=submitted)
    last = submitted
    for chunk in run.chunks.order_by("index"):
        began = submitted + timedelta(seconds=start + (chunk.index // 2) * cycle)
        last = began + timedelta(seconds=cycle)
        Chunk.objects.filter(pk=chunk.pk).update(state=ChunkState.DONE, attempts=attempts,
                                                 started_at=began, finished_at=last)
    SimulationRun.objects.filter(pk=run.pk).update(
        status=WorkStatus.DONE, finished_at=last + timedelta(seconds=finish))


def _observed(alice, count: int = 3, **timing) -> None:
    for _ in range(count):
        _played(make_run(alice, games=8, chunk_size=2), **timing)   # 4 chunks: 2 each
    cache.delete(OBSERVED_KEY)


def test_a_short_run_s_estimate_includes_the_costs_the_deployment_observed(alice, catalogue,
                                                                          settings):
    settings.SIMULATIONS_WORKERS = 2
    _observed(alice, start=0.6, cycle=0.3, finish=0.2)
    games = game_seconds_here("greedy", "random") * 2          # a chunk's games
    costs = run_costs()
    assert costs.observed
    assert costs.start == pytest.approx(0.6) and costs.finish == pytest.approx(0.2)
    assert costs.chunk == pytest.approx(0.3 - games)             # a chunk's time but its games
    # A 20-game greedy run: ten chunks of two games, five after one another on each process.
    per_game = game_seconds_here("greedy", "greedy")
    seconds = estimate_seconds(agent_a="greedy", agent_b="greedy", games=20)
    assert seconds == pytest.approx(0.6 + 0.2 + 5 * (costs.chunk + per_game * 2))
    assert seconds > 20 * 20 * per_game / 2                      # not its games' milliseconds


def test_until_runs_have_finished_here_the_costs_measured_on_the_development_machine_stand_in(
        alice, catalogue):
    assert run_costs() == MEASURED_HERE and not MEASURED_HERE.observed
    _observed(alice, count=2, start=5.0, cycle=1.0, finish=1.0)   # too few to go by
    assert run_costs() == MEASURED_HERE
    _played(make_run(alice, games=8, chunk_size=2), start=5.0, cycle=1.0, finish=1.0,
            attempts=2)                                           # a worker died: not counted
    cache.delete(OBSERVED_KEY)
    assert run_costs() == MEASURED_HERE


def test_the_costs_are_medians_a_run_that_waited_behind_others_does_not_make_them(
        alice, catalogue, settings):
    settings.SIMULATIONS_WORKERS = 2
    _observed(alice, count=3, start=0.4, cycle=0.25, finish=0.1)
    _played(make_run(alice, games=8, chunk_size=2), start=40.0, cycle=0.25, finish=0.1)
    cache.delete(OBSERVED_KEY)
    assert run_costs().start == pytest.approx(0.4)


def test_a_running_run_s_page_counts_down_from_the_same_estimate_after_its_first_claim(
        alice, catalogue, settings):
    settings.SIMULATIONS_WORKERS = 2
    _observed(alice, start=3.0, cycle=0.5, finish=0.5)
    run = make_run(alice, games=40, chunk_size=4, agent_a="greedy", agent_b="greedy")
    run.status, run.started_at = WorkStatus.RUNNING, timezone.now() - timedelta(seconds=1)
    whole = run_estimate_seconds(run)
    assert whole == pytest.approx(estimate_seconds(agent_a="greedy", agent_b="greedy",
                                                   games=40, chunks=10))
    progress = Progress(games_done=0, games_total=40, chunks_done=0, chunks_total=10,
                        chunks_running=2, wins=0, completed=0)
    # Its first chunk has been claimed: the wait for that claim (3 s) is behind it.
    assert run_seconds_left(run, progress) == pytest.approx(whole - 3.0 - 1, abs=0.3)


def test_the_api_gives_the_costs_the_estimates_use(alice, catalogue):
    _observed(alice, start=0.6, cycle=0.3, finish=0.2)
    data = APIClient().get("/api/simulations/agents/").json()
    assert data["run_costs"] == pytest.approx(run_costs().as_dict())
    assert data["run_costs"]["observed"] is True


def test_the_form_s_inputs_carry_the_observed_costs(alice, catalogue, client):
    _observed(alice, start=0.6, cycle=0.3, finish=0.2)
    client.force_login(alice)
    inputs = client.get("/simulations/new/").context["estimate"]
    assert inputs["costs"] == pytest.approx(run_costs().as_dict())
    assert inputs["costs"]["start"] == pytest.approx(0.6)
    assert 'src="/static/js/run_estimate.js' in client.get("/simulations/new/").content.decode()


RUNS = [  # (agent A, agent B, games a pairing, pairings): the form's kinds of run
    ("greedy", "greedy", 20, 1),
    ("greedy", "greedy", 200, 1),
    ("greedy", "greedy", 20_000, 1),
    ("planner", "planner", 20, 1),
    ("planner", "search", 200, 3),        # a gauntlet of three opponents
    ("planner", "planner", 40, 6),        # a round-robin of four decks
    ("lean", "random", 2, 1),
]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the script")
def test_the_form_s_script_computes_the_estimate_the_site_computes(alice, catalogue, settings):
    settings.SIMULATIONS_WORKERS = 3
    _observed(alice, start=0.6, cycle=0.3, finish=0.2)
    program = (f"const estimate = require({json.dumps(str(SCRIPT))});\n"
               f"const data = {json.dumps(estimate_inputs())};\n"
               f"const runs = {json.dumps(RUNS)};\n"
               "console.log(JSON.stringify(runs.map(r => estimate(data, ...r))));\n")
    out = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True,
                         timeout=60)
    for (agent_a, agent_b, per_pairing, pairings), shown in zip(RUNS, json.loads(out.stdout),
                                                                strict=True):
        expected = estimate_seconds(agent_a=agent_a, agent_b=agent_b,
                                    games=per_pairing * pairings, pairings=pairings)
        assert shown["seconds"] == pytest.approx(expected), (agent_a, agent_b, per_pairing)
        assert shown["games"] == per_pairing * pairings


def test_a_run_s_chunks_follow_one_another_on_each_process():
    assert [rounds(chunks, 2) for chunks in (1, 2, 3, 9, 10)] == [1, 1, 2, 5, 5]
    assert RunCosts(start=1, chunk=2, finish=3).as_dict() == {
        "start": 1, "chunk": 2, "finish": 3, "observed": False}


def test_short_chunks_do_not_set_the_pace_of_the_games(alice, catalogue, settings):
    """Two-game chunks are mostly their claim and bookkeeping, which the estimate counts once
    per chunk already: they do not make a game between the same agents look dearer."""
    measured = game_seconds_here("planner", "greedy")             # 25 ms at the ladder's pace
    # 21 chunks of two games: a second of the ladder's time in all, 0.2 s of wall time each.
    _played(make_run(alice, games=42, chunk_size=2, agent_a="planner", agent_b="greedy"),
            start=0.2, cycle=0.2, finish=0.1)
    cache.delete(PACE_KEY)
    assert game_seconds_here("planner", "greedy") == pytest.approx(measured)
    settings.SIMULATIONS_CHUNK_SECONDS = 0.5      # were chunks cut to half a second, they would
    cache.delete(PACE_KEY)
    assert game_seconds_here("planner", "greedy") == pytest.approx(measured * 4, rel=0.05)


def _busy(monkeypatch, load: float, cores: int = 2) -> None:
    """The machine as a CPU hog on every core beside the workers makes it: ``load``."""
    monkeypatch.setattr("simulations.agents.strength.machine_load", lambda: load)
    monkeypatch.setattr("simulations.agents.strength.os.cpu_count", lambda: cores)


def test_on_a_busy_machine_an_estimate_is_a_range_up_to_the_load_s_factor(monkeypatch, settings):
    from simulations.agents.strength import RANGE_FROM, estimate_range, load_factor

    settings.SIMULATIONS_WORKERS = 2
    assert load_factor() == 1.0 and estimate_range(20.0) == (20.0, 20.0)   # load unread
    _busy(monkeypatch, 0.0)                       # idle but for the two workers, once busy
    assert load_factor() == 1.0 and estimate_range(20.0) == (20.0, 20.0)
    _busy(monkeypatch, 2.0)                       # a hog on each of the two cores
    assert load_factor() == pytest.approx(2.0)
    assert estimate_range(20.0) == pytest.approx((20.0, 40.0))
    _busy(monkeypatch, 0.5)                       # a little: one figure still
    assert load_factor() < RANGE_FROM and estimate_range(20.0) == (20.0, 20.0)


def test_before_its_first_chunk_a_running_run_counts_down_from_the_busy_machine_s_end(
        alice, catalogue, settings, monkeypatch):
    settings.SIMULATIONS_WORKERS = 2
    _observed(alice, start=3.0, cycle=0.5, finish=0.5)
    run = make_run(alice, games=40, chunk_size=4, agent_a="greedy", agent_b="greedy")
    run.status, run.started_at = WorkStatus.RUNNING, timezone.now()
    progress = Progress(games_done=0, games_total=40, chunks_done=0, chunks_total=10,
                        chunks_running=2, wins=0, completed=0)
    idle = run_seconds_left(run, progress)
    _busy(monkeypatch, 2.0)
    assert run_seconds_left(run, progress) == pytest.approx(2 * idle, rel=0.05)


def test_once_every_game_is_played_the_page_says_the_figures_are_being_put_together(
        client, alice, catalogue):
    run = make_run(alice, games=12)
    SimulationRun.objects.filter(pk=run.pk).update(status=WorkStatus.RUNNING,
                                                   started_at=timezone.now(), games_done=12)
    client.force_login(alice)
    fragment = client.get(f"/simulations/{run.uid}/progress/",
                          HTTP_HX_REQUEST="true").content.decode()
    assert "100 %" in fragment and 'data-testid="finishing"' in fragment
    assert "working out the time left" not in fragment


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the script")
def test_the_form_s_script_says_the_same_range_on_a_busy_machine(alice, catalogue, settings,
                                                                   monkeypatch):
    from simulations.agents.strength import estimate_range

    settings.SIMULATIONS_WORKERS = 2
    _observed(alice, start=0.6, cycle=0.3, finish=0.2)
    _busy(monkeypatch, 3.0)                        # (3 + 2 workers) / 2 cores: 2.5×
    program = (f"const estimate = require({json.dumps(str(SCRIPT))});\n"
               f"const data = {json.dumps(estimate_inputs())};\n"
               f"const runs = {json.dumps(RUNS)};\n"
               "console.log(JSON.stringify(runs.map(r => estimate(data, ...r))));\n")
    out = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True,
                         timeout=60)
    for (agent_a, agent_b, per_pairing, pairings), shown in zip(RUNS, json.loads(out.stdout),
                                                                strict=True):
        low, high = estimate_range(estimate_seconds(agent_a=agent_a, agent_b=agent_b,
                                                    games=per_pairing * pairings,
                                                    pairings=pairings))
        assert (shown["seconds"], shown["high"]) == pytest.approx((low, high))
        assert high == pytest.approx(2.5 * low)
