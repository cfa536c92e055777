"""Agents: players that pick an action from what their seat can see.

An agent is any object with ``choose(view, legal, rng) -> Action``. ``view`` is a
``PlayerView`` (or None when the agent says ``needs_view = False``, which saves building it);
``legal`` is the list of legal actions; ``rng`` is the agent's own seeded ``random.Random``,
so the game's RNG is never disturbed by how an agent thinks.

Invariant: an agent never sees the true game state — only its view.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules.engine.actions import Action


class RandomAgent:
    """Uniform over the legal actions."""

    name = "random"
    needs_view = False

    def choose(self, view, legal: list[Action], rng: random.Random) -> Action:
        return legal[int(rng.random() * len(legal))]


AGENTS: dict[str, Callable[[], object]] = {"random": RandomAgent}


def make_agent(name: str):
    """An agent by name; raises ValueError listing the known names."""
    from rules import greedy, search  # noqa: F401  (they register themselves)

    try:
        return AGENTS[name]()
    except KeyError:
        raise ValueError(f"unknown agent {name!r} (known: {', '.join(sorted(AGENTS))})") \
            from None
