"""A finished meta forecast as its page shows it: each round's lists as diffs in card names with
their field win rates and the meta's shares, the chart of the meta, the settled field, the
cards adopted and dropped, each archetype's verdict under every agent that played the settled
lists, and the exploitability — every name in the reader's language (the frozen cards and decks
carry both), every rate in percent with its interval and games."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.safestring import SafeString

from balance.forecast.charts import colour, meta_chart
from balance.models import BalanceJob
from cards.game_words import game_word
from common.language import frozen_card_name
from rules.lab.forecast.problem import DEFAULT_BAND


def _pct(figure: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not figure or figure.get("rate") is None:
        return None
    return {"rate": round(figure["rate"] * 100, 1), "low": round(figure["low"] * 100, 1),
            "high": round(figure["high"] * 100, 1), "games": figure["games"]}


def _diff(cards: Mapping[str, Any], diff: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{"code": row["card"], "name": frozen_card_name(cards, row["card"]),
             "copies": row["copies"]} for row in diff]


def _swaps(cards: Mapping[str, Any], swaps: Sequence[Mapping[str, Any]]) -> list[str]:
    return [f"−{s['copies']} {frozen_card_name(cards, s['out'])}, +{s['copies']} "
            f"{frozen_card_name(cards, s['into'])}" for s in swaps]


def forecast_view(job: BalanceJob) -> dict[str, Any] | None:
    """The page's figures from the job's result (None until it is done)."""
    result = job.result
    if job.status != "done" or not result:
        return None
    names, cards = job.deck_names, job.cards
    rounds = [{"number": r["round"], "check": bool(r.get("check")), "rows": [
        {"name": name, "colour": colour(i), "share": round(share * 100, 1),
         "field": _pct(deck["field"]), "diff": _diff(cards, deck["diff"]),
         "adopted": bool((deck.get("tuning") or {}).get("adopted")),
         "gain": _gain((deck.get("tuning") or {}).get("improvement"))}
        for i, (name, deck, share) in enumerate(zip(names, r["decks"], r["shares"],
                                                    strict=True))]}
        for r in result["rounds"]]
    final = result["final"]
    settled = [{"name": name, "colour": colour(i), "field": _pct(final["field"][i]),
                "nash": round(final["nash"]["shares"][i] * 100, 1),
                "relaxed": round(final["relaxed"]["shares"][i] * 100, 1),
                "share": round(final["shares"][i] * 100, 1),
                "diff": _diff(cards, final["decks"][i]["diff"]),
                "matchups": [_pct(cell) for cell in final["matchups"][i]]}
               for i, name in enumerate(names)]
    moves = {kind: [{**row, "name": frozen_card_name(cards, row["card"])}
                    for row in result["cards"][kind]] for kind in ("adopted", "dropped")}
    exploit = result.get("exploitability")
    return {"rounds": rounds, "verdicts": _verdicts(names, result), "settled": settled,
            "names": names, "moves": moves,
            "chart": _chart(names, result["rounds"]), "stopped": result["stopped"],
            "games": result["games"], "games_each": final["games_each"],
            "epsilon": round(final["epsilon"] * 100, 2),
            "exploit": {**(_pct(exploit) or {}), "archetype": _rename(job, exploit),
                        "swaps": _swaps(cards, exploit["swaps"])} if exploit else None}


def _verdicts(names: Sequence[str], result: Mapping[str, Any]) -> dict[str, Any] | None:
    """Each archetype's verdict (``nerf``, ``buff`` or ``fine``) with its field win rate under
    each agent, the one that adapted the lists first; None for a result from before verdicts."""
    rows = result.get("verdicts")
    if not rows:
        return None
    agents = [result["agent"], *result["final"].get("agents", {})]
    low, high = result.get("band") or DEFAULT_BAND
    return {"low": round(low * 100, 1), "high": round(high * 100, 1),
            "agents": [game_word("agent_label", a) for a in agents],
            "rows": [{"name": name, "verdict": row["verdict"],
                      "cells": [_pct(row["agents"].get(a)) for a in agents]}
                     for name, row in zip(names, rows, strict=True)]}


def _gain(improvement: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not improvement:
        return None
    return {"change": round(improvement["change"] * 100, 1),
            "low": round(improvement["low"] * 100, 1),
            "high": round(improvement["high"] * 100, 1)}


def _rename(job: BalanceJob, exploit: Mapping[str, Any]) -> str:
    """The exploiting archetype's name in the reader's language."""
    return str(job.deck_renames.get(exploit["archetype"], exploit["archetype"]))


def _chart(names: Sequence[str], rounds: Sequence[Mapping[str, Any]]) -> SafeString:
    return meta_chart(names, [r["shares"] for r in rounds])
