"""The site offers the agents of the registry (``rules.ai.agents``): forms, API and chunk sizes."""

import pytest

from rules.ai.agents import AGENT_NAMES, AGENTS, DEFAULT_AGENT, agent_choices
from simulations.apis import SubmitInputSerializer
from simulations.forms import SimulationForm
from simulations.services import chunk_size_for


@pytest.mark.django_db
def test_the_simulate_form_offers_the_registered_agents_with_their_labels():
    form = SimulationForm()
    for name in ("agent_a", "agent_b"):
        assert list(form.fields[name].choices) == agent_choices()
        assert form.fields[name].initial == DEFAULT_AGENT


def test_the_api_accepts_exactly_the_registered_agents():
    fields = SubmitInputSerializer().fields
    for name in ("agent_a", "agent_b"):
        assert list(fields[name].choices) == list(AGENT_NAMES)
        assert fields[name].default == DEFAULT_AGENT


def test_chunks_are_sized_by_the_registry_and_the_slower_agent_of_the_run():
    sizes = {spec.name: spec.chunk_games for spec in AGENTS}
    assert chunk_size_for(100_000, ["random", "random"]) == sizes["random"]
    assert chunk_size_for(1_000, ["random", "search"]) == sizes["search"]
