"""The AI players' names on the site, in the page's language.

The engine names its agents in English (``rules.agents``); the site shows a short name in
prose (``agent_title``: "planner" → "规划") and a longer label in menus (``agent_label``). An
agent added later shows its engine name and label until it is translated here.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from rules.agents import agent_choices

AGENT_TITLES = {"greedy": _("greedy"), "random": _("random"), "search": _("search"),
                "planner": _("planner")}
AGENT_LABELS = {"greedy": _("Greedy (fast heuristic)"), "random": _("Random"),
                "search": _("Search (strong)"), "planner": _("Planner (strong)")}


def agent_title(code: str) -> str:
    return str(AGENT_TITLES.get(code, code))


def agent_label(code: str) -> str:
    engine = dict(agent_choices())
    return str(AGENT_LABELS.get(code, engine.get(code, code)))


def agent_menu() -> list[tuple[str, str]]:
    """(name, label) for forms, in registry order."""
    return [(name, AGENT_LABELS.get(name, label)) for name, label in agent_choices()]
