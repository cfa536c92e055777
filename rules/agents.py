"""The agents, registered once: every place that names an agent reads this list.

The match runner and the benchmark build agents with ``make_agent``; the AI ladder plays each
agent against the ones it is ``measured_against`` (and its stored result rates them all:
``rules.ratings``); the simulation service sizes its chunks with
``chunk_games``; the site's forms, API and command line offer ``AGENT_NAMES`` with their
``label``. Adding an agent is one entry in ``AGENTS`` (and its module).

An agent is any object with ``choose(view, legal, rng) -> Action`` and a ``needs_view`` flag
(see ``rules.random_agent``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.greedy import GreedyAgent
from rules.planner import PlannerAgent
from rules.random_agent import RandomAgent
from rules.search import SearchAgent


@dataclass(frozen=True)
class AgentSpec:
    name: str
    make: Callable[[], object]
    label: str                        # how the site offers it
    chunk_games: int                  # games one simulation chunk plays: about a second of a core
    measured_against: tuple[str, ...] = ()   # the weaker agents it meets on the AI ladder


# Fastest useful first: the first one is the default opponent the site offers.
AGENTS: tuple[AgentSpec, ...] = (
    AgentSpec("greedy", GreedyAgent, "Greedy (fast heuristic)", chunk_games=800,
              measured_against=("random",)),
    AgentSpec("random", RandomAgent, "Random", chunk_games=800),
    AgentSpec("search", SearchAgent, "Search (strong)", chunk_games=4,
              measured_against=("greedy",)),
    AgentSpec("planner", PlannerAgent, "Planner (strong)", chunk_games=4,
              measured_against=("greedy", "search")),
)
AGENT_NAMES: tuple[str, ...] = tuple(spec.name for spec in AGENTS)
DEFAULT_AGENT = AGENTS[0].name
UNKNOWN_AGENT = "unknown agent {name!r} (known: {known})"


def agent_spec(name: str) -> AgentSpec:
    """An agent's entry by name; raises ValueError listing the known names."""
    for spec in AGENTS:
        if spec.name == name:
            return spec
    raise ValueError(UNKNOWN_AGENT.format(name=name, known=", ".join(sorted(AGENT_NAMES))))


def make_agent(name: str):
    """A new agent by name; raises ValueError listing the known names."""
    return agent_spec(name).make()


def agent_choices() -> list[tuple[str, str]]:
    """(name, label) pairs for forms and menus, in registry order."""
    return [(spec.name, spec.label) for spec in AGENTS]


def ladder_rungs() -> list[tuple[str, str]]:
    """(stronger, weaker) pairs the AI ladder measures, from the weakest rung up."""
    return [(spec.name, weak) for spec in AGENTS for weak in spec.measured_against]
