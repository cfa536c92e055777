"""The one per-user cap on work: estimated CPU time queued or running, whatever its kind.

Every work row stores its estimated CPU time (``cpu_seconds``: what its submission's games cost,
reckoned by the app that made it — ``simulations.quota`` for the AI ladder's figures); a user's
work in flight is the sum over their unfinished rows of every registered kind
(``work.protocol``), so a planner search counts for what it costs, not for its number of games.

Invariant: the check runs under a lock on the user's row, inside the transaction that creates
the work, so two submissions at the same moment cannot both pass it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Sum
from django.utils.translation import gettext_lazy

from work import conf, protocol

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

TOO_MUCH_CPU = gettext_lazy(
    "This would take about {needed} CPU hours; with the {queued} CPU hours of your work already "
    "queued or running, that passes your limit of {limit} CPU hours. Reduce {reduce}, or wait "
    "for your work to finish (or cancel some)."
)


class QuotaError(ValueError):
    """A submission the cap refuses; ``field`` names the input to reduce."""

    def __init__(self, message: str, field: str = "non_field_errors"):
        super().__init__(str(message))
        self.message, self.field = str(message), field


def in_flight_cpu_seconds(owner_id: int | None) -> float:
    """The owner's estimated CPU seconds queued or running, every kind of work together."""
    total = 0.0
    for kind in protocol.kinds():
        total += (kind.rows().filter(kind.unfinished(), kind.of_owner(owner_id))
                  .aggregate(total=Sum("cpu_seconds"))["total"] or 0.0)
    return total


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:,.2f}"


def quota_check(*, owner: AbstractBaseUser, cpu_seconds: float, field: str,
                reduce: str | StrPromise,
                count_active: Callable[[], int] | None = None, count_limit: int = 0,
                too_many: str | StrPromise = "") -> None:
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
