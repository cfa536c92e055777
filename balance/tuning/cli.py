"""``python manage.py tune_deck``: options into a ``TuningProblem`` and ``--via-celery`` (the
tuning as a job for the workers, followed to its end); its progress lines and the printed
suggestions are ``balance.tuning.report``'s.

The search itself is ``rules.lab.deck_tuning`` (pure Python). In this process the decks and cards
come from a card set file (the core set by default; its starter decks by name) and legality is
the standard format (R5).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from balance.cli import OptionError, follow_job
from balance.tuning.report import progress_line
from rules.engine.cards import CardDef
from rules.lab.deck_tuning import TuneField, TuningProblem

if TYPE_CHECKING:
    from django.core.management.base import BaseCommand

    from balance.models import BalanceJob
    from rules.engine.cards import DeckList

BAD_SWAPS = "--max-swaps: give a whole number from 1 to 6 (got {value})."
BAD_VERIFY = "--verify-games: give at least 100 games (got {value})."
BAD_BUDGET = "--budget-games: give at least 2,000 games (got {value})."
BAD_SHARES = ("--shares: give one share (a number ≥ 0, not all 0) for each of the field's "
              "{count} decks, comma-separated (got {value!r}).")


def field_shares(text: str | None, count: int) -> tuple[float, ...] | None:
    """``--shares 3,1,1``: each field deck's play share, in the field's order (None: alike)."""
    if not text:
        return None
    try:
        shares = tuple(float(part) for part in text.split(","))
    except ValueError:
        shares = ()
    if len(shares) != count or min(shares) < 0 or sum(shares) <= 0:
        raise OptionError(BAD_SHARES.format(count=count, value=text))
    return shares


def patch_lines(diff: Sequence[Mapping[str, Any]] | None) -> str:
    """The patch a command plays with, one line per change (nothing without a patch)."""
    if not diff:
        return ""
    return "Patched: " + "; ".join(row["text"] for row in diff) + "\n"


def build_problem(field: TuneField, deck: DeckList, opts: dict[str, Any]) -> TuningProblem:
    if not 1 <= opts["max_swaps"] <= 6:
        raise OptionError(BAD_SWAPS.format(value=opts["max_swaps"]))
    if opts["verify_games"] < 100:
        raise OptionError(BAD_VERIFY.format(value=opts["verify_games"]))
    if opts["budget_games"] < 2000:
        raise OptionError(BAD_BUDGET.format(value=opts["budget_games"]))
    keep = frozenset(c.strip() for c in (opts.get("keep") or "").split(",") if c.strip())
    heroes: tuple[str, ...] = ()
    if opts.get("any_hero"):
        heroes = tuple(sorted(c for c, card in field.cards.items() if card.kind == "hero"))
    return TuningProblem(field=field, deck=deck, keep=keep, heroes=heroes,
                         max_swaps=opts["max_swaps"], seed=opts["seed"],
                         budget_games=opts["budget_games"], verify_games=opts["verify_games"])


class Clock:
    def __init__(self) -> None:
        self.start = time.monotonic()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start


def run_via_celery(command: BaseCommand, opts: dict[str, Any]) -> None:
    """Submit the tuning as a job for the workers (starter decks by name, or saved decks by
    id) and follow it (``balance.cli.follow_job``)."""
    from django.core.management.base import CommandError

    from balance.services import BalanceInputError
    from balance.tuning.services import tuning_job_request
    from common.deck_refs import spec_or_starter as spec

    keep = [c.strip() for c in (opts.get("keep") or "").split(",") if c.strip()]
    try:
        job = tuning_job_request(
            user=None, deck_spec=spec(opts["deck"]),
            field_specs=[spec(n) for n in opts["field"] or ()], agent=opts["agent"],
            keep=keep, any_hero=opts["any_hero"], max_swaps=opts["max_swaps"],
            budget_games=opts["budget_games"], verify_games=opts["verify_games"],
            seed=opts["seed"], is_public=True)
    except BalanceInputError as exc:
        raise CommandError(exc.message) from None
    clock = Clock()
    cards: dict[str, CardDef] = {}

    def line(job: BalanceJob, event: dict[str, Any]) -> str:
        if not cards:
            cards.update({c: CardDef.from_dict(d) for c, d in job.cards.items()})
        return progress_line(clock, cards, event)

    follow_job(command, job, opts, line=line, what="deck tuning")
