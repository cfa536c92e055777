"""What level of play a win rate stands for, and a field's meta under two levels side by side.

A win rate is a property of the decks *and of the players*. Every agent's level of play is data
in the agent registry (``rules.ai.agents``: its ``skill``, named through ``game_word``), and its
strength is the AI ladder's Elo rating (``simulations.agents.strength``, read from
``rules/data/ladder.json``); ``skill_phrase`` says both ("casual play, 743 Elo on the AI
ladder"), and every page that shows a win rate says it beside the agent that played.

``skill_comparison`` puts the meta of one field played by two agents side by side (two
``rules.lab.meta.MetaReport.to_dict()`` reports of the same decks in the same order) and names
the decks whose verdict differs between them: a deck is *dominant* above the healthy field win
rate (``HEALTHY_FIELD_RATE``), *weak* below its mirror image, *fine* between.
``same_field_runs`` finds the finished round-robins that played a run's field (the same decks,
cards, patch and rules) with another agent.

``verdict_changes`` names each deck's verdict under each agent before → after a patch, side by
side — the balance search's page (``balance.search.front.verdicts_view``) and a patched
round-robin's meta view (``run_verdict_changes``) both say it with it;
``unpatched_field_runs`` finds the round-robins of a patched run's field without its patch.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from cards.game_words import game_word
from common.numbers import percent
from simulations.agents.strength import agent_rating
from simulations.meta.field import HEALTHY_FIELD_RATE, run_meta
from simulations.models import RunKind, SimulationRun
from simulations.reports import run_reports
from work.models import WorkStatus

VERDICTS = {"weak": gettext_lazy("weak"), "fine": gettext_lazy("fine"),
            "dominant": gettext_lazy("dominant")}
SEARCHED_BEFORE = gettext_lazy(
    "Unpatched under {agents}: the field as the balance search that opened this run verified "
    "it, on its own fresh seeds.")
SEARCHED_AFTER = gettext_lazy(
    "Patched under {agents}: as the balance search verified the patch, on its own fresh seeds.")
NOT_SAME_FIELD = gettext_lazy(
    "That run did not play this field with another agent: compare with a finished round-robin "
    "of the same decks, cards, patch and rules, played by another agent.")


def skill_phrase(agent: str) -> str:
    """"casual play, 743 Elo on the AI ladder" (or without the figure when the ladder has not
    rated the agent)."""
    skill = game_word("agent_skill", agent)
    rating = agent_rating(agent)
    if rating is None:
        return _("{skill}, not rated on the AI ladder yet").format(skill=skill)
    return _("{skill}, {elo} Elo on the AI ladder").format(
        skill=skill, elo=number_format(round(rating["elo"]), 0, force_grouping=True))


def played_by(agent_a: str, agent_b: str) -> str:
    """Who played and what it stands for: "greedy vs greedy: casual play, 743 Elo on the AI
    ladder", or each side's level when two agents met."""
    if agent_a == agent_b:
        return _("{a} vs {b}: {skill}").format(a=game_word("agent", agent_a),
                                               b=game_word("agent", agent_b),
                                               skill=skill_phrase(agent_a))
    return _("{a} ({skill_a}) vs {b} ({skill_b})").format(
        a=game_word("agent", agent_a), skill_a=skill_phrase(agent_a),
        b=game_word("agent", agent_b), skill_b=skill_phrase(agent_b))


def skill_line(agent_a: str, agent_b: str | None = None) -> str:
    """The level of play beside agents already named: "casual play, 743 Elo on the AI ladder",
    or "greedy: casual play, …; planner: skilled play, …" when two agents met."""
    if agent_b is None or agent_b == agent_a:
        return skill_phrase(agent_a)
    return _("{a}: {skill_a}; {b}: {skill_b}").format(
        a=game_word("agent", agent_a), skill_a=skill_phrase(agent_a),
        b=game_word("agent", agent_b), skill_b=skill_phrase(agent_b))


def verdict(rate: float | None) -> str | None:
    """A deck's verdict from its field win rate: weak, fine or dominant (None: no games)."""
    if rate is None:
        return None
    if rate > HEALTHY_FIELD_RATE:
        return "dominant"
    return "weak" if rate < 1 - HEALTHY_FIELD_RATE else "fine"


def _side(agent: str) -> str:
    """How a sentence names one side: its level of play, and the agent in brackets."""
    return _("{skill} ({agent})").format(skill=game_word("agent_skill", agent),
                                         agent=game_word("agent", agent))


def skill_comparison(names: Sequence[str], sides: Sequence[tuple[str, Mapping[str, Any]]]
                     ) -> dict[str, Any]:
    """The field under two agents side by side: ``sides`` is ``[(agent, report), (agent,
    report)]`` (reports of the same decks in ``names``' order). Returns the agents' headings,
    one row per deck (each side's field win rate, interval, verdict and ε-equilibrium share)
    and a sentence for each deck whose verdict differs."""
    rows, sentences = [], []
    for d, name in enumerate(names):
        cells = []
        for agent, report in sides:
            rate = report["field_rates"][d]
            cells.append({"rate": rate, "verdict": verdict(rate.get("rate")),
                          "share": report["relaxed"]["shares"][d], "agent": agent})
        verdicts = {cell["verdict"] for cell in cells}
        differs = len(verdicts) > 1 and None not in verdicts
        rows.append({"name": name, "cells": cells, "differs": differs})
        if differs:
            sentences.append(_verdict_sentence(name, cells))
    return {"agents": [{"name": agent, "title": game_word("agent", agent),
                        "skill": skill_phrase(agent)} for agent, _report in sides],
            "rows": rows, "sentences": sentences, "limit": HEALTHY_FIELD_RATE,
            "low": 1 - HEALTHY_FIELD_RATE}


def verdict_changes(names: Sequence[str],
                    agents: Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any]]]
                    ) -> dict[str, Any]:
    """Each deck's verdict under each agent before and after a patch, side by side: ``agents``
    is ``[(agent, report before, report after), …]`` (meta reports of the same decks in
    ``names``' order). One row per deck (each agent's rates and verdicts before and after) and
    one sentence per deck: "Dawn Crusade: dominant → fine for skilled play (planner), 60 % →
    52 %; fine for casual play (greedy), 51 % → 50 %"."""
    rows, sentences = [], []
    for d, name in enumerate(names):
        cells = []
        for agent, before, after in agents:
            was, now = before["field_rates"][d], after["field_rates"][d]
            cells.append({"agent": agent, "before": was, "after": now,
                          "was": verdict(was.get("rate")), "now": verdict(now.get("rate"))})
        changed = any(c["was"] != c["now"] for c in cells)
        rows.append({"name": name, "cells": cells, "changed": changed})
        parts = [_change_part(c) for c in cells if c["was"] and c["now"]]
        if parts:
            sentences.append(_("{deck}: {verdicts}.").format(
                deck=name, verdicts=pgettext("verdict separator", "; ").join(parts)))
    return {"agents": [{"name": agent, "title": game_word("agent", agent),
                        "skill": skill_phrase(agent)} for agent, _b, _a in agents],
            "rows": rows, "sentences": sentences, "limit": HEALTHY_FIELD_RATE,
            "low": 1 - HEALTHY_FIELD_RATE}


def _change_part(cell: Mapping[str, Any]) -> str:
    said = VERDICTS[cell["now"]] if cell["was"] == cell["now"] else _(
        "{before} → {after}").format(before=VERDICTS[cell["was"]], after=VERDICTS[cell["now"]])
    return _("{verdict} for {side}, {before} → {after}").format(
        verdict=said, side=_side(cell["agent"]), before=percent(cell["before"]["rate"], 1),
        after=percent(cell["after"]["rate"], 1))


def _verdict_sentence(name: str, cells: Sequence[Mapping[str, Any]]) -> str:
    parts = [_("{verdict} for {side}: {rate} against the field").format(
        verdict=VERDICTS[c["verdict"]], side=_side(c["agent"]), rate=percent(c["rate"]["rate"], 1))
        for c in cells]
    return _("{deck}: {verdicts}.").format(
        deck=name, verdicts=pgettext("list separator", ", ").join(parts))


def _field_of(run: SimulationRun) -> tuple[Any, ...]:
    return run.decks, run.cards, run.patch, run.ruleset


def same_field_runs(run: SimulationRun, listed: QuerySet[SimulationRun]) -> list[SimulationRun]:
    """Finished round-robins among ``listed`` (the runs the reader may open) that played
    ``run``'s field — the same decks, cards, patch and rules — with another agent, newest
    first, one per agent."""
    if run.kind != RunKind.ROUND_ROBIN:
        return []
    candidates = (listed.filter(kind=RunKind.ROUND_ROBIN, status=WorkStatus.DONE,
                                card_data_version=run.card_data_version)
                  .exclude(agent_a=run.agent_a).exclude(pk=run.pk).order_by("-created_at")[:50])
    out: dict[str, SimulationRun] = {}
    mine = _field_of(run)
    for other in candidates:
        if other.agent_a == other.agent_b and other.agent_a not in out \
                and _field_of(other) == mine:
            out[other.agent_a] = other
    return list(out.values())


def run_skill_context(run: SimulationRun, visible: QuerySet[SimulationRun], *, versus: str,
                      epsilon: float, report: Mapping[str, Any]) -> dict[str, Any]:
    """The run page's "under another agent" part of its meta: the same field's runs by other
    agents to compare with, and — for ``versus`` (one of those runs' uid, from ``?versus=``) —
    the two metas side by side (``skill_comparison``). An unknown ``versus`` is the part's
    ``error`` (``NOT_SAME_FIELD``)."""
    others = same_field_runs(run, visible)
    out: dict[str, Any] = {"others": [{"uid": o.uid, "agent": o.agent_a,
                                       "skill": skill_phrase(o.agent_a)} for o in others],
                           "versus": versus, "comparison": None, "error": None}
    if not versus:
        return out
    chosen = next((o for o in others if o.uid == versus), None)
    other = run_meta(chosen, run_reports(chosen), epsilon=epsilon) if chosen else None
    if chosen is None or other is None:
        out["error"] = str(NOT_SAME_FIELD)
        return out
    out["comparison"] = skill_comparison(report["decks"], [(run.agent_a, report),
                                                           (chosen.agent_a, other)])
    return out


def unpatched_field_runs(run: SimulationRun, listed: QuerySet[SimulationRun]
                         ) -> list[SimulationRun]:
    """Finished round-robins among ``listed`` that played a patched ``run``'s field without its
    patch — the same decks and rules, its cards as printed before the patch (a sweep's
    baseline, or any such run) — newest first, one per agent; [] for a run with no patch or
    one kept before its patch recorded the printed cards."""
    printed = (run.patch or {}).get("unpatched")
    if run.kind != RunKind.ROUND_ROBIN or not printed:
        return []
    expected = {**run.cards, **printed}
    candidates = (listed.filter(kind=RunKind.ROUND_ROBIN, status=WorkStatus.DONE,
                                card_data_version=run.card_data_version, patch__isnull=True)
                  .exclude(pk=run.pk).order_by("-created_at")[:50])
    out: dict[str, SimulationRun] = {}
    for other in candidates:
        cards = other.cards or {}
        if other.agent_a != other.agent_b or other.agent_a in out \
                or other.decks != run.decks or other.ruleset != run.ruleset:
            continue
        # the patch's own cards may have been frozen with the patched run alone
        if all(expected.get(code) == data for code, data in cards.items()) \
                and set(expected) - set(cards) <= set(printed):
            out[other.agent_a] = other
    return list(out.values())


def run_verdict_changes(run: SimulationRun, listed: QuerySet[SimulationRun], *, epsilon: float,
                        report: Mapping[str, Any]) -> dict[str, Any] | None:
    """A patched round-robin's verdicts before → after per agent (``verdict_changes``, as the
    balance search's page shows them): after, this run's meta (``report``) and the same patched
    field's runs by other agents (``same_field_runs``); before, the unpatched field's runs
    (``unpatched_field_runs``); where a balance search opened the run, what it verified fills
    in the agents no run played (``SimulationRun.search_metas``). None without a patch, or
    without one agent measured both before and after."""
    if not run.patch or run.kind != RunKind.ROUND_ROBIN:
        return None
    after: dict[str, Mapping[str, Any]] = {run.agent_a: report}
    before: dict[str, Mapping[str, Any]] = {}
    played: dict[str, SimulationRun] = {}
    for other in same_field_runs(run, listed):
        meta = run_meta(other, run_reports(other), epsilon=epsilon)
        if meta is not None:
            after.setdefault(other.agent_a, meta)
    for other in unpatched_field_runs(run, listed):
        meta = run_meta(other, run_reports(other), epsilon=epsilon)
        if meta is not None:
            before[other.agent_a], played[other.agent_a] = meta, other
    stored = run.search_metas or {}
    searched: dict[str, set[str]] = {"before": set(), "after": set()}
    for side, kept in (("before", before), ("after", after)):
        for agent, meta in (stored.get(side) or {}).items():
            if agent not in kept:
                kept[agent] = meta
                searched[side].add(agent)
    names = list(report["decks"])
    agents = [a for a in after if a in before and all(
        len(side[a]["field_rates"]) == len(names) for side in (before, after))]
    if not agents:
        return None
    out = verdict_changes(names, [(a, before[a], after[a]) for a in agents])
    out["unpatched_runs"] = [{"uid": played[a].uid, "title": game_word("agent", a)}
                             for a in agents if a in played]
    out["searched"] = [sentence.format(agents=pgettext("list separator", ", ").join(
        game_word("agent", a) for a in agents if a in searched[side]))
        for side, sentence in (("before", SEARCHED_BEFORE), ("after", SEARCHED_AFTER))
        if any(a in searched[side] for a in agents)]
    return out
