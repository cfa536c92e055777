"""What the engine asks of a player (the players themselves are in ``rules.ai``).

An agent chooses one of the legal actions from what its seat may see. ``view`` is a
``PlayerView``, or None when the agent says ``needs_view = False`` (building a view costs time
an agent that ignores it should not pay); ``rng`` is the agent's own seeded ``random.Random``,
so the game's RNG is never disturbed by how an agent thinks.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

NEEDS_VIEW = "{name} decides from what its seat sees: it needs a view (needs_view = True)"

if TYPE_CHECKING:
    from rules.engine.actions import Action
    from rules.engine.view import PlayerView


class Draws(Protocol):
    """Where the greedy policy draws its tie-breaks from: a ``random.Random``, or anything that
    answers ``random()`` as one would (a planner's rollouts replay one generator's draws)."""

    def random(self) -> float: ...


class Agent(Protocol):
    @property
    def needs_view(self) -> bool: ...

    def choose(self, view: PlayerView | None, legal: list[Action],
               rng: random.Random) -> Action: ...
