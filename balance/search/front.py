"""A finished balance search's result as its page shows it: the verified Pareto front (each
patch's worst figure, matchup range, both equilibria's smallest share and evenness), its chart,
and the meta of the unpatched field and of every verified patch — each deck's win rate against
the field with its interval, its Nash share and its ε-equilibrium share.

The meta of a patch is ``rules.lab.meta.MetaReport.to_dict()`` (plus ``matchup_range``) as the
search stored it, so any view of a field's meta can show it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_lazy

from balance.models import BalanceJob
from balance.search.charts import front_chart
from simulations.agents.skill import skill_comparison, verdict_changes
from simulations.meta.view import meta_context
from simulations.patches.text import change_line

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

UNPATCHED = gettext_lazy("unpatched")
POINT = gettext_lazy("{changes} changes: ±{distance} %")
FRONT_TITLE = gettext_lazy("Pareto front: changes against the worst matchup")
META_FRONT_TITLE = gettext_lazy("Pareto front: changes against the worst deck's field win rate")
BAND_AXIS = gettext_lazy("worst distance from 50 %")
META_AXIS = gettext_lazy("worst field win rate's distance from 50 %")
UNPATCHED_META = gettext_lazy("The meta of the unpatched field")
BEST_META = gettext_lazy("The meta with the best verified patch")
UNPATCHED_SKILL = gettext_lazy("The unpatched field for each level of play")
BEST_SKILL = gettext_lazy("The best verified patch for each level of play")


def meta_rows(report: dict[str, Any] | None) -> dict[str, Any] | None:
    """Per deck of a stored meta report: name, field win rate and interval, both shares; and the
    field's matchup range and evenness (entropy ratios)."""
    if not report:
        return None
    decks = []
    for d, name in enumerate(report["decks"]):
        rate = report["field_rates"][d]
        decks.append({"name": name, "rate": rate["rate"], "low": rate["low"],
                      "high": rate["high"], "nash": report["nash"]["shares"][d],
                      "relaxed": report["relaxed"]["shares"][d]})
    low, high = report.get("matchup_range") or (None, None)
    return {"decks": decks, "matchup_low": low, "matchup_high": high,
            "nash_entropy": report["nash"]["entropy_ratio"],
            "relaxed_entropy": report["relaxed"]["entropy_ratio"],
            "nash_min": min(report["nash"]["shares"]),
            "relaxed_min": min(report["relaxed"]["shares"]),
            "field_best": max(d["rate"] for d in decks),
            "epsilon": report["epsilon"], "report": report}


def verified_best(job: BalanceJob) -> dict[str, Any] | None:
    """The best verified patch as the progress box sums it up once the search is done: the
    same figures as its row of the front table (worst distance, figures outside their bands,
    the ε-equilibrium's smallest share of its verified meta), never the search's own estimate
    on fewer games. None while the search has no result."""
    best = (job.result or {}).get("best")
    if not best:
        return None
    field = meta_rows(best.get("meta_report"))
    return {"changes": best["changes"], "worst_distance": best["worst_distance"],
            "outside": best["outside"], "games": best["games"],
            "min_share": field["relaxed_min"] if field else None}


def _row(row: dict[str, Any], index: int | None, best: dict[str, Any],
         cards: dict[str, Any]) -> dict[str, Any]:
    return {**row, "index": index, "is_best": index is not None
            and row.get("moves") == best.get("moves"),
            "field": meta_rows(row.get("meta_report")),
            "lines": [change_line(cards, m["card"], m["field"], m["value"])
                      for m in row.get("moves") or []]}


def live_patch_lines(job: BalanceJob) -> list[str]:
    """The changes of the patch the search started from, in the reader's language."""
    return [change_line(job.cards, c["card"], c["field"], c["value"])
            for c in (job.live_patch or {}).get("changes") or []]


def front_context(job: BalanceJob) -> dict[str, Any] | None:
    """The page's front, or None while the search has no result."""
    result = job.result
    if not result:
        return None
    best = result.get("best") or {}
    cards = job.cards or {}
    # The reports and matchups keep the names as played; the reader's language here.
    names, renames = job.deck_names, job.deck_renames
    rows = [_row(_renamed(row, names, renames), i, best, cards)
            for i, row in enumerate(result.get("front") or [])]
    baseline = _row(_renamed(result["baseline"], names, renames), None, {}, cards)
    meta = job.is_meta
    points = [{"changes": r["changes"], "worst_distance": r["worst_distance"],
               "best": r["is_best"],
               "label": POINT.format(changes=r["changes"],
                                     distance=f"{r['worst_distance'] * 100:.1f}")}
              for r in rows]
    points.append({"changes": 0, "worst_distance": baseline["worst_distance"],
                   "best": False, "label": str(UNPATCHED)})
    band = (job.field_band_low, job.field_band_high) if meta else (job.band_low, job.band_high)
    chart = front_chart(points, band_half=min(0.5 - band[0], band[1] - 0.5),
                        max_changes=job.max_changes,
                        title=str(META_FRONT_TITLE if meta else FRONT_TITLE),
                        axis=str(META_AXIS if meta else BAND_AXIS))
    best_row = next((r for r in rows if r["is_best"]), None)
    return {"rows": rows, "chart": chart, "baseline": baseline,
            "best": best_row or _renamed(best, names, renames), "is_meta": meta,
            "baseline_view": meta_view(baseline, "meta-unpatched", UNPATCHED_META, job.agent),
            "best_view": meta_view(best_row or _renamed(best, names, renames), "meta-best",
                                   BEST_META, job.agent),
            "skill_views": [view for view in (
                skill_view(baseline, job.agent, names, UNPATCHED_SKILL),
                skill_view(best, job.agent, names, BEST_SKILL)) if view],
            "verdicts": verdicts_view(baseline, best, job.agent, names),
            "roles": _roles(result)}


def verdicts_view(baseline: dict[str, Any], best: dict[str, Any] | None, agent: str,
                  names: list[str]) -> dict[str, Any] | None:
    """Each deck's verdict under each agent the patch was verified under, before → after
    (``simulations.agents.skill.verdict_changes``); None without both verified metas."""
    if not best or not best.get("moves"):
        return None
    metas = verified_metas(agent, baseline, best)
    if metas is None or agent not in metas["after"] \
            or any(name not in metas["before"] for name in metas["after"]):
        return None
    return verdict_changes(names, [(name, metas["before"][name], report)
                                   for name, report in metas["after"].items()])


def verified_metas(agent: str, baseline: Mapping[str, Any], row: Mapping[str, Any]
                   ) -> dict[str, Any] | None:
    """The field's meta before and after a front patch under each agent it was verified under,
    as a run opened from it keeps them (``SimulationRun.search_metas``): ``{"before": {agent:
    meta}, "after": {agent: meta}}``; None for a result kept before patches carried their meta."""
    def per_agent(played: Mapping[str, Any]) -> dict[str, Any]:
        out = {agent: played.get("meta_report")}
        out.update((name, data.get("meta_report"))
                   for name, data in (played.get("agents") or {}).items())
        return {name: report for name, report in out.items() if report}

    before, after = per_agent(baseline), per_agent(row)
    return {"before": before, "after": after} if before and after else None


def _roles(result: dict[str, Any]) -> list[dict[str, str]]:
    """Which agent screened, raced and verified for each further agent."""
    return [{"agent": agent, **roles} for agent, roles in (result.get("roles") or {}).items()]


def skill_view(row: dict[str, Any], agent: str, names: list[str], title: Any
               ) -> dict[str, Any] | None:
    """A verified field under the search's agent beside each further agent it was checked
    under (``simulations.agents.skill.skill_comparison``), or None when it was checked under one."""
    first = row.get("meta_report")
    further = [(name, data.get("meta_report")) for name, data in (row.get("agents") or {}).items()]
    if not first or not further or not all(report for _, report in further):
        return None
    return {"title": str(title), "comparisons": [
        skill_comparison(names, [(agent, first), (name, report)]) for name, report in further]}


def _renamed(row: dict[str, Any], names: list[str], renames: dict[str, str]
             ) -> dict[str, Any]:
    """The row with its matchups' and meta report's deck names in the page's language."""
    if row.get("matchups"):
        row = {**row, "matchups": [{**m, "a": renames.get(m["a"], m["a"]),
                                    "b": renames.get(m["b"], m["b"])} for m in row["matchups"]]}
    report = row.get("meta_report")
    if not report or len(report.get("decks") or []) != len(names):
        return row
    return {**row, "meta_report": {**report, "decks": list(names)}}


def meta_view(row: dict[str, Any] | None, section_id: str, title: str | StrPromise,
              agent: str | None = None) -> dict[str, Any] | None:
    """The whole meta view (``simulations/_meta.html``) of a verified field, or None for a
    result kept before verified patches carried their meta."""
    report = (row or {}).get("meta_report")
    if not report:
        return None
    return meta_context(report, section_id=section_id, title=str(title), own_seeds=True,
                        agents=agent)
