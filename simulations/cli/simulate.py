"""``python manage.py simulate``: play a match in this process, or (``--via-celery``) submit a
run to the workers and follow it.

In process, decks are starter decks of a card set file (``--set``, default the core set). On
the workers, decks are starter decks of a set file (with ``--set``, read exactly as in process),
or else saved decks by id and starter decks of the catalogue by name. For a match the printed
report is the same either way, so both print the same text for the same seed.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Mapping
from typing import IO, TYPE_CHECKING, Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import OperationalError

from common.deck_refs import starter_spec
from common.frozen import FrozenCards, FrozenDeck, frozen_deck
from rules.lab import meta
from rules.lab.match import run_match
from rules.lab.patches import Patch
from rules.lab.report import match_summary, match_text
from rules.lab.stats import MatchStats
from simulations.cli.input import (
    checked_options,
    load_decks_for_cli,
    load_patch_for_cli,
    patched_cards_for_cli,
)
from simulations.cli.round_robin import (
    checked_round_robin_options,
    load_field_for_cli,
    meta_text,
)
from simulations.meta.field import run_meta
from simulations.models import RunKind, SimulationRun
from simulations.reports import run_reports
from simulations.selectors import run_progress
from simulations.services import SimulationInputError, simulation_submit
from simulations.sources import SourceError, frozen_version, resolve_spec
from work.models import WorkStatus
from work.reaper import reap_soon

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from tqdm import tqdm

    from decks.models import Deck

NO_WORKER_HINT = ("No chunk has started yet. Is a worker running? Start one with: "
                  "celery -A config worker")


def _progress_bar(total: int, quiet: bool) -> tqdm[Any] | None:
    """A terminal progress bar, or None off a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr, leave=False)


def _update_to(bar: tqdm[Any]) -> Callable[[int], None]:
    """The bar's progress callback: games done so far."""
    def update_to(done: int) -> None:
        bar.update(done - bar.n)

    return update_to


def run_in_process(command: BaseCommand, opts: Mapping[str, Any]) -> None:
    """Play the match here (with the ``--patch`` file's cards, if any) and print its report."""
    ruleset = checked_options(opts)
    cards, deck_a, deck_b = load_decks_for_cli(opts["deck_a"], opts["deck_b"],
                                               opts["card_set"])
    patch = load_patch_for_cli(opts.get("patch"))
    cards, diff = patched_cards_for_cli(cards, patch, opts["card_set"])
    games = opts["games"] + opts["games"] % 2
    bar = _progress_bar(games, opts["json"])
    try:
        stats = run_match(cards, deck_a, deck_b, games=games, seed=opts["seed"],
                          agent_a=opts["agent_a"], agent_b=opts["agent_b"],
                          ruleset=ruleset, progress=_update_to(bar) if bar else None)
    finally:
        if bar:
            bar.close()
    summary = match_summary(stats, deck_a=deck_a.name, deck_b=deck_b.name, seed=opts["seed"],
                            agent_a=opts["agent_a"], agent_b=opts["agent_b"],
                            patch={"name": patch.name, "diff": diff} if patch else None)
    if opts["json"]:
        command.stdout.write(json.dumps(summary, sort_keys=True))
    else:
        command.stdout.write(match_text(summary))


def _deck_names(opts: Mapping[str, Any]) -> list[str]:
    return list(opts["decks"]) if opts.get("decks") else [opts["deck_a"], opts["deck_b"]]


def _decks_from_file(opts: Mapping[str, Any], patch: Patch | None
                     ) -> tuple[list[FrozenDeck], FrozenCards]:
    if opts.get("decks"):
        cards, listed = load_field_for_cli(opts["decks"], opts["card_set"])
    else:
        cards, deck_a, deck_b = load_decks_for_cli(opts["deck_a"], opts["deck_b"],
                                                   opts["card_set"])
        listed = [deck_a, deck_b]
    decks = [frozen_deck(name=d.name, hero=d.hero, cards=d.counts(), source="file")
             for d in listed]
    used = {str(d["hero"]) for d in decks} | {c for d in decks for c in d["cards"]}
    used |= set(patch.cards if patch else ())
    return decks, {code: cards[code].to_dict() for code in sorted(used) if code in cards}


def _decks_from_catalogue(opts: Mapping[str, Any]
                          ) -> tuple[list[FrozenDeck], Deck | None]:
    decks: list[FrozenDeck] = []
    rows: list[Deck | None] = []
    for name in _deck_names(opts):
        try:
            deck, row = resolve_spec(name, trusted=True)
        except SourceError:
            try:
                deck, row = resolve_spec(starter_spec(name), trusted=True)
            except SourceError as exc:
                raise CommandError(str(exc)) from None
        decks.append(deck)
        rows.append(row)
    return decks, rows[0]


def submit(opts: Mapping[str, Any]) -> SimulationRun:
    owner: User | None = None
    if opts.get("user"):
        owner = get_user_model().objects.filter(username=opts["user"]).first()
        if owner is None:
            raise CommandError(f"--user: no user named {opts['user']!r}")
    epsilon = checked_round_robin_options(opts)[1] if opts.get("decks") else None
    if epsilon is None:
        checked_options(opts)
    ruleset = json.loads(opts["ruleset"]) if opts["ruleset"] else {}
    patch = load_patch_for_cli(opts.get("patch"))
    kind = RunKind.ROUND_ROBIN if opts.get("decks") else RunKind.MATCH
    common: dict[str, Any] = {
        "owner": owner, "kind": kind, "games": opts["games"], "seed": opts["seed"],
        "agent_a": opts["agent_a"], "agent_b": opts["agent_b"], "ruleset": ruleset,
        "stop_width": opts.get("stop_width"), "chunk_size": opts.get("chunk_size"),
        "is_public": owner is None, "patch": patch}
    try:
        if opts["card_set"]:
            decks, cards = _decks_from_file(opts, patch)
            return simulation_submit(decks=decks, cards=cards, card_version=frozen_version(cards),
                                     **common)
        decks, home = _decks_from_catalogue(opts)
        return simulation_submit(decks=decks, home_deck=home, **common)
    except SimulationInputError as exc:
        raise CommandError(exc.message) from None


def follow(run: SimulationRun, *, stderr: IO[str], quiet: bool, timeout: float | None,
           poll: float = 0.5) -> SimulationRun:
    """Wait for the run to finish, showing its progress on a terminal."""
    bar = None
    if not quiet and stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=run.games_total, unit="game", file=stderr, leave=False)
    start, hinted = time.monotonic(), False
    try:
        while True:
            try:
                run.refresh_from_db()
                progress = run_progress(run)
            except OperationalError:   # SQLite busy with a worker's write: look again
                time.sleep(poll)
                continue
            if bar is not None:
                bar.update(progress.games_done - bar.n)
            if not run.is_active:
                return run
            if not hinted and not quiet and time.monotonic() - start > 10 \
                    and run.status == WorkStatus.QUEUED:
                stderr.write(NO_WORKER_HINT + "\n")
                hinted = True
            if timeout is not None and time.monotonic() - start > timeout:
                raise CommandError(f"run {run.uid} still {run.status} after {timeout:g} s "
                                   f"({progress.games_done}/{progress.games_total} games)")
            reap_soon()
            time.sleep(poll)
    finally:
        if bar is not None:
            bar.close()


def report(run: SimulationRun, epsilon: float | None = None) -> tuple[str, dict[str, Any]]:
    """The in-process command's text and JSON for each pairing of a finished run, and a
    round-robin's meta (for ``epsilon``, a share; default half a point)."""
    texts: list[str] = []
    summaries: list[dict[str, Any]] = []
    for matchup in run.matchups.order_by("index"):
        figures = matchup.result or {}    # written for every matchup when the run finished
        stats = MatchStats.from_counts(figures["counts"])
        summary = match_summary(stats, deck_a=run.deck_name(matchup.a),
                                deck_b=run.deck_name(matchup.b), seed=run.seed,
                                agent_a=run.agent_a, agent_b=run.agent_b,
                                patch={"name": run.patch["name"], "diff": run.patch["diff"]}
                                if run.patch else None)
        summaries.append(summary)
        texts.append(match_text(summary))
    data = summaries[0] if len(summaries) == 1 else {"matchups": summaries}
    field = run_meta(run, run_reports(run), epsilon=meta.DEFAULT_EPSILON
                     if epsilon is None else epsilon)
    if field is None:
        return "\n".join(texts), data
    return "\n".join(texts) + "\n\n" + meta_text(field), {**data, "meta": field}


def run_via_celery(command: BaseCommand, opts: Mapping[str, Any]) -> None:
    run = submit(opts)
    if opts.get("no_wait"):
        if opts["json"]:
            command.stdout.write(json.dumps({"uid": run.uid, "status": run.status,
                                             "games": run.games_total,
                                             "chunks": run.chunks.count()}))
        else:
            command.stdout.write(f"Submitted run {run.uid}: {run.games_total} games in "
                                 f"{run.chunks.count()} chunks (/simulations/{run.uid}/)")
        return
    if not opts["json"]:
        sys.stderr.write(f"Run {run.uid} submitted: {run.games_total} games in "
                         f"{run.chunks.count()} chunks of {run.chunk_size}\n")
    run = follow(run, stderr=sys.stderr, quiet=opts["json"], timeout=opts.get("timeout"))
    if run.status == WorkStatus.CANCELLED:
        raise CommandError(f"run {run.uid} was cancelled")
    epsilon = checked_round_robin_options(opts)[1] if opts.get("decks") else None
    text, data = report(run, epsilon)
    if opts["json"]:
        command.stdout.write(json.dumps(data, sort_keys=True))
    else:
        command.stdout.write(text)
    if run.status == WorkStatus.FAILED:
        raise CommandError(f"run {run.uid} failed: {run.error}")
