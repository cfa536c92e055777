"""How fast this deployment plays, measured where the games are played.

The stored AI ladder result (``rules/data/ladder.json``) gives each agent's CPU seconds per
game on the machine that wrote it. A worker measures its own pace when it starts: it plays the
cheapest rung's games for a couple of seconds (``rules.lab.ladder.pace_probe``) and stores the
wall-clock time against what the ladder says those games cost. The ratio, the ``factor``,
multiplies every time estimate made before a job has a pace of its own (the simulation form,
a queued run, a search before its first round); once a job plays, its observed pace replaces
it. Wall-clock, not CPU time: a loaded machine's estimate must include the load.
"""

from __future__ import annotations

import logging

from rules.ai.ratings import seconds_per_game
from rules.decks.cardset import CORE_SET, TEST_SET
from rules.lab.ladder import PROBE_AGENTS, pace_probe
from simulations import conf
from simulations.models import PaceCalibration
from simulations.strength import agent_costs

log = logging.getLogger(__name__)
KEPT = 20     # the latest measurements are kept, to show in the admin


def deployment_calibrate(*, host: str, budget_seconds: float | None = None
                         ) -> PaceCalibration | None:
    """Measure this machine's pace now and store it; None when the ladder never timed the
    probe's agents or the measurement is switched off (``SIMULATIONS_CALIBRATION_SECONDS``)."""
    budget = conf.calibration_seconds() if budget_seconds is None else budget_seconds
    per_game = seconds_per_game(agent_costs(), *PROBE_AGENTS)
    if budget <= 0 or not per_game:
        return None
    probe = pace_probe(CORE_SET if CORE_SET.exists() else TEST_SET, budget)
    ladder = per_game * probe["games"]
    row = PaceCalibration.objects.create(
        host=host[:200], games=probe["games"], wall_seconds=probe["wall_seconds"],
        cpu_seconds=probe["cpu_seconds"], ladder_seconds=ladder,
        factor=probe["wall_seconds"] / ladder)
    old = PaceCalibration.objects.values_list("pk", flat=True)[KEPT:]
    PaceCalibration.objects.filter(pk__in=list(old)).delete()
    log.info("pace of %s: %d games in %.2f s (the ladder: %.2f s), estimates × %.2f",
             host, row.games, row.wall_seconds, ladder, row.factor)
    return row
