"""The meta of a round-robin run (``rules.lab.meta``): each deck's win rate against the field, the
Nash equilibrium of the deck choice and the maximum-entropy ε-equilibrium, with how often each
deck is played when the seat-swapped pairs are resampled.

Invariants:
- Only a finished round-robin has a meta. A match or a gauntlet has no whole field (a gauntlet's
  opponents never meet each other), and a run still playing changes with every chunk.
- Every pairing of a run plays the run's seeds (``rules.lab.match.game_seed`` depends on the run
  seed and the pair index only), so the field is built with ``shared_seeds``: pair ``g // 2`` is
  one cluster across the whole field, as in ``results.field_rate``.
- The resampling costs a second or more for six decks, so no page pays for the default ε's
  report: the worker that finishes the run computes it once the run's last write is committed
  (``run_meta_store``) and stores it on the run (``SimulationRun.meta_report``, durable across
  restarts and cache evictions), stamped with the run's final state. A run finished before
  reports were stored gets its report computed and stored by its first view. Any other ε's
  report is computed once per (run, its last update, ε) and kept in the cache. The deck names
  are put back in the reader's language on every read.
- ε is chosen in points of win rate, from 0 to ``EPSILON_MAX_POINTS`` in steps of 0.1 (a short
  grid, so the cache holds few reports per run); ``epsilon_share`` is the one check, for the
  page's form and the API alike.
"""

from __future__ import annotations

import math
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext_lazy

from rules.lab import meta
from simulations.models import RunKind, SimulationRun
from simulations.reports import MatchupReport, run_reports

EPSILON_DEFAULT_POINTS = 0.5
EPSILON_MAX_POINTS = 10
BAD_EPSILON = gettext_lazy(
    "ε is the win rate a deck may give up, in points: give a number from 0 to 10 in steps of "
    "0.1 (for example 0.5 for half a point).")
CACHE_SECONDS = 30 * 24 * 3600
CACHE_VERSION = 1
HEALTHY_FIELD_RATE = 0.53   # a healthy field: no deck wins more than about this against it
UNDECIDED = (0.05, 0.95)    # played in this share of the resamples: the games cannot decide


class EpsilonError(ValueError):
    """A bad ε; the message (``BAD_EPSILON``) says what to give."""


def epsilon_share(points: Any) -> float:
    """ε in points of win rate (text or number) as the share ``rules.lab.meta`` takes: ``"0.5"`` →
    0.005. Empty or None means the default. Raises ``EpsilonError``."""
    if points is None or (isinstance(points, str) and not points.strip()):
        points = EPSILON_DEFAULT_POINTS
    try:
        value = float(points)
    except (TypeError, ValueError):
        raise EpsilonError(str(BAD_EPSILON)) from None
    if not math.isfinite(value) or not 0 <= value <= EPSILON_MAX_POINTS \
            or abs(value * 10 - round(value * 10)) > 1e-6:
        raise EpsilonError(str(BAD_EPSILON))
    return round(value * 10) / 1000


def run_has_meta(run: SimulationRun) -> bool:
    return run.kind == RunKind.ROUND_ROBIN and not run.is_active


def run_field(run: SimulationRun, reports: list[MatchupReport]) -> meta.Field | None:
    """The run's games as a field (pairings from the lower deck's side), or None when no game
    was counted at all."""
    matchups: dict[meta.Matchup, meta.MatchupGames] = {}
    counted = 0
    for report in reports:
        a, b = report["a"], report["b"]
        games = meta.MatchupGames()
        for g, letter in enumerate(report["outcomes"]):
            if letter in "abd":
                won = letter == ("a" if a < b else "b")
                games.add(g // 2, won=int(won), drawn=int(letter == "d"), counted=1)
                counted += 1
        matchups[min(a, b), max(a, b)] = games
    if not counted:
        return None
    names = [run.deck_name(i) for i in range(len(run.decks))]
    return meta.Field(names, matchups, shared_seeds=True)


def _cache_key(run: SimulationRun, epsilon: float) -> str:
    return f"simulations:meta:v{CACHE_VERSION}:{run.pk}:{_stamp(run)}:{epsilon:.4f}"


def _stamp(run: SimulationRun) -> str:
    """The run's final state a stored report was computed on."""
    finished = run.finished_at.isoformat() if run.finished_at else "-"
    return f"{run.status}:{run.games_done}:{finished}"


def _is_default(epsilon: float) -> bool:
    return abs(epsilon - meta.DEFAULT_EPSILON) < 1e-9


def stored_meta(run: SimulationRun) -> tuple[bool, dict[str, Any] | None]:
    """(whether the run holds its default ε's report for its present state, that report: None
    when no game was counted)."""
    stored = run.meta_report
    if isinstance(stored, dict) and stored.get("stamp") == _stamp(run):
        return True, stored.get("report")
    return False, None


def compute_meta(run: SimulationRun, reports: list[MatchupReport], *,
                 epsilon: float) -> dict[str, Any] | None:
    """The meta report itself (the resampling: seconds), or None when no game was counted."""
    field = run_field(run, reports)
    return None if field is None else meta.meta_report(field, epsilon=epsilon).to_dict()


def _store(run: SimulationRun, report: dict[str, Any] | None) -> None:
    run.meta_report = {"stamp": _stamp(run), "report": report}
    SimulationRun.objects.filter(pk=run.pk).update(meta_report=run.meta_report)


def run_meta(run: SimulationRun, reports: list[MatchupReport], *,
             epsilon: float = meta.DEFAULT_EPSILON) -> dict[str, Any] | None:
    """``rules.lab.meta.MetaReport.to_dict()`` of a finished round-robin for ``epsilon`` (a share):
    the default ε's as stored when the run finished (or, for a run finished before that was
    done, computed and stored now), another ε's computed once and then read from the cache;
    None for any other run (``run_has_meta``) or one without a counted game."""
    if not run_has_meta(run):
        return None
    if _is_default(epsilon):
        found, report = stored_meta(run)
        if not found:
            report = compute_meta(run, reports, epsilon=epsilon)
            _store(run, report)
    else:
        key = _cache_key(run, epsilon)
        report = cache.get(key)
        if report is None:
            report = compute_meta(run, reports, epsilon=epsilon)
            if report is not None:
                cache.set(key, report, CACHE_SECONDS)
    if report is None:
        return None
    return {**report, "decks": [run.deck_name(i) for i in range(len(run.decks))]}


def run_meta_store(*, run_id: int) -> None:
    """Work out a finished round-robin's default-ε meta and store it on the run, so its page
    and the API only read it; nothing for any other run. Called by the worker once the
    transaction that finished the run has committed, so it reads the run's final figures and
    stamps the report with them."""
    run = SimulationRun.objects.filter(pk=run_id).first()
    if run is not None and run_has_meta(run):
        _store(run, compute_meta(run, run_reports(run), epsilon=meta.DEFAULT_EPSILON))
