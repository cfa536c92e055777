"""The one per-user cap on work: estimated CPU time queued or running, whatever its kind.

A submission's CPU time is its games × the seconds one game between its agents takes (both
agents' decisions and the rules, measured by the AI ladder: ``simulations.strength``). Every
work row stores its estimate (``cpu_seconds``); a user's work in flight is the sum over their
unfinished rows of every registered kind (``simulations.work``), so a planner search counts for
what it costs, not for its number of games.

Invariant: the check runs under a lock on the user's row, inside the transaction that creates
the work, so two submissions at the same moment cannot both pass it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.utils.translation import gettext_lazy

from simulations import conf, work
from simulations.strength import ladder_game_seconds

TOO_MUCH_CPU = gettext_lazy(
    "This would take about {needed} CPU hours; with the {queued} CPU hours of your work already "
    "queued or running, that passes your limit of {limit} CPU hours. Reduce {reduce}, or wait "
    "for your work to finish (or cancel some)."
)
REDUCE_GAMES = gettext_lazy("the games (or choose a faster agent)")
REDUCE_BUDGET = gettext_lazy("the game budget or the verification games (or choose a faster "
                             "agent)")


class QuotaError(ValueError):
    """A submission the cap refuses; ``field`` names the input to reduce."""

    def __init__(self, message: str, field: str = "non_field_errors"):
        super().__init__(str(message))
        self.message, self.field = str(message), field


def game_seconds(agent_a: str, agent_b: str) -> float:
    """Estimated CPU seconds of one game between these agents (the AI ladder's figure: a cap
    in CPU hours must not move with this machine's load)."""
    return ladder_game_seconds(agent_a, agent_b)


def cpu_seconds(*, agent_a: str, agent_b: str, games: int) -> float:
    return games * game_seconds(agent_a, agent_b)


def in_flight_cpu_seconds(owner_id: int | None) -> float:
    """The owner's estimated CPU seconds queued or running, every kind of work together."""
    total = 0.0
    for kind in work.kinds():
        total += (kind.rows().filter(kind.unfinished(), kind.of_owner(owner_id))
                  .aggregate(total=Sum("cpu_seconds"))["total"] or 0.0)
    return total


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:,.2f}"


def quota_check(*, owner, cpu_seconds: float, field: str, reduce: str,
                count_active: Callable[[], int] | None = None, count_limit: int = 0,
                too_many: str = "") -> None:
    """Lock the owner's row, then refuse (QuotaError) when their work in flight of this kind
    has reached ``count_limit`` (``count_active()``, message ``too_many`` with ``count`` and
    ``limit``), or when ``cpu_seconds`` more would pass ``SIMULATIONS_MAX_CPU_HOURS``."""
    get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
    if count_active is not None:
        count = count_active()
        if count >= count_limit:
            raise QuotaError(str(too_many).format(count=count, limit=count_limit))
    limit = conf.max_cpu_hours() * 3600
    queued = in_flight_cpu_seconds(owner.pk)
    if queued + cpu_seconds > limit:
        raise QuotaError(TOO_MUCH_CPU.format(needed=_hours(cpu_seconds), queued=_hours(queued),
                                             limit=_hours(limit), reduce=reduce), field)
