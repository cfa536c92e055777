"""Honest time estimates: a worker measures this deployment's pace at start-up (stored), every
estimate made before a job has a pace of its own multiplies the AI ladder's figures by it, and a
running job's estimate follows the pace it is observed to play at."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from balance.selectors import job_progress
from rules.ai.ratings import seconds_per_game
from simulations.calibration import KEPT, deployment_calibrate
from simulations.models import PaceCalibration, RunStatus
from simulations.selectors import Progress, run_seconds_left
from simulations.signals import _calibrate
from simulations.strength import agent_costs, estimate_inputs, estimate_seconds, pace_factor
from tests.simulations.test_status import make_run

pytestmark = pytest.mark.django_db


def _measured(factor: float) -> PaceCalibration:
    return PaceCalibration.objects.create(host="w1@host", games=10, wall_seconds=factor,
                                          cpu_seconds=factor, ladder_seconds=1.0,
                                          factor=factor)


def test_a_worker_measures_its_pace_against_the_ladder():
    row = deployment_calibrate(host="w1@host", budget_seconds=0.05)
    per_game = seconds_per_game(agent_costs(), "greedy", "random")
    assert row.games >= 2 and row.wall_seconds > 0 and row.cpu_seconds > 0
    assert row.ladder_seconds == pytest.approx(per_game * row.games)
    assert row.factor == pytest.approx(row.wall_seconds / row.ladder_seconds)
    assert pace_factor() == pytest.approx(row.factor)


# The worker-start hook closes stale connections, as a worker must: outside a test transaction.
@pytest.mark.django_db(transaction=True)
def test_the_measurement_at_worker_start_is_stored_and_can_be_switched_off(settings):
    _calibrate("w2@host")
    assert PaceCalibration.objects.get().host == "w2@host"
    settings.SIMULATIONS_CALIBRATION_SECONDS = 0
    assert deployment_calibrate(host="w3@host") is None
    assert PaceCalibration.objects.count() == 1


def test_only_the_latest_measurements_are_kept():
    for _ in range(KEPT + 3):
        _measured(2.0)
    newest = _measured(5.0)
    deployment_calibrate(host="w1@host", budget_seconds=0.01)
    assert PaceCalibration.objects.count() == KEPT
    assert PaceCalibration.objects.filter(pk=newest.pk).exists()


def test_estimates_before_a_job_plays_go_by_the_measured_pace(settings):
    settings.SIMULATIONS_WORKERS = 2
    assert pace_factor() == 1.0     # nothing measured: the ladder's figures as they are
    plain = estimate_seconds(agent_a="planner", agent_b="search", games=2000)
    form = estimate_inputs()
    _measured(6.5)                  # this deployment plays 6.5 times slower than the ladder
    assert estimate_seconds(agent_a="planner", agent_b="search", games=2000) \
        == pytest.approx(plain * 6.5)
    slower = estimate_inputs()
    assert slower["factor"] == 6.5
    assert slower["costs"]["planner"] == pytest.approx(form["costs"]["planner"] * 6.5)
    assert slower["engine"] == pytest.approx(form["engine"] * 6.5)


def test_the_form_says_the_measured_estimate(client, alice, catalogue):
    _measured(4.0)
    client.force_login(alice)
    page = client.get("/simulations/new/")
    assert page.context["estimate"]["factor"] == 4.0


def _progress(done: int, total: int) -> Progress:
    return Progress(games_done=done, games_total=total, chunks_done=0, chunks_total=4,
                    chunks_running=1, wins=0, completed=0)


def test_a_running_run_starts_from_the_measured_pace_then_follows_its_own(alice, catalogue):
    run = make_run(alice, games=2000, agent_a="planner", agent_b="search")
    run.status, run.started_at = RunStatus.RUNNING, timezone.now() - timedelta(seconds=5)
    _measured(6.5)
    expected = estimate_seconds(agent_a="planner", agent_b="search", games=2000)
    assert run_seconds_left(run, _progress(0, 2000)) == pytest.approx(expected - 5, abs=1)
    run.started_at = timezone.now() - timedelta(seconds=60)
    assert run_seconds_left(run, _progress(500, 2000)) == pytest.approx(180, abs=1)
    run.started_at = timezone.now() - timedelta(seconds=expected + 60)
    assert run_seconds_left(run, _progress(0, 2000)) is None   # past it: working it out


def test_a_running_search_starts_from_the_measured_pace_then_follows_its_own(alice, catalogue):
    from balance.search.services import balance_job_request
    from tests.simulations.helpers import DAWN, DUSK

    job = balance_job_request(user=alice, deck_specs=[DAWN, DUSK], agent="greedy",
                              max_changes=1, budget_games=2_000, verify_games=100, seed=5,
                              allowed_cards=["T-M01"], objective="band")
    assert job_progress(job).seconds_left is None            # queued: no time yet
    job.status, job.progress = "running", {"phase": "baseline", "games": 0}
    _measured(3.0)
    left = job_progress(job)
    games = 2_000 + 5 * 100
    assert left.seconds_left == pytest.approx(
        estimate_seconds(agent_a="greedy", agent_b="greedy", games=games))
    job.progress = {"phase": "screening", "games": 1_000, "rate": 50.0}
    assert job_progress(job).seconds_left == pytest.approx((games - 1_000) / 50.0)
