"""bench_simulations runs end to end (tiny numbers: the figures come from the command itself,
run by hand; here it only has to work and print them)."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command


def test_the_benchmark_prints_wall_time_rate_and_efficiency():
    out = StringIO()
    call_command("bench_simulations", "--games", "40", "--baseline-games", "20", "--brokers",
                 "filesystem", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data["baseline"]["games_per_s"] > 0
    (run,) = data["runs"]
    assert run["broker"] == "filesystem" and run["status"] == "done" and run["games"] == 40
    assert run["wall_s"] > 0 and run["games_per_s"] > 0 and 0 < run["efficiency"]
