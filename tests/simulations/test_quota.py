"""One cap on each user's work in flight, in estimated CPU time (games × the seconds a game of
the agents takes on the AI ladder): runs, balance searches and tunings all count toward it and
are all refused past it, with the figures and what to reduce, in the reader's language."""

from __future__ import annotations

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from balance.models import JobKind
from balance.services import job_cpu_seconds
from simulations.agents.strength import ladder_parts
from simulations.quota import REDUCE_BUDGET, REDUCE_GAMES, cpu_seconds
from simulations.services import simulation_cancel, simulation_request
from tests.simulations.helpers import DAWN, DUSK
from work.quota import TOO_MUCH_CPU, _hours, in_flight_cpu_seconds

pytestmark = pytest.mark.django_db

PLANNER_RUN = {"kind": "match", "decks": [DAWN, DUSK], "games": 20_000, "agent_a": "planner",
               "agent_b": "planner", "seed": 3}
SEARCH = {"decks": [DAWN, DUSK], "agent": "planner", "max_changes": 2, "budget_games": 20_000,
          "verify_games": 100, "seed": 5, "allowed_cards": ["T-H01", "T-H02", "T-M01"],
          "objective": "band"}
TUNING = {"deck": DAWN, "field": [DUSK], "agent": "planner", "max_swaps": 1,
          "budget_games": 20_000, "verify_games": 100, "seed": 7}


def cap_hours() -> float:
    """A cap one planner run fits under and two do not, from the agent's measured cost."""
    return round(1.5 * cpu_seconds(agent_a="planner", agent_b="planner", games=20_000) / 3600, 2)


@pytest.fixture
def api(alice, catalogue, settings):
    settings.SIMULATIONS_MAX_CPU_HOURS = cap_hours()
    client = APIClient()
    client.force_authenticate(alice)
    return client


def refusal(needed: float, queued: float, reduce) -> str:
    return TOO_MUCH_CPU.format(needed=_hours(needed), queued=_hours(queued),
                               limit=_hours(cap_hours() * 3600), reduce=reduce)


def test_the_estimate_is_games_times_the_agents_measured_cost():
    per_game = sum(ladder_parts("planner", "planner"))      # the ladder's figures of a game
    assert cpu_seconds(agent_a="planner", agent_b="planner", games=20_000) == \
        pytest.approx(20_000 * per_game)
    greedy = cpu_seconds(agent_a="greedy", agent_b="greedy", games=20_000)
    assert greedy * 20 < cpu_seconds(agent_a="planner", agent_b="planner", games=20_000)


def test_a_run_past_the_cpu_cap_is_a_400_naming_the_games_and_the_figures(api, alice):
    first = api.post("/api/simulations/", PLANNER_RUN, format="json")
    assert first.status_code == 201, first.json()
    run_cpu = cpu_seconds(agent_a="planner", agent_b="planner", games=20_000)
    assert in_flight_cpu_seconds(alice.pk) == pytest.approx(run_cpu)
    second = api.post("/api/simulations/", PLANNER_RUN, format="json")
    assert second.status_code == 400
    assert second.json()["games"] == [refusal(run_cpu, run_cpu, REDUCE_GAMES)]
    fast = api.post("/api/simulations/", {**PLANNER_RUN, "agent_a": "greedy",
                                          "agent_b": "greedy"}, format="json")
    assert fast.status_code == 201     # the same games with a fast agent cost next to nothing


def test_searches_and_tunings_share_the_cap_with_runs(api, alice):
    run = simulation_request(user=alice, kind="match", deck_specs=[DAWN, DUSK], games=20_000,
                             agent_a="planner", agent_b="planner", seed=1)
    run_cpu = cpu_seconds(agent_a="planner", agent_b="planner", games=20_000)
    search = api.post("/api/balance-searches/", SEARCH, format="json")
    assert search.status_code == 400
    search_cpu = job_cpu_seconds(kind=JobKind.BALANCE, decks=2, agent="planner",
                                 budget_games=20_000, verify_games=100)
    assert search.json()["budget_games"] == [refusal(search_cpu, run_cpu, REDUCE_BUDGET)]
    tuning = api.post("/api/deck-tunings/", TUNING, format="json")
    assert tuning.status_code == 400
    tuning_cpu = job_cpu_seconds(kind=JobKind.TUNING, decks=2, agent="planner",
                                 budget_games=20_000, verify_games=100)
    assert tuning.json()["budget_games"] == [refusal(tuning_cpu, run_cpu, REDUCE_BUDGET)]
    simulation_cancel(run=run)          # a cancelled run no longer counts
    assert api.post("/api/balance-searches/", SEARCH, format="json").status_code == 201
    assert in_flight_cpu_seconds(alice.pk) == pytest.approx(search_cpu)


def test_each_user_has_an_allowance_of_their_own_and_the_command_line_has_none(api, bob):
    assert api.post("/api/simulations/", PLANNER_RUN, format="json").status_code == 201
    theirs = APIClient()
    theirs.force_authenticate(bob)
    assert theirs.post("/api/simulations/", PLANNER_RUN, format="json").status_code == 201
    for _ in range(2):   # no account: trusted command-line runs are not capped
        simulation_request(user=None, kind="match", deck_specs=[DAWN, DUSK], games=20_000,
                           agent_a="planner", agent_b="planner", seed=1, trusted=True)


def test_the_refusal_speaks_the_readers_language(api):
    assert api.post("/api/simulations/", PLANNER_RUN, format="json").status_code == 201
    with translation.override("en"):   # the request's language stays with the request
        second = api.post("/api/simulations/", PLANNER_RUN, format="json",
                          HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert second.status_code == 400
    message = second.json()["games"][0]
    assert "CPU 小时" in message and _hours(cap_hours() * 3600) in message and "对局数" in message
