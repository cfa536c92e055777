"""Honest time estimates: a worker measures this deployment's pace at start-up (stored), every
estimate made before a job has a pace of its own multiplies the AI ladder's figures by it, and a
running job's estimate follows the pace it is observed to play at."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.utils import timezone

from balance.selectors import job_progress
from rules.ai.ratings import load_ladder
from simulations.agents.calibration import KEPT, deployment_calibrate
from simulations.agents.strength import (
    OBSERVED_KEY,
    chunk_games,
    estimate_inputs,
    estimate_seconds,
    game_seconds_here,
    ladder_game_seconds,
    ladder_parts,
    pace_factor,
    run_estimate_seconds,
)
from simulations.models import ChunkState, PaceCalibration
from simulations.run_costs import MEASURED_HERE, rounds
from simulations.selectors import Progress, run_seconds_left
from simulations.signals import _calibrate
from tests.simulations.test_status import make_run
from work.models import WorkStatus

pytestmark = pytest.mark.django_db


def _measured(factor: float) -> PaceCalibration:
    return PaceCalibration.objects.create(host="w1@host", games=10, wall_seconds=factor,
                                          cpu_seconds=factor, ladder_seconds=1.0,
                                          factor=factor)


def test_a_worker_measures_its_pace_against_the_ladder_s_own_time_of_the_same_games():
    """The probe plays greedy against random: its wall time is divided by what the ladder's
    greedy-vs-random rung took a game (0.35 ms), not by a model made of averages over every
    rung (0.88 ms: the rules' share of a planner's game is three times a greedy one's), which
    made a machine as fast as the ladder's look 2.5 times faster than it is."""
    row = deployment_calibrate(host="w1@host", budget_seconds=0.05)
    per_game = sum(load_ladder()["greedy-vs-random"]["cpu_seconds_per_game"].values())
    assert ladder_game_seconds("greedy", "random") == pytest.approx(per_game)
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
    plain = game_seconds_here("planner", "search")
    assert plain == pytest.approx(ladder_game_seconds("planner", "search"))
    form = estimate_inputs()
    _measured(6.5)                  # this deployment plays 6.5 times slower than the ladder
    assert game_seconds_here("planner", "search") == pytest.approx(plain * 6.5)
    chunks = -(-2000 // chunk_games(2000, "planner", "search"))
    assert estimate_seconds(agent_a="planner", agent_b="search", games=2000) == pytest.approx(
        MEASURED_HERE.start + MEASURED_HERE.finish
        + rounds(chunks, 2) * (MEASURED_HERE.chunk + plain * 6.5 * 2000 / chunks))
    slower = estimate_inputs()
    assert slower["factor"] == 6.5
    assert slower["games"]["planner"]["search"] == pytest.approx(
        form["games"]["planner"]["search"] * 6.5)


def test_a_worker_measures_each_slow_agent_s_own_pace():
    """A planner's search may slow down more than the rules on another machine: the probe
    plays a few games of each slow agent against greedy, and its own decisions' factor is
    what is left once greedy and the rules are counted at the rules' pace."""
    row = deployment_calibrate(host="w1@host", budget_seconds=0.3)
    assert set(row.agents) == {"planner", "search", "lean", "learned", "learned_planner"}
    for name, pace in row.agents.items():
        assert pace["games"] >= 2 and pace["wall_seconds"] > 0 and pace["factor"] > 0
        own, greedy, rules = ladder_parts(name, "greedy")    # the ladder's rung of the two
        rest = (greedy + rules) * row.factor * pace["games"]
        assert pace["factor"] == pytest.approx(
            max(row.factor / 10, (pace["wall_seconds"] - rest) / (own * pace["games"])))


def test_a_slow_agent_is_estimated_at_its_own_pace_and_the_rules_at_theirs():
    PaceCalibration.objects.create(host="w@h", games=10, wall_seconds=1.0, cpu_seconds=1.0,
                                   ladder_seconds=1.0, factor=0.6,
                                   agents={"planner": {"factor": 1.5}, "search": {"factor": 2.0}})
    planner, greedy, rules = ladder_parts("planner", "greedy")
    assert game_seconds_here("planner", "greedy") == pytest.approx(
        planner * 1.5 + (greedy + rules) * 0.6)
    assert game_seconds_here("greedy", "random") == pytest.approx(
        ladder_game_seconds("greedy", "random") * 0.6)


def _finished_chunks(run, seconds_each: float, count: int = 4):
    now = timezone.now()
    for chunk in run.chunks.order_by("index")[:count]:
        chunk.state, chunk.attempts = ChunkState.DONE, 1
        chunk.started_at = now - timedelta(seconds=seconds_each)
        chunk.finished_at = now
        chunk.save()


def test_the_observed_pace_of_finished_chunks_replaces_the_measurement(alice, catalogue):
    """Whatever the probe said, a deployment that has just played these agents knows what a
    game takes: its chunks' wall time over what the ladder said they cost."""
    _measured(0.5)                            # the probe thought this machine fast
    # Four chunks of 8 planner games: over the second of the ladder's CPU time it needs.
    old = make_run(alice, games=80, chunk_size=8, agent_a="planner", agent_b="planner")
    per_chunk = old.chunks.first().cpu_seconds
    _finished_chunks(old, seconds_each=per_chunk * 3)      # they took 3 times the ladder's
    cache.delete(OBSERVED_KEY)                # read every few seconds: as a moment later
    assert game_seconds_here("planner", "planner") == pytest.approx(
        ladder_game_seconds("planner", "planner") * 3, rel=0.01)
    chunks = -(-1000 // chunk_games(1000, "planner", "planner"))
    assert estimate_seconds(agent_a="planner", agent_b="planner", games=1000) == pytest.approx(
        MEASURED_HERE.start + MEASURED_HERE.finish + rounds(chunks, 2) * (
            MEASURED_HERE.chunk + ladder_game_seconds("planner", "planner") * 3 * 1000 / chunks),
        rel=0.01)
    assert game_seconds_here("greedy", "greedy") == pytest.approx(      # other agents: as
        ladder_game_seconds("greedy", "greedy") * 0.5)                  # measured


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
    run.status, run.started_at = WorkStatus.RUNNING, timezone.now() - timedelta(seconds=5)
    _measured(6.5)
    expected = estimate_seconds(agent_a="planner", agent_b="search", games=2000,
                                chunks=run.chunks.count()) - MEASURED_HERE.start
    assert run_estimate_seconds(run, started=True) == pytest.approx(expected)
    assert run_seconds_left(run, _progress(0, 2000)) == pytest.approx(expected - 5, abs=1)
    run.started_at = timezone.now() - timedelta(seconds=expected + 60)
    assert run_seconds_left(run, _progress(0, 2000)) is None   # past it: working it out


def test_the_time_left_follows_the_run_s_own_chunks_not_the_wait_before_them(alice, catalogue,
                                                                             settings):
    """A round-robin whose first chunk waited a minute for a worker is not twice as long: the
    time left is its games left at the pace its finished chunks played."""
    settings.SIMULATIONS_WORKERS = 2
    run = make_run(alice, games=400, chunk_size=4, agent_a="planner", agent_b="planner")
    run.status, run.started_at = WorkStatus.RUNNING, timezone.now() - timedelta(seconds=90)
    _finished_chunks(run, seconds_each=2.0, count=4)    # 16 games, 0.5 s each
    progress = Progress(games_done=16, games_total=400, chunks_done=4, chunks_total=100,
                        chunks_running=2, wins=0, completed=16)
    # 96 chunks left, 48 after one another on each process: their bookkeeping and their games.
    chunk, finish = MEASURED_HERE.chunk, MEASURED_HERE.finish
    assert run_seconds_left(run, progress) == pytest.approx(finish + 48 * (chunk + 4 * 0.5))
    nearly = Progress(games_done=396, games_total=400, chunks_done=99, chunks_total=100,
                      chunks_running=1, wins=0, completed=396)
    assert run_seconds_left(run, nearly) == pytest.approx(finish + chunk + 4 * 0.5)  # one chunk


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
