"""What a run costs besides its games, observed on this deployment's finished runs (selectors).

A run's time is not only its games ÷ the worker processes. Before the first game the run's
first message has to reach a worker (the filesystem broker polls) and be claimed (``start``);
each chunk costs its claim, its stored result and the next message (``chunk``: a process's
time per chunk besides the chunk's games); after the last game the run is finalised — its
figures merged, the catalogue's card figures added (``finish``). A 20-game run is almost all
of that, a gauntlet of planners almost none.

Each is the median over the latest finished runs (``OBSERVED_RUNS`` of the last hour, at
least ``OBSERVED_MIN_RUNS``, no chunk played twice): ``start`` = first chunk claimed − run
submitted, ``finish`` = run finished − last chunk finished, ``chunk`` = (last chunk finished −
first claimed − what its games take at the pace here) ÷ the chunks a worker process played one
after another. Until the deployment has finished that many runs, the figures measured on the
development machine (``MEASURED_HERE``: filesystem broker, SQLite, two worker processes, a
busy machine; ``manage.py bench_estimates`` prints them) stand in.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import cast

from django.core.cache import cache
from django.db.models import Count, F, Max, Min, Q, Sum
from django.utils import timezone

from simulations.models import ChunkState, SimulationRun
from work.models import WorkStatus

OBSERVED_KEY = "simulations:observed-run-costs"
OBSERVED_WINDOW = timedelta(hours=1)
OBSERVED_RUNS = 50
OBSERVED_MIN_RUNS = 3
OBSERVED_CACHE_SECONDS = 10


@dataclass(frozen=True)
class RunCosts:
    """Seconds of a run besides its games: before its first chunk, per chunk on one worker
    process, after its last chunk; ``observed`` from finished runs or measured on the
    development machine."""
    start: float
    chunk: float
    finish: float
    observed: bool = False

    def as_dict(self) -> dict[str, float | bool]:
        return {"start": self.start, "chunk": self.chunk, "finish": self.finish,
                "observed": self.observed}


# What the development machine's runs cost besides their games (filesystem broker polling
# every 0.1 s, SQLite, two worker processes), observed by bench_estimates on 2026-11-25 on the
# idle 2-core machine (start 0.097 s, chunk 0.083 s, finish 0.073 s, rounded up); a busy
# machine's are several times these, which the deployment's own observed runs then show. The
# runs are in docs/engine.md.
MEASURED_HERE = RunCosts(start=0.10, chunk=0.09, finish=0.08)


def rounds(chunks: int, workers: int) -> int:
    """Chunks one worker process plays one after another when ``workers`` share them."""
    return math.ceil(max(1, chunks) / max(1, min(workers, chunks)))


def observed_run_costs(game_seconds: Callable[[str, str], float], workers: int) -> RunCosts:
    """This deployment's costs besides the games, from its latest finished runs (the module's
    docstring); ``MEASURED_HERE`` until it has finished enough of them. ``game_seconds`` is the
    seconds of a game between two agents here
    (``simulations.agents.strength.game_seconds_here``)."""
    def compute() -> RunCosts:
        rows = (SimulationRun.objects
                .filter(status=WorkStatus.DONE, finished_at__gte=timezone.now() - OBSERVED_WINDOW)
                .annotate(first=Min("chunks__started_at",
                                    filter=Q(chunks__state=ChunkState.DONE)),
                          last=Max("chunks__finished_at",
                                   filter=Q(chunks__state=ChunkState.DONE)),
                          played=Count("chunks", filter=Q(chunks__state=ChunkState.DONE)),
                          played_games=Sum(F("chunks__stop") - F("chunks__start"),
                                    filter=Q(chunks__state=ChunkState.DONE)),
                          retried=Count("chunks", filter=Q(chunks__attempts__gt=1)))
                .filter(retried=0, played__gt=0, first__isnull=False, last__isnull=False)
                .order_by("-finished_at")
                .values_list("agent_a", "agent_b", "created_at", "first", "last",
                             "finished_at", "played", "played_games")[:OBSERVED_RUNS])
        starts, chunks, finishes = [], [], []
        paces: dict[tuple[str, str], float] = {}
        for agent_a, agent_b, created, first, last, finished, played, games in rows:
            if (agent_a, agent_b) not in paces:
                paces[agent_a, agent_b] = game_seconds(agent_a, agent_b)
            starts.append((first - created).total_seconds())
            finishes.append((finished - last).total_seconds())
            turns = rounds(played, workers)
            busy = (last - first).total_seconds()
            chunks.append((busy - turns * paces[agent_a, agent_b] * games / played)
                          / turns)
        if len(starts) < OBSERVED_MIN_RUNS:
            return MEASURED_HERE
        return RunCosts(start=max(0.0, statistics.median(starts)),
                        chunk=max(0.0, statistics.median(chunks)),
                        finish=max(0.0, statistics.median(finishes)), observed=True)
    # computed when missing, so never None (the stubs allow a cache that stores nothing)
    return cast(RunCosts, cache.get_or_set(OBSERVED_KEY, compute, OBSERVED_CACHE_SECONDS))

