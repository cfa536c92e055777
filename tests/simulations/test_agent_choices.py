"""The site offers the agents of the registry (``rules.ai.agents``): forms, API and chunk sizes."""

import pytest

from rules.ai.agents import AGENT_NAMES, AGENTS, DEFAULT_AGENT
from simulations.agents.strength import game_seconds_here
from simulations.apis import SubmitInputSerializer
from simulations.forms import SimulationForm
from simulations.models import PaceCalibration
from simulations.services import chunk_size_for


@pytest.mark.django_db
def test_the_simulate_form_offers_the_registered_agents_with_their_labels():
    form = SimulationForm()
    for name in ("agent_a", "agent_b"):
        assert list(form.fields[name].choices) == [(spec.name, spec.label("en"))
                                                   for spec in AGENTS]
        assert form.fields[name].initial == DEFAULT_AGENT


def test_the_api_accepts_exactly_the_registered_agents():
    fields = SubmitInputSerializer().fields
    for name in ("agent_a", "agent_b"):
        assert list(fields[name].choices) == list(AGENT_NAMES)
        assert fields[name].default == DEFAULT_AGENT


@pytest.mark.django_db
def test_a_chunk_is_about_a_second_of_a_core_whatever_the_agents():
    """Games per chunk follow the agents' measured seconds a game at this deployment's pace
    (``simulations.agents.strength``): a chunk of a big run costs about ``CHUNK_SECONDS``, fast or
    slow agents, however many games the run has."""
    for agents in (["random", "random"], ["greedy", "greedy"], ["greedy", "planner"],
                   ["planner", "planner"], ["search", "planner"]):
        per_game = game_seconds_here(*agents)
        size = chunk_size_for(100_000, agents)
        assert size % 2 == 0 and size >= 2
        assert 0.7 <= size * per_game <= 1.3 or size == 2, (agents, size, size * per_game)


@pytest.mark.django_db
def test_a_slower_deployment_makes_smaller_chunks(settings):
    quick = chunk_size_for(100_000, ["greedy", "greedy"])
    PaceCalibration.objects.create(host="w@h", games=10, wall_seconds=4.0, cpu_seconds=4.0,
                                   ladder_seconds=1.0, factor=4.0)
    assert chunk_size_for(100_000, ["greedy", "greedy"]) == pytest.approx(quick / 4, rel=0.05)


@pytest.mark.django_db
def test_a_requested_chunk_size_is_an_upper_bound_never_a_floor():
    natural = chunk_size_for(100_000, ["planner", "planner"])
    assert chunk_size_for(100_000, ["planner", "planner"], 10_000) == natural
    assert chunk_size_for(100_000, ["greedy", "greedy"], 10) == 10
    assert chunk_size_for(100_000, ["greedy", "greedy"], 7) == 6       # even, under the bound


@pytest.mark.django_db
def test_small_runs_are_shared_between_workers():
    assert chunk_size_for(16, ["greedy", "greedy"]) == 2
    assert chunk_size_for(2, ["planner", "planner"]) == 2
