"""Sweeps: one request, a family of runs on the same seeds over a range of one card field.

A sweep plays the unpatched *baseline* and one run per value of one numeric field of one card
(``attack`` 2…6, ``cost`` 1…5), each with a balance patch setting that value (``rules.lab.patches``)
— every run with the same decks, agents, games and seed, so each point is paired game by game
with the baseline. The value the card already has is the baseline itself.

Results: one line per matchup (a match or gauntlet: deck A against each opponent) or per deck
(a round-robin: its field rate); each point is the run's win rate with its pair-aware 95 %
interval, linked to its run, with the paired change against the baseline.

Invariants: the sweep and all its runs are created in one transaction (all or nothing); the
per-user cap on runs in flight counts a sweep as one submission.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from common.frozen import FrozenDeck
from common.language import frozen_card_name, source_value
from rules.lab.intervals import paired_difference
from rules.lab.patches import PATCH_FIELDS
from simulations import conf
from simulations.comparison import compare_runs
from simulations.models import RunKind, SimulationRun, Sweep
from simulations.patches.text import field_name
from simulations.quota import cpu_seconds
from simulations.reports import MatchupReport, run_reports
from simulations.results import field_rate
from simulations.services import SimulationInputError, lock_user_and_check_cap, simulation_request
from simulations.sources import SourceError, cards_freeze, resolve_spec
from work.models import ACTIVE_WORK_STATUSES

if TYPE_CHECKING:
    from common.visitor import Visitor

SWEEP_FIELDS = ("cost", "attack", "hp")
MAX_VALUES = 9
MAX_VALUE = 99
BAD_FIELD = gettext_lazy("A sweep varies a number: cost, attack or hp (not {field!r}).")
BAD_VALUES = gettext_lazy("Give from 2 to {limit} different whole numbers from 0 to {top}.")
NO_SUCH_FIELD = gettext_lazy("{name} has no {field} to vary (a {kind}).")
NO_SUCH_CARD = gettext_lazy("There is no card {code!r}.")
TOO_MANY_GAMES = gettext_lazy("{total} games in all ({runs} runs × {per_run}) is more than the "
                              "limit of {limit} per sweep.")

assert set(SWEEP_FIELDS) <= set(PATCH_FIELDS)


def _values(values: Sequence[int]) -> list[int]:
    cleaned = sorted({int(v) for v in values if isinstance(v, int) and not isinstance(v, bool)
                      and 0 <= v <= MAX_VALUE})
    if len(cleaned) != len(values) or not 2 <= len(cleaned) <= MAX_VALUES:
        raise SimulationInputError(str(BAD_VALUES).format(limit=MAX_VALUES, top=MAX_VALUE),
                                   "values")
    return cleaned


def _card_value(deck_specs: Sequence[str], user: Visitor, card: str, field: str
                ) -> tuple[Any, dict[str, Any]]:
    """The card's current value of the field (from the catalogue) and its data."""
    decks: list[FrozenDeck] = []
    for spec in deck_specs:
        try:
            decks.append(resolve_spec(spec, user=user)[0])
        except SourceError as exc:
            raise SimulationInputError(str(exc), "decks") from None
    try:
        data = cards_freeze(decks, extra=[card]).get(card)
    except SourceError as exc:
        raise SimulationInputError(str(exc), "decks") from None
    if data is None:
        raise SimulationInputError(str(NO_SUCH_CARD).format(code=card), "card")
    if field not in data:
        raise SimulationInputError(str(NO_SUCH_FIELD).format(
            name=frozen_card_name({card: data}, card), field=field_name(field),
            kind=data.get("kind")), "field")
    return data[field], data


def sweep_submit(*, user: Visitor, kind: str, deck_specs: Sequence[str], games: int, agent_a: str,
                 agent_b: str, card: str, field: str, values: Sequence[int],
                 seed: int | None = None, is_public: bool = False) -> Sweep:
    """Submit the baseline and one patched run per value, all on one seed."""
    if field not in SWEEP_FIELDS:
        raise SimulationInputError(str(BAD_FIELD).format(field=field), "field")
    values = _values(values)
    current, data = _card_value(deck_specs, user, card, field)
    patched_values = [v for v in values if v != current]
    runs = len(patched_values) + 1
    per_kind: dict[str, int] = {RunKind.MATCH: 1, RunKind.GAUNTLET: len(deck_specs) - 1}
    pairings = per_kind.get(kind, len(deck_specs) * (len(deck_specs) - 1) // 2)
    per_run = (games + games % 2) * max(1, pairings)
    if per_run * runs > conf.max_games():
        raise SimulationInputError(str(TOO_MANY_GAMES).format(
            total=per_run * runs, runs=runs, per_run=per_run, limit=conf.max_games()), "games")
    owner = user if user is not None and user.is_authenticated else None
    name = source_value(data, "name") or card
    common: dict[str, Any] = {
        "user": user, "kind": kind, "deck_specs": list(deck_specs), "games": games,
        "agent_a": agent_a, "agent_b": agent_b, "is_public": is_public, "check_cap": False}
    with transaction.atomic():
        if owner is not None:
            lock_user_and_check_cap(owner, cpu=cpu_seconds(agent_a=agent_a, agent_b=agent_b,
                                                           games=per_run * runs))
        baseline = simulation_request(seed=seed, **common)
        sweep = Sweep.objects.create(
            owner=owner, kind=kind, card=card, card_name=name, field=field, values=values,
            baseline_value=current, baseline=baseline, is_public=is_public,
            label=f"{name}: {field} {values[0]}…{values[-1]} — {baseline.label}"[:300])
        SimulationRun.objects.filter(pk=baseline.pk).update(sweep=sweep, sweep_value=current)
        for value in patched_values:
            names: dict[str, str] = {}
            for code, _name in settings.LANGUAGES:
                with translation.override(code):
                    names[code] = (f"{frozen_card_name({card: data}, card)} "
                                   f"{field_name(field)} {value}")
            run = simulation_request(seed=baseline.seed, patch={
                "name": names.get(translation.get_language()) or names[settings.LANGUAGE_CODE],
                "changes": [{"card": card, "field": field, "value": value}]},
                patch_names=names, **common)
            SimulationRun.objects.filter(pk=run.pk).update(sweep=sweep, sweep_value=value)
    return sweep


def _point(run: SimulationRun, value: Any, figure: Mapping[str, Any],
           change: Mapping[str, Any] | None) -> dict[str, Any]:
    return {"value": value, "run": run.uid, "url": run.get_absolute_url(),
            "status": run.status, "status_label": run.get_status_display(),
            "rate": figure["rate"], "low": figure["low"],
            "high": figure["high"], "games": figure["games"], "pairs": figure["pairs"],
            "change": None if change is None else {
                k: change.get(k) for k in ("change", "low", "high", "p_value", "method")}}


def sweep_results(sweep: Sweep) -> dict[str, Any]:
    """The sweep's lines: per matchup (deck A's win rate) or, in a round-robin, per deck (its
    field rate); a point per value, paired against the baseline."""
    runs = sorted(sweep.runs.all(), key=lambda r: -1 if r.sweep_value is None else r.sweep_value)
    baseline = sweep.baseline
    base_reports = run_reports(baseline) if baseline else []
    lines: dict[str, dict[str, Any]] = {}
    for run in runs:
        reports = run_reports(run)
        if sweep.kind == RunKind.ROUND_ROBIN:
            for deck in range(len(run.decks)):
                change = _field_change(base_reports, reports, deck) if baseline else None
                line = lines.setdefault(f"deck-{deck}", {"label": run.deck_name(deck),
                                                         "points": []})
                line["points"].append(_point(run, run.sweep_value, field_rate(reports, deck),
                                             change))
            continue
        comparison = compare_runs(baseline, run, deck=0, after_reports=reports,
                                  before_reports=base_reports) if baseline else {"rows": []}
        changes = {row["index"]: row for row in comparison["rows"]}
        for report in reports:
            key = f"matchup-{report['index']}"
            label = gettext("{deck} vs {opponent}").format(deck=report["deck_a"],
                                                           opponent=report["deck_b"])
            line = lines.setdefault(key, {"label": label, "points": []})
            line["points"].append(_point(run, run.sweep_value, report["win_rate"],
                                         changes.get(report["index"])))
    done = all(r.status not in ACTIVE_WORK_STATUSES for r in runs)
    return {"uid": sweep.uid, "label": sweep.label, "kind": sweep.kind, "card": sweep.card,
            "card_name": sweep.card_name, "field": sweep.field, "values": sweep.values,
            "baseline_value": sweep.baseline_value,
            "baseline": baseline.uid if baseline else None, "final": done,
            "runs": [{"value": r.sweep_value, "uid": r.uid, "status": r.status,
                      "status_label": r.get_status_display(),
                      "url": r.get_absolute_url()} for r in runs],
            "lines": list(lines.values())}


def _field_change(before: list[MatchupReport], after: list[MatchupReport], deck: int
                  ) -> dict[str, Any]:
    """Paired change of a deck's field rate: per seed, its wins over all its pairings."""
    clusters: dict[int, list[int]] = {}
    old = {r["index"]: r for r in before}
    for report in after:
        if deck not in (report["a"], report["b"]) or report["index"] not in old:
            continue
        side = "a" if report["a"] == deck else "b"
        for g, (was, now) in enumerate(zip(old[report["index"]]["outcomes"],
                                           report["outcomes"], strict=False)):
            if was in "abd" and now in "abd":
                cluster = clusters.setdefault(g // 2, [0, 0, 0])
                cluster[0] += was == side
                cluster[1] += now == side
                cluster[2] += 1
    figure = paired_difference((b, a, n) for b, a, n in clusters.values())
    return {**figure, "p_value": None, "method": "paired"}


def sweep_get(*, uid: str, user: Visitor) -> Sweep:
    """A sweep the user may see (public, theirs, or any for staff: as their runs);
    Sweep.DoesNotExist otherwise."""
    sweep = Sweep.objects.select_related("baseline").get(uid=uid)
    if sweep.is_public or (user is not None and user.is_authenticated
                           and (sweep.owner_id == user.pk or user.is_staff)):
        return sweep
    raise Sweep.DoesNotExist(uid)
