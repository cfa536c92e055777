"""bench_simulations runs end to end (tiny numbers: the figures come from the command itself,
run by hand; here it only has to work and print them)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.long
def test_the_benchmark_prints_wall_time_rate_and_efficiency():
    out = StringIO()
    call_command("bench_simulations", "--games", "40", "--baseline-games", "20", "--brokers",
                 "filesystem", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["baseline"]["games_per_s"] > 0
    (run,) = data["runs"]
    assert run["broker"] == "filesystem" and run["status"] == "done" and run["games"] == 40
    assert run["wall_s"] > 0 and run["games_per_s"] > 0 and 0 < run["efficiency"]


@pytest.mark.long
def test_the_fairness_benchmark_prints_the_median_and_the_worst():
    out = StringIO()
    call_command("bench_fairness", "--big-agent", "greedy", "--big-games", "20000",
                 "--big-runs", "1", "--big-chunk-size", "10000", "--small-runs", "2",
                 "--after-cancel", "1", "--pause", "0", "--json", stdout=out)
    data = json.loads(out.getvalue())
    loaded = data["while_big_runs_play"]
    assert len(loaded["seconds"]) == 2 and 0 < loaded["median"] <= loaded["worst"]
    assert len(data["after_cancel"]["seconds"]) == 1
    assert data["big"]["chunk_size"] < 10_000 and data["big"]["chunk_size_asked"] == 10_000


@pytest.mark.long
def test_the_estimates_benchmark_prints_each_estimate_beside_the_time_taken():
    out = StringIO()
    call_command("bench_estimates", "--scale", "0.01", "--json", stdout=out)
    runs = json.loads(out.getvalue())["runs"]
    assert [run["status"] for run in runs] == ["done"] * 10
    assert all(run["estimate_s"] > 0 and run["took_s"] > 0 for run in runs)
    # The short runs are played as they are, the long ones scaled.
    assert [run["games"] for run in runs] == [20, 200, 20, 3 * 2, 3 * 2, 6 * 2, 200, 20, 200, 20]
    # The first runs go by the costs measured on the development machine, the last three by
    # those the sandbox's deployment observed on the runs before them.
    assert [run["costs"] for run in runs[:3]] == ["measured here"] * 3
    assert [run["costs"] for run in runs[-3:]] == ["observed"] * 3
