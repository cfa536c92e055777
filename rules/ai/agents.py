"""The agents, registered once: every place that names an agent reads this list.

The match runner and the benchmark build agents with ``make_agent``; the AI ladder plays each
agent against the ones it is ``measured_against`` (and its stored result rates them all:
``rules.ai.ratings``, whose measured costs size the simulation service's chunks); a balance
job's pieces hold at most ``chunk_games``; the site's forms, API and command line offer
``AGENT_NAMES``, named in a sentence by ``title(lang)`` and in menus by ``label(lang)`` (English
here, other languages in the catalogues of ``rules/locale``: ``agent.<name>``,
``agent.<name>.label``); what level of play its win rates stand for is its ``skill`` (a code of
``SKILLS``: casual or skilled play, ``skill.<code>`` in the catalogues); a command with no
agent given plays ``DEFAULT_AGENT``. Adding an agent is one entry in ``AGENTS`` (and its module).

An agent is any object with ``choose(view, legal, rng) -> Action`` and a ``needs_view`` flag
(see ``rules.ai.random_agent``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.ai.greedy import GreedyAgent
from rules.ai.lean import LeanPlannerAgent
from rules.ai.learned import LearnedAgent, LearnedPlannerAgent
from rules.ai.planner import PlannerAgent
from rules.ai.random_agent import RandomAgent
from rules.ai.search import SearchAgent
from rules.engine.agent import Agent
from rules.localized import LocalizedText


@dataclass(frozen=True)
class AgentSpec:
    name: str                         # its code: forms, the API, stored runs
    make: Callable[[], Agent]
    title_en: str                     # its name in a sentence ("greedy vs greedy")
    label_en: str                     # its name in a menu, with what it costs
    chunk_games: int                  # games a balance piece holds at most: about a second
    measured_against: tuple[str, ...] = ()   # the agents it meets on the AI ladder
    skill: str = "casual"             # the level of play its win rates stand for (``SKILLS``)

    def title(self, lang: str) -> str:
        return LocalizedText(f"agent.{self.name}", self.title_en).text(lang)

    def label(self, lang: str) -> str:
        return LocalizedText(f"agent.{self.name}.label", self.label_en).text(lang)

    @property
    def fast(self) -> bool:
        """Plays hundreds of games in a second of a core (a planning agent plays a few)."""
        return self.chunk_games >= 100


@dataclass(frozen=True)
class Skill:
    """A level of play, named once: what a win rate played by an agent of it stands for."""

    code: str
    name_en: str                      # as in a sentence ("skilled play")

    def name(self, lang: str) -> str:
        return LocalizedText(f"skill.{self.code}", self.name_en).text(lang)


SKILLS: dict[str, Skill] = {skill.code: skill for skill in (
    Skill("random", "random play"),
    Skill("casual", "casual play"),
    Skill("skilled", "skilled play"),
)}


# Fastest useful first: the first one is the default opponent the site offers.
AGENTS: tuple[AgentSpec, ...] = (
    AgentSpec("greedy", GreedyAgent, "greedy", "Greedy (fast heuristic)", chunk_games=800,
              measured_against=("random",)),
    AgentSpec("random", RandomAgent, "random", "Random", chunk_games=800,
              skill="random"),
    AgentSpec("search", SearchAgent, "search", "Search (strong)",
              chunk_games=4, measured_against=("greedy",), skill="skilled"),
    AgentSpec("planner", PlannerAgent, "planner", "Planner (strong)",
              chunk_games=4, measured_against=("greedy", "search"), skill="skilled"),
    # The planner's search on a smaller budget, spent where it decides (rules.ai.lean).
    AgentSpec("lean", LeanPlannerAgent, "lean", "Lean planner (strong, quicker)",
              chunk_games=40, measured_against=("greedy", "planner"), skill="skilled"),
    # The policy's few best moves judged by the learned evaluator (rules.ai.learned), and the
    # planner's search judged by that evaluator at its turn's end and by material after the
    # opponent's reply, both at once.
    AgentSpec("learned", LearnedAgent, "learned", "Learned (one-move look-ahead, quick)",
              chunk_games=200, measured_against=("greedy", "planner"), skill="skilled"),
    AgentSpec("learned_planner", LearnedPlannerAgent, "learned_planner",
              "Learned planner (strong, quicker)", chunk_games=40,
              measured_against=("greedy", "planner"), skill="skilled"),
)
AGENT_NAMES: tuple[str, ...] = tuple(spec.name for spec in AGENTS)
DEFAULT_AGENT = AGENTS[0].name
# The weakest agent: the ratings' anchor (Elo 0) and the match runner's opponent when none is
# named.
BASELINE_AGENT = "random"
UNKNOWN_AGENT = "unknown agent {name!r} (known: {known})"


def agent_spec(name: str) -> AgentSpec:
    """An agent's entry by name; raises ValueError listing the known names."""
    for spec in AGENTS:
        if spec.name == name:
            return spec
    raise ValueError(UNKNOWN_AGENT.format(name=name, known=", ".join(sorted(AGENT_NAMES))))


def make_agent(name: str) -> Agent:
    """A new agent by name; raises ValueError listing the known names."""
    return agent_spec(name).make()


def ladder_rungs() -> list[tuple[str, str]]:
    """(stronger, weaker) pairs the AI ladder measures, from the weakest rung up."""
    return [(spec.name, weak) for spec in AGENTS for weak in spec.measured_against]
