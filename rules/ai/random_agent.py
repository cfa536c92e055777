"""The random agent: uniform over the legal actions (the baseline every stronger agent beats).

An agent is any object with ``choose(view, legal, rng) -> Action``. ``view`` is a
``PlayerView`` (or None when the agent says ``needs_view = False``, which saves building it);
``legal`` is the list of legal actions; ``rng`` is the agent's own seeded ``random.Random``,
so the game's RNG is never disturbed by how an agent thinks. Agents are listed, by name, in
``rules.ai.agents``.

Invariant: an agent never sees the true game state — only its view.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from rules.engine.actions import Action

if TYPE_CHECKING:
    from rules.engine.view import PlayerView


# The generator's class and its own ``random`` method, held once: called as a plain function,
# the method is not looked up on the generator at every choice (a lookup that searches the
# instance's attributes first), and draws exactly the same number.
_GENERATOR: Final = random.Random
_DRAW: Final = random.Random.random


class RandomAgent:
    """Uniform over the legal actions (so it declines an optional skill, R6.1, half the time)."""

    name = "random"
    needs_view = False

    def choose(self, view: PlayerView | None, legal: list[Action],
               rng: random.Random) -> Action:
        # float(len(legal)): the product is the same number, worked out natively when compiled
        # (a float times an int is otherwise multiplied as two boxed objects).
        # A subclass of Random may draw its own way: it is asked by name.
        draw = _DRAW(rng) if type(rng) is _GENERATOR else rng.random()
        return legal[int(draw * float(len(legal)))]
