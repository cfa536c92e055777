"""A forecast's figures played again on fresh seeds: does each replayed value fall inside the
forecast's interval?

The settled lists (``final.decks`` of a forecast's JSON) play every matchup again, as many games
as the forecast played (``final.games_each``), on the seeds of another run seed; the best deck
of the exploitability check plays the settled lists weighted by the settled meta, as many games
an opponent as its tuning verified with. Each figure — every matchup, every field win rate,
the exploitability — is set beside the forecast's: **inside** when the replayed rate lies in
the forecast's 95 % interval, **consistent** when the two differ by less than their combined
95 % margin.

What to expect of honest figures: a replay as large as the original falls inside the original's
95 % interval about 83 % of the time (the difference of two equal, independent estimates has
√2 times the spread of one), and is consistent 95 % of the time.

Invariant: the same forecast, replay seed and games give the same replay.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from rules.lab.deck_tuning import BLOCK, Swap, TuneTask
from rules.lab.deck_tuning.evaluate import opponent_seed
from rules.lab.deck_tuning.problem import DeckKey, apply, deck_key
from rules.lab.deck_tuning.result import measured_of
from rules.lab.forecast.play import FieldEvaluator, Matchups, PairEvaluator
from rules.lab.forecast.problem import ForecastError
from rules.lab.forecast.result import field_rates, matchup_table

SAME_SEED = "--seed: give a seed other than the forecast's ({seed}); its games are not fresh."
NOT_A_FORECAST = "{name}: not a forecast's JSON (no final.decks): {detail}"


def settled_lists(data: Mapping[str, Any]) -> list[DeckKey]:
    try:
        return [deck_key(d["hero"], d["cards"]) for d in data["final"]["decks"]]
    except (KeyError, TypeError, AttributeError) as exc:
        raise ForecastError(NOT_A_FORECAST.format(name="--replay", detail=exc)) from None


def compare(forecast: Mapping[str, Any], replayed: Mapping[str, Any]) -> dict[str, Any]:
    """A replayed figure beside the forecast's: inside its interval, and consistent with it."""
    margin = math.hypot(forecast["high"] - forecast["low"], replayed["high"] - replayed["low"])
    return {"forecast": dict(forecast), "replayed": dict(replayed),
            "inside": forecast["low"] <= replayed["rate"] <= forecast["high"],
            "consistent": abs(forecast["rate"] - replayed["rate"]) <= margin / 2}


def replay_forecast(data: Mapping[str, Any], pairs: PairEvaluator, *,
                    seed: int) -> dict[str, Any]:
    """Every figure of the forecast ``data`` (its ``--json``) against its replay on ``seed``."""
    if seed == data.get("seed"):
        raise ForecastError(SAME_SEED.format(seed=seed))
    lists = settled_lists(data)
    final = data["final"]
    names = [d["name"] for d in final["decks"]]
    outcomes = Matchups(pairs, seed).measure(lists, final["games_each"], fresh=1)
    table, rates = matchup_table(len(lists), outcomes), field_rates(names, outcomes)
    figures = []
    for i in range(len(lists)):
        for j in range(i + 1, len(lists)):      # (j, i) is (i, j) seen from the other side
            theirs, ours = final["matchups"][i][j], table[i][j]
            if theirs and ours:
                figures.append({"figure": f"{names[i]} against {names[j]}",
                                **compare(theirs, ours)})
    figures += [{"figure": f"{name}, field win rate", **compare(final["field"][i], rates[i])}
                for i, name in enumerate(names)]
    exploit = data.get("exploitability")
    if exploit:
        figures.append({"figure": f"exploitability ({exploit['archetype']})",
                        **compare(exploit, _exploit_replay(data, lists, pairs, seed))})
    return {"seed": seed, "forecast_seed": data.get("seed"), "agent": data.get("agent"),
            "games_each": final["games_each"], "figures": figures,
            "inside": sum(f["inside"] for f in figures),
            "consistent": sum(f["consistent"] for f in figures), "count": len(figures)}


def _exploit_replay(data: Mapping[str, Any], lists: Sequence[DeckKey], pairs: PairEvaluator,
                    seed: int) -> dict[str, Any]:
    """The exploitability's deck against the settled lists, weighted by the settled meta."""
    exploit = data["exploitability"]
    names = [d["name"] for d in data["final"]["decks"]]
    swaps = tuple(Swap.from_dict(s) for s in exploit["swaps"])
    deck = apply(lists[names.index(exploit["archetype"])], swaps)
    each = exploit["games"] // max(1, len(lists))
    blocks = max(1, -(-each // BLOCK))
    evaluator = FieldEvaluator(pairs, lists)
    tasks = [TuneTask(deck, o, opponent_seed(seed, o, fresh=2), 0, blocks)
             for o in range(len(lists))]
    outcomes = ["".join(blocks_) for blocks_ in evaluator.evaluate(tasks)]
    shares = data["final"]["shares"]
    total = sum(shares)
    return measured_of(swaps, outcomes,
                       [s / total for s in shares] if total > 1e-9 else None).interval()
