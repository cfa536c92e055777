"""Forecasts of one field on several seeds, side by side: what their paths share.

A forecast follows one path — which lists the archetypes adopt first decides where the field
settles — and on the starter field forecasts on other seeds settled in other metas
(docs/balance-search.md). ``compare_paths`` reads the forecasts' ``to_dict`` data (a run's own
or saved ``--json`` files) and says, for each archetype, its settled field win rate on each
seed, the lowest and highest, and whether every two seeds' figures are **consistent** (their
difference within the two intervals' combined 95 % margin, as a replay is judged:
``replay.compare``); and for the field, whether every archetype's figures are, each seed's
ε-equilibrium shares, and each seed's stop. Paths that agree forecast one meta; paths that do
not forecast a set of metas, and the spread says how far apart they are.

It also says what the paths' **lists** share (``shared_changes``): the changes from the printed
list every seed's settled list made — the same card in or out on every path, at the fewest
copies any path moved — against the copies each path brought in. Paths that part on the
figures but share their changes part on the field's mix; paths that share none reached other
lists (on the patched starter field two paths shared 12 of the 52–54 copies each brought in
while the rounds proposed the same cards every round, 22 of 54–58 once they drew them anew:
docs/balance-search.md).

Invariant: it reads figures only; it plays no game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from rules.lab.forecast.replay import compare

NOT_COMPARABLE = "The forecasts are of different fields ({first} and {other}): compare one field."


def path_seeds(seed: int, count: int) -> tuple[int, ...]:
    """The seeds of ``count`` forecasts of one field: ``seed`` and the ones after it (the
    command's ``--seeds`` and the adapted search's ``--forecast-seeds`` alike)."""
    return tuple(seed + k for k in range(count))


def compare_paths(forecasts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The settled figures of forecasts of one field (each ``ForecastResult.to_dict()`` with
    its ``seed``), archetype by archetype across the seeds."""
    if not forecasts:
        raise ValueError("compare_paths needs at least one forecast")
    names = [d["name"] for d in forecasts[0]["final"]["decks"]]
    for data in forecasts[1:]:
        other = [d["name"] for d in data["final"]["decks"]]
        if other != names:
            raise ValueError(NOT_COMPARABLE.format(first=", ".join(names),
                                                   other=", ".join(other)))
    seeds = [data.get("seed") for data in forecasts]
    archetypes = []
    for i, name in enumerate(names):
        figures = [data["final"]["field"][i] for data in forecasts]
        rates = [f["rate"] for f in figures if f["rate"] is not None]
        consistent = all(compare(a, b)["consistent"] for a, b in combinations(figures, 2)
                         if a["rate"] is not None and b["rate"] is not None)
        archetypes.append({
            "name": name, "field": figures,
            "low": min(rates, default=None), "high": max(rates, default=None),
            "spread": round(max(rates) - min(rates), 6) if rates else None,
            "consistent": consistent,
            "relaxed": [data["final"]["relaxed"]["shares"][i] for data in forecasts],
            "lists": shared_changes([data["final"]["decks"][i].get("diff") for data in forecasts])})
    listed = [a["lists"] for a in archetypes if a["lists"] is not None]
    return {"seeds": seeds, "names": names,
            "agree": all(a["consistent"] for a in archetypes),
            "archetypes": archetypes,
            "paths": [{"seed": seed, "stopped": data["stopped"],
                       "rounds": len(data["rounds"]) - 1,
                       "games": data["games"].get("total", 0),
                       "exploitability": data.get("exploitability")}
                      for seed, data in zip(seeds, forecasts, strict=True)],
            "settled": all(data["stopped"] == "settled" for data in forecasts),
            "lists": {"shared": sum(a["shared"] for a in listed),
                      "brought_in": [sum(a["brought_in"][k] for a in listed)
                                     for k in range(len(forecasts))]} if listed else None}


def shared_changes(diffs: Sequence[Sequence[Mapping[str, Any]] | None]) -> dict[str, Any] | None:
    """What one archetype's settled lists on several paths share: each path's copies brought
    in (``brought_in``), the changes every path made (``common``: each card with its signed
    copies — the fewest any path moved that way), and the copies in common that came in
    (``shared``). None when a forecast's data holds no diffs (saved before they were kept)."""
    kept = [diff for diff in diffs if diff is not None]
    if len(kept) < len(diffs):
        return None
    moved = [{row["card"]: row["copies"] for row in diff} for diff in kept]
    common = []
    for card in moved[0]:
        copies = [m.get(card, 0) for m in moved]
        if all(c > 0 for c in copies) or all(c < 0 for c in copies):
            fewest = min(copies, key=abs)
            common.append({"card": card, "copies": fewest})
    return {"brought_in": [sum(c for c in m.values() if c > 0) for m in moved],
            "common": common, "shared": sum(r["copies"] for r in common if r["copies"] > 0)}
