"""The API gives a running job's time left as the page works it out, and as a range where the
page would say one: ``progress.time_left`` (``low``, ``high`` in seconds, ``is_range``) beside
``seconds_left`` (its high end, what the page says), on a simulation run's status and on a
balance search's, typed in the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.utils import timezone

from simulations.models import PaceCalibration, SimulationRun
from tests.simulations.test_run_estimate import _busy, _observed
from tests.simulations.test_status import make_run
from work.models import WorkStatus

pytestmark = pytest.mark.django_db


def _running_run(alice):
    run = make_run(alice, games=40, chunk_size=4, agent_a="greedy", agent_b="greedy")
    SimulationRun.objects.filter(pk=run.pk).update(status=WorkStatus.RUNNING,
                                                   started_at=timezone.now())
    return run


def test_a_running_run_s_status_gives_the_time_left_as_a_range_on_a_busy_machine(
        client, alice, catalogue, settings, monkeypatch):
    settings.SIMULATIONS_WORKERS = 2
    _observed(alice, start=3.0, cycle=0.5, finish=0.5)
    run = _running_run(alice)
    client.force_login(alice)
    url = f"/api/simulations/{run.uid}/"
    _busy(monkeypatch, 0.0)                         # idle but for the two workers: one figure
    idle = client.get(url).json()["progress"]
    left = idle["time_left"]
    assert left["is_range"] is False and left["low"] == left["high"] > 0
    assert idle["seconds_left"] == left["high"]
    _busy(monkeypatch, 2.0)                         # a hog on each core: up to twice as long
    busy = client.get(url).json()["progress"]
    left = busy["time_left"]
    assert left["is_range"] is True and busy["seconds_left"] == left["high"]
    assert left["low"] == pytest.approx(idle["time_left"]["low"], abs=0.5)
    # the estimate E from the first claim on, less the time run t: (E - t) to (2E - t)
    assert left["high"] - left["low"] == pytest.approx(idle["time_left"]["low"], abs=1.0)


def test_a_finished_or_queued_run_has_no_time_left(client, alice, catalogue):
    run = make_run(alice, games=12)
    client.force_login(alice)
    progress = client.get(f"/api/simulations/{run.uid}/").json()["progress"]
    assert progress["time_left"] is None and progress["seconds_left"] is None


def test_a_running_search_s_status_gives_the_range_then_its_own_pace(
        client, alice, catalogue, settings, monkeypatch):
    from balance.search.services import balance_job_request
    from tests.simulations.helpers import DAWN, DUSK

    settings.SIMULATIONS_WORKERS = 2
    PaceCalibration.objects.create(host="w1@host", games=10, wall_seconds=3.0, cpu_seconds=3.0,
                                   ladder_seconds=1.0, factor=3.0)
    job = balance_job_request(user=alice, deck_specs=[DAWN, DUSK], agent="greedy",
                              max_changes=1, budget_games=2_000, verify_games=100, seed=5,
                              allowed_cards=["T-M01"], objective="band")
    client.force_login(alice)
    url = f"/api/balance-searches/{job.uid}/"
    assert client.get(url).json()["progress"]["time_left"] is None     # queued
    job.status, job.progress = "running", {"phase": "baseline", "games": 0}
    job.save(update_fields=["status", "progress"])
    _busy(monkeypatch, 3.0)                          # (3 + 2 workers) / 2 cores: 2.5×
    progress = client.get(url).json()["progress"]
    left = progress["time_left"]
    assert left["is_range"] is True and progress["seconds_left"] == left["high"]
    assert left["high"] == pytest.approx(2.5 * left["low"])
    job.progress = {"phase": "screening", "games": 1_000, "rate": 50.0}
    job.save(update_fields=["progress"])
    left = client.get(url).json()["progress"]["time_left"]         # its own pace: one figure
    assert left == {"low": pytest.approx(30.0), "high": pytest.approx(30.0), "is_range": False}


def test_the_schema_types_the_time_left_on_runs_searches_and_tunings(client):
    schemas = client.get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]
    properties = schemas["TimeLeft"]["properties"]
    assert sorted(properties) == ["high", "is_range", "low"]
    assert properties["low"]["type"] == properties["high"]["type"] == "number"
    assert properties["is_range"]["type"] == "boolean"
    assert sorted(schemas["TimeLeft"]["required"]) == ["high", "is_range", "low"]
    for name in ("Progress", "JobProgress"):
        fields = schemas[name]["properties"]
        assert fields["time_left"]["allOf"] == [{"$ref": "#/components/schemas/TimeLeft"}]
        assert fields["time_left"]["nullable"] is True
        assert fields["seconds_left"]["type"] == "number"
    for name in ("Search", "Tuning"):
        assert schemas[name]["properties"]["progress"]["allOf"] == [
            {"$ref": "#/components/schemas/JobProgress"}]
