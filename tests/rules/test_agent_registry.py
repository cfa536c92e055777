"""The agents are registered once (``rules.ai.agents``); everything that names one reads that
list."""

import pytest

from rules.ai.agents import AGENT_NAMES, AGENTS, UNKNOWN_AGENT, agent_spec, ladder_rungs, make_agent
from rules.lab import ladder


def test_each_registered_agent_is_built_by_name_and_answers_to_it():
    for spec in AGENTS:
        agent = make_agent(spec.name)
        assert agent.name == spec.name
        assert hasattr(agent, "choose") and isinstance(agent.needs_view, bool)


def test_an_unknown_agent_is_refused_with_the_known_names():
    with pytest.raises(ValueError) as raised:
        make_agent("genius")
    assert str(raised.value) == UNKNOWN_AGENT.format(name="genius",
                                                     known=", ".join(sorted(AGENT_NAMES)))


def test_the_ladder_measures_each_agent_against_the_one_the_registry_names():
    assert ladder.RUNGS == ladder_rungs() == [("greedy", "random"), ("search", "greedy"),
                                              ("planner", "greedy"), ("planner", "search"),
                                              ("lean", "greedy"), ("lean", "planner"),
                                              ("learned", "greedy"), ("learned", "planner"),
                                              ("learned_planner", "greedy"),
                                              ("learned_planner", "planner")]
    for strong, weak in ladder.RUNGS:
        assert agent_spec(weak).name == weak and weak in agent_spec(strong).measured_against
