"""A finished adapted search as its page shows it: for each patch considered (the unpatched pool
first), its figures on the printed lists beside its figures on the lists players adapted to it
— each deck's field win rate with its interval, its ε-equilibrium share, the matchup extremes,
exploitability — each side naming its agent and games, and the chosen patch marked."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from balance.models import BalanceJob
from simulations.patches.text import change_line

FAILURES = {"field": gettext_lazy("{archetype} needs a {verdict}"),
            "matchup": gettext_lazy("{archetype} against {rival}: {rate} %"),
            "share": gettext_lazy("smallest ε-equilibrium share {share} %"),
            "exploit": gettext_lazy("one more tuning of {archetype} reaches {rate} %")}
VERDICTS = {"nerf": gettext_lazy("nerf"), "buff": gettext_lazy("buff")}
NEXT_MOVES = {
    "fixed_point": gettext_lazy("Patches tried: {patches}. The search on the adapted lists "
                                "then proposed only patches already tried: a wider search "
                                "(more in “What may change” or “Only these cards”) or more "
                                "changes (“Most changes”) may find another."),
    "fixed_point_capped": gettext_lazy(
        "Patches tried: {patches}. The search on the adapted lists then proposed only patches "
        "already tried, under a cap of {max_edits} on its edits of the patch it started "
        "from: a longer step (“Most edits of the starting patch”), a wider search or more "
        "changes may find another."),
    "patches": gettext_lazy("Every patch it might try was tried ({patches}, “Patches to "
                            "try”): more patches search again on the lists the last one "
                            "adapted to."),
    "stopped": gettext_lazy("It stopped after {patches} patches tried, before every patch it "
                            "might try: a longer run tries more."),
    "paths": gettext_lazy("Patch {iteration} met every target on seeds {met} and missed on "
                          "seeds {missed}: forecasts on other seeds settle in other metas, "
                          "and a patch must hold in each."),
    "unsettled": gettext_lazy("Patch {iteration}'s worst forecast stopped after {rounds} "
                              "rounds, before its lists settled: more rounds of re-tuning "
                              "or a larger forecast budget let it settle.")}


def _next_move_key(move: dict[str, Any]) -> str:
    """A fixed point reached under a cap on edits names the cap as a way further."""
    return "fixed_point_capped" if move.get("max_edits") else move["why"]


def _pct(x: float) -> str:
    return f"{x * 100:.1f}"


def _failure(f: dict[str, Any], names: dict[str, str]) -> str:
    words = {k: names.get(v, v) if k in ("archetype", "rival") else v for k, v in f.items()}
    if "verdict" in words:
        words["verdict"] = VERDICTS.get(words["verdict"], words["verdict"])
    for key in ("rate", "share"):
        if key in words:
            words[key] = _pct(words[key])
    return str(FAILURES[f["what"]].format(**words))


def _side(side: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    def extreme(cell: dict[str, Any] | None) -> dict[str, Any] | None:
        if cell is None:
            return None
        return {**cell, "deck": names.get(cell["deck"], cell["deck"]),
                "rival": names.get(cell["rival"], cell["rival"])}

    ex = side.get("exploitability")
    return {"agent": side["agent"], "games_each": side["games_each"],
            "low": extreme(side["matchup_low"]), "high": extreme(side["matchup_high"]),
            "min_share": min(side["relaxed"], default=None), "epsilon": side["epsilon"],
            "exploit": {**ex, "archetype": names.get(ex["archetype"], ex["archetype"])}
            if ex else None}


def _paths(c: dict[str, Any], decks: list[dict[str, Any]]) -> dict[str, Any]:
    """A patch forecast on several seeds: each seed's verdict, and each deck's adapted field
    win rate on each seed beside the others (``decks`` gains ``paths``)."""
    paths = c.get("paths") or []
    if len(paths) < 2:
        return {"paths": [], "seed": c.get("seed")}
    for i, deck in enumerate(decks):
        deck["paths"] = [p["field"][i] for p in paths]
    return {"seed": c["seed"],
            "paths": [{"seed": p["seed"], "worst": p["worst"], "meets": p["meets"],
                       "misses": len(p["failures"]), "stopped": p["stopped"],
                       "rounds": p["rounds"]} for p in paths]}


def _answers(c: dict[str, Any], cards: dict[str, Any], names: dict[str, str]
             ) -> list[dict[str, Any]]:
    """The answer check that chose the patch: each of the search's patches it priced, its
    changes, its misses after every list re-tuned once (the worse path's, and each path's
    where the lists of several forecast paths answered), and whether it is the one forecast."""
    return [{"lines": [change_line(cards, m["card"], m["field"], m["value"])
                       for m in a["patch"]["changes"]],
             "meets": a["meets"], "misses": [_failure(f, names) for f in a["failures"]],
             "adopted": a["adopted"], "games": a["games"],
             "paths": a.get("paths") or [],
             "chosen": a["patch"]["changes"] == c["patch"]["changes"]}
            for a in c.get("answers") or []]


def _answered_by(answers: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Who played the answered lists, and how many fresh games a matchup (one for all)."""
    first = answers[0] if answers else {}
    if "agent" not in first:
        return None
    return {"agent": first["agent"], "games_each": first["games_each"]}


def adapted_context(job: BalanceJob) -> dict[str, Any] | None:
    """The page's patches side by side, or None while the search has no result."""
    result = job.result
    if not result or "considered" not in result:
        return None
    cards = job.cards or {}
    names = job.deck_renames
    rows = []
    for index, c in enumerate(result["considered"]):
        decks = [{"name": names.get(n, n), "printed": p, "adapted": a,
                  "printed_share": ps, "adapted_share": as_}
                 for n, p, a, ps, as_ in zip(result["decks"], c["printed"]["field"],
                                             c["adapted"]["field"], c["printed"]["relaxed"],
                                             c["adapted"]["relaxed"], strict=True)]
        rows.append({"index": index, "iteration": c["iteration"], "changes": c["changes"],
                     "chosen": index == result["chosen"], "meets": c["meets"],
                     "failures": [_failure(f, names) for f in c["failures"]],
                     "lines": [change_line(cards, m["card"], m["field"], m["value"])
                               for m in c["patch"]["changes"]],
                     "decks": decks, "printed": _side(c["printed"], names),
                     "adapted": _side(c["adapted"], names), "stopped": c["stopped"],
                     "rounds": c["rounds"], **_paths(c, decks),
                     "answers": _answers(c, cards, names),
                     "answered_by": _answered_by(c.get("answers") or [])})
    real = [{"agent": agent, "stand_in": side["stand_in"], "games_each": side["games_each"],
             "decks": [{"name": names.get(n, n), **f}
                       for n, f in zip(result["decks"], side["field"], strict=True)]}
            for agent, side in (result.get("real_agents") or {}).items()]
    next_moves = [str(NEXT_MOVES[_next_move_key(m)].format(**{
        k: ", ".join(map(str, v)) if isinstance(v, list) else v for k, v in m.items()}))
        for m in result.get("next_moves") or [] if m["why"] in NEXT_MOVES]
    return {"rows": rows, "real": real, "games": result["games"], "next_moves": next_moves,
            "exploit_limit": result["objective"]["exploit_limit"],
            "has_patch": bool(result.get("patch"))}
