"""bench_balance runs end to end (tiny numbers: the figures come from the command itself, run
by hand; here it only has to work, print them, and find the same search and the same planner
run on 1 and 2 processes)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.long
def test_the_benchmark_times_a_search_and_a_planner_run_on_one_and_two_processes():
    out = StringIO()
    # Two decks are a band search: the meta objective needs a field of three.
    call_command("bench_balance", "--decks", "Ember Rush,Tidewall", "--objective", "band",
                 "--budget-games", "2000",
                 "--verify-games", "100", "--max-changes", "1", "--planner-games", "6",
                 "--planner-sample-games", "4", "--json", stdout=out)
    data = json.loads(out.getvalue())
    one, two = data["runs"]
    assert (one["processes"], two["processes"]) == (1, 2)
    assert one["status"] == two["status"] == "done" and one["games"] == two["games"] > 0
    assert data["same_result"] is True and data["speed_up"] > 0
    assert one["in_process"]["games"] == two["in_process"]["games"] > 0
    planned = [one["planner"], two["planner"]]
    assert [p["status"] for p in planned] == ["done", "done"]
    assert [p["games"] for p in planned] == [6, 6]
    assert [p["in_process"]["processes"] for p in planned] == [1, 2]
    assert all(p["in_process"]["games"] >= 4 and p["in_process"]["games_per_s"] > 0
               for p in planned)
    assert data["planner_same_result"] is True
    assert data["planner_speed_up"] > 0 and data["planner_speed_up_in_process"] > 0


def test_the_printed_report_gives_the_planner_runs_speed_up_beside_the_in_process_one():
    """The lines a person reads, from rows such as a run measures (no workers started)."""
    from tools.management.commands.bench_balance import Command

    def row(processes, wall, rate, result):
        planner = {"status": "done", "deck_a": "Ember Rush", "deck_b": "Tidewall",
                   "wall_s": 2 * wall, "games": 20_000, "games_per_s": 20_000 / (2 * wall),
                   "cpu_s": None, "cpu_share": None, "load": "1.00 0.50 0.25 on 2 cores",
                   "in_process": {"processes": processes, "games": 200, "games_per_s": rate},
                   "result": result}
        return {"processes": processes, "status": "done", "wall_s": wall, "games": 100,
                "games_per_s": 100 / wall, "cpu_s": None, "cpu_share": None,
                "load": "1.00 0.50 0.25 on 2 cores", "result": {"best": None},
                "in_process": {"processes": processes, "wall_s": wall, "games": 100},
                "planner": planner}

    out = StringIO()
    command = Command(stdout=out)
    first, second = row(1, 100.0, 20.0, [[1, 2]]), row(2, 50.0, 36.0, [[1, 2]])
    for r in (first, second):
        command.stdout.write(command._line(r))
    summary = command._summary({"json": False}, [first, second])
    text = out.getvalue()
    assert "planner run Ember Rush vs Tidewall: done in 200.0 s, 20,000 games" in text
    assert "same moment in-process on 2 process(es): 36.00 games/s (200 of the run's games)" \
        in text
    assert "planner run with 2 processes: 2.00× (in-process at the same moments: 1.80×); the " \
           "same results: yes" in text
    assert summary["planner_speed_up"] == 2.0 and summary["planner_same_result"] is True
    second["planner"]["result"] = [[2, 1]]
    assert command._summary({"json": True}, [first, second])["planner_same_result"] is False
