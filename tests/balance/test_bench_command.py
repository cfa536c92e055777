"""bench_balance runs end to end (tiny numbers: the figures come from the command itself, run
by hand; here it only has to work, print them, and find the same search on 1 and 2
processes)."""

from __future__ import annotations

import json
from io import StringIO

from django.core.management import call_command


def test_the_benchmark_times_one_search_on_one_and_two_processes():
    out = StringIO()
    call_command("bench_balance", "--decks", "Ember Rush,Tidewall", "--budget-games", "2000",
                 "--verify-games", "100", "--max-changes", "1", "--json", stdout=out)
    data = json.loads(out.getvalue())
    one, two = data["runs"]
    assert (one["processes"], two["processes"]) == (1, 2)
    assert one["status"] == two["status"] == "done" and one["games"] == two["games"] > 0
    assert data["same_result"] is True and data["speed_up"] > 0
    assert one["in_process"]["games"] == two["in_process"]["games"] > 0
