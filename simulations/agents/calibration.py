"""How fast this deployment plays, measured where the games are played.

The stored AI ladder result (``rules/data/ladder.json``) gives each agent's CPU seconds per
game on the machine that wrote it. A worker measures its own pace when it starts: a moment of
the cheapest rung's games (``rules.lab.ladder.pace_probe``: the rules' pace, ``factor``), then a
few games of each slow agent against greedy (its decisions' pace: one agent's search can slow
down more than the rules on another machine), and stores the wall-clock times against what
the ladder says those very games cost (``simulations.agents.strength.ladder_parts``: the rung's own
figures — greedy vs random took 0.35 ms a game on the ladder's machine; divided by the model's
0.88 ms, built on the rules' average over every rung, the rules looked 2.5 times faster here
than they were: a machine as fast as the ladder's logged "estimates × 0.4", an idle one here
"× 0.24". The ladder was timed on the compiled engine: its greedy-vs-random games cost 0.4–0.6
ms of CPU here compiled and 2.4–3.4 ms on the plain Python engine). ``simulations.agents.strength``
multiplies the ladder's figures by these factors for every estimate made before the deployment
has played the same agents; once it has, the observed pace of its finished chunks replaces
them. Wall-clock, not CPU time: a loaded machine's estimate must include the load.
"""

from __future__ import annotations

import logging
from pathlib import Path

from rules.decks.cardset import CORE_SET, TEST_SET
from rules.lab.ladder import PROBE_AGENTS, pace_probe
from simulations import conf
from simulations.agents.strength import agent_costs, ladder_parts
from simulations.models import PaceCalibration

log = logging.getLogger(__name__)
KEPT = 20     # the latest measurements are kept, to show in the admin
RULES_SHARE = 0.25   # of the budget, for the rules' pace; the rest is shared by the slow agents
SLOW_OPPONENT = "greedy"


def deployment_calibrate(*, host: str, budget_seconds: float | None = None
                         ) -> PaceCalibration | None:
    """Measure this machine's pace now and store it; None when the ladder never timed the
    probe's agents or the measurement is switched off (``SIMULATIONS_CALIBRATION_SECONDS``)."""
    budget = conf.calibration_seconds() if budget_seconds is None else budget_seconds
    probe_parts = ladder_parts(*PROBE_AGENTS)
    if budget <= 0 or not probe_parts or not sum(probe_parts):
        return None
    card_set = CORE_SET if CORE_SET.exists() else TEST_SET
    slow = [name for name in agent_costs() if name not in ("engine", *PROBE_AGENTS)
            and ladder_parts(name, SLOW_OPPONENT)]
    probe = pace_probe(card_set, budget * (RULES_SHARE if slow else 1.0))
    ladder = sum(probe_parts) * probe["games"]
    factor = probe["wall_seconds"] / ladder
    agents = {name: _agent_pace(card_set, name, factor, budget * (1 - RULES_SHARE) / len(slow))
              for name in slow}
    row = PaceCalibration.objects.create(
        host=host[:200], games=probe["games"], wall_seconds=probe["wall_seconds"],
        cpu_seconds=probe["cpu_seconds"], ladder_seconds=ladder, factor=factor, agents=agents)
    old = PaceCalibration.objects.values_list("pk", flat=True)[KEPT:]
    PaceCalibration.objects.filter(pk__in=list(old)).delete()
    log.info("pace of %s: %d games in %.2f s (the ladder: %.2f s), estimates × %.2f; %s",
             host, row.games, row.wall_seconds, ladder, row.factor,
             ", ".join(f"{name} × {pace['factor']:.2f}" for name, pace in agents.items()))
    return row


def _agent_pace(card_set: Path, name: str, rules_factor: float, budget: float) -> dict[str, float]:
    """A few games of ``name`` against greedy: the factor of its own decisions, the wall time
    less what greedy's decisions and the rules take at the rules' pace (at least a tenth of
    the rules' factor: a game cannot cost less than nothing), all as the ladder timed games
    between these two agents."""
    probe = pace_probe(card_set, budget, agents=(name, SLOW_OPPONENT))
    games, wall = probe["games"], probe["wall_seconds"]
    own, opponent, rules = ladder_parts(name, SLOW_OPPONENT) or (0.0, 0.0, 0.0)
    rest = (opponent + rules) * rules_factor * games
    return {"games": games, "wall_seconds": wall,
            "ladder_seconds": (own + opponent + rules) * games,
            "factor": max(rules_factor / 10, (wall - rest) / (own * games))}
