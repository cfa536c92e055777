"""What the commands of every kind of job share (``balance_search``: ``balance.search.cli``;
``tune_deck``: ``balance.tuning.cli``): the options of a run in this process or on the workers,
the agent's check, the card set the decks come from, and following a job on the workers to its
end, its progress on stderr.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.core.management.base import CommandError

from rules.ai.agents import make_agent
from rules.decks.cardset import CORE_SET, TEST_SET, CardSet, CardSetError, load_card_set

if TYPE_CHECKING:
    from django.core.management.base import BaseCommand, CommandParser

    from balance.models import BalanceJob


class OptionError(ValueError):
    pass


def add_run_arguments(parser: CommandParser, *, via_celery_help: str) -> None:
    """The seed, the processes in this process's pool, ``--json``, and the job on the workers
    (``--via-celery``, ``--no-wait``)."""
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    group = parser.add_argument_group("on Celery workers")
    group.add_argument("--via-celery", action="store_true", help=via_celery_help)
    group.add_argument("--no-wait", action="store_true",
                       help="with --via-celery: print the job's id and return")


def check_agent(opts: dict[str, Any]) -> None:
    try:
        make_agent(opts["agent"])
    except ValueError as exc:
        raise CommandError(f"--agent: {exc}") from None


def card_set_of(opts: dict[str, Any]) -> CardSet:
    """The card set of ``--set``, or the core set (the test set where it is not installed)."""
    path = Path(opts["card_set"]) if opts["card_set"] else (
        CORE_SET if CORE_SET.exists() else TEST_SET)
    try:
        return load_card_set(path)
    except (CardSetError, OSError) as exc:
        raise CommandError(f"{path}: {exc}") from None


def follow_job(command: BaseCommand, job: BalanceJob, opts: dict[str, Any], *,
               line: Callable[[BalanceJob, dict[str, Any]], str], what: str
               ) -> BalanceJob | None:
    """Print the job's id with ``--no-wait`` (and return None); otherwise each new progress
    event as ``line(job, event)`` on stderr until the job ends, then its result (``--json``)
    or where to see it, and return the finished job — a CommandError saying how ``what`` (e.g.
    "balance search") ended when it did not finish."""
    from balance.models import BalanceJob
    from work.reaper import reap_soon

    if opts.get("no_wait"):
        command.stdout.write(job.uid)
        return None
    last = None
    while True:
        job = BalanceJob.objects.get(pk=job.pk)
        event = job.progress or {}
        if event.get("phase") and event != last and not opts["json"]:
            command.stderr.write(line(job, event))
            last = event
        if not job.is_active:
            break
        reap_soon()
        time.sleep(1)
    if job.status != "done":
        raise CommandError(f"{what} {job.uid} {job.status}: {job.error}")
    command.stdout.write(json.dumps(job.result, sort_keys=True) if opts["json"]
                         else f"{what[:1].upper()}{what[1:]} {job.uid} done: "
                              f"{job.get_absolute_url()}")
    return job
