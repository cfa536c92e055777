"""What a submission costs under the per-user cap (``work.quota``), and what to reduce.

A submission's CPU time is its games × the seconds one game between its agents takes (both
agents' decisions and the rules, measured by the AI ladder: ``simulations.agents.strength``).
Each work row stores its share of it (``cpu_seconds``); the cap itself — the sum over a user's
unfinished work of every kind, checked under a lock on the user's row — is ``work.quota``'s.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from simulations.agents.strength import ladder_game_seconds

REDUCE_GAMES = gettext_lazy("the games (or choose a faster agent)")
REDUCE_BUDGET = gettext_lazy("the game budget or the verification games (or choose a faster "
                             "agent)")


def game_seconds(agent_a: str, agent_b: str) -> float:
    """Estimated CPU seconds of one game between these agents (the AI ladder's figure: a cap
    in CPU hours must not move with this machine's load)."""
    return ladder_game_seconds(agent_a, agent_b)


def cpu_seconds(*, agent_a: str, agent_b: str, games: int) -> float:
    return games * game_seconds(agent_a, agent_b)
