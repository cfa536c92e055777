"""Two runs compared game by game: a what-if against its base, or any two finished runs.

Runs are *pairable* when they played the same seeds (the same run seed and games per pairing)
with the decks in the same roles (the same pairings, deck A and deck B at the same places): then
game ``g`` of one is game ``g`` of the other with something changed, and the comparison is
paired — per seed-sharing pair of games, the change of the wins of the deck followed, with a
cluster-robust 95 % interval (``rules.lab.intervals.paired_difference``), the exact McNemar p-value
on the games that flipped, and the flips counted. Runs that are not pairable say why and are
compared unpaired (each run's pair-aware interval, combined by Newcombe's method), labelled so.

Draws count as not won; a game with an engine error in either run is left out of the pairing.
"""

from __future__ import annotations

import math
from typing import Any

from django.utils.translation import gettext_lazy

from common.language import frozen_card_name
from rules.lab.intervals import Rate, mcnemar_exact, paired_difference
from simulations.models import SimulationRun
from simulations.reports import MatchupReport, run_reports, side_rate

PAIRED = "paired"
UNPAIRED = "unpaired"
METHODS = (PAIRED, UNPAIRED)
COUNTED = "abd"

NOT_SAME_SEED = gettext_lazy("They were played on different seeds ({a} and {b}).")
NOT_SAME_GAMES = gettext_lazy("They play a different number of games per pairing ({a} and "
                              "{b}).")
NOT_SAME_ROLES = gettext_lazy("Their decks play different pairings ({a} of {na} decks and {b} "
                              "of {nb} decks).")


def pairing_problems(before: SimulationRun, after: SimulationRun) -> list[str]:
    """Why two runs cannot be compared game by game ([] when they can)."""
    problems = []
    if before.seed != after.seed:
        problems.append(str(NOT_SAME_SEED).format(a=before.seed, b=after.seed))
    if before.games != after.games:
        problems.append(str(NOT_SAME_GAMES).format(a=before.games, b=after.games))
    roles = [list(before.matchups.order_by("index").values_list("a", "b")),
             list(after.matchups.order_by("index").values_list("a", "b"))]
    if before.kind != after.kind or roles[0] != roles[1]:
        problems.append(str(NOT_SAME_ROLES).format(a=before.kind, b=after.kind,
                                                   na=len(before.decks), nb=len(after.decks)))
    return problems


def flips(before: str, after: str, side: str) -> dict[str, int]:
    """Game by game on the same seeds, from deck ``side``'s view ("a" or "b")."""
    other = "b" if side == "a" else "a"
    out = {"same": 0, "lost_to_won": 0, "won_to_lost": 0, "other": 0}
    for old, new in zip(before, after, strict=False):
        if old not in COUNTED or new not in COUNTED:
            continue
        if old == new:
            out["same"] += 1
        elif (old, new) == (other, side):
            out["lost_to_won"] += 1
        elif (old, new) == (side, other):
            out["won_to_lost"] += 1
        else:
            out["other"] += 1
    return out


def paired_change(before: str, after: str, side: str) -> dict[str, Any]:
    """The change of deck ``side``'s win rate from one outcome string to the other, paired by
    seed (games 2k and 2k+1 share a seed)."""
    rows = []
    gained = lost = 0
    for start in range(0, min(len(before), len(after)), 2):
        w_before = w_after = n = 0
        for old, new in zip(before[start:start + 2], after[start:start + 2], strict=False):
            if old not in COUNTED or new not in COUNTED:
                continue
            n += 1
            w_before += old == side
            w_after += new == side
            gained += old != side and new == side
            lost += old == side and new != side
        rows.append((w_before, w_after, n))
    return {**paired_difference(rows), "method": PAIRED, "gained": gained, "lost": lost,
            "p_value": mcnemar_exact(gained, lost), "flips": flips(before, after, side)}


def unpaired_change(before: Rate, after: Rate) -> dict[str, Any]:
    """Newcombe's method on two independent rates, each with its own (pair-aware) interval."""
    if before["rate"] is None or after["rate"] is None:
        return {"change": None, "low": -1.0, "high": 1.0, "games": 0, "pairs": 0,
                "method": UNPAIRED, "p_value": None, "flips": None}
    p1, l1, u1 = after["rate"], after["low"], after["high"]
    p2, l2, u2 = before["rate"], before["low"], before["high"]
    d = p1 - p2
    return {"change": d, "low": d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            "high": d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2),
            "games": min(before["games"], after["games"]), "pairs": None,
            "method": UNPAIRED, "p_value": None, "flips": None}


def _change(before: MatchupReport, after: MatchupReport, deck: int, paired: bool
            ) -> dict[str, Any]:
    side = "a" if after["a"] == deck else "b"
    old, new = side_rate(before, deck), side_rate(after, deck)
    change = (paired_change(before["outcomes"], after["outcomes"], side) if paired
              else unpaired_change(old, new))
    other = after["b"] if side == "a" else after["a"]
    return {"index": after["index"], "deck": deck, "opponent_index": other,
            "before": old, "after": new, **change,
            "change_low": change["low"], "change_high": change["high"]}


def compare_runs(before: SimulationRun, after: SimulationRun, *, deck: int | None = None,
                 before_reports: list[MatchupReport] | None = None,
                 after_reports: list[MatchupReport] | None = None) -> dict[str, Any]:
    """Each pairing of ``after`` against the same pairing of ``before``: the change of the win
    rate of ``deck`` (default: deck A of each pairing), paired when the runs are pairable."""
    problems = pairing_problems(before, after)
    paired = not problems
    old_reports = before_reports if before_reports is not None else run_reports(before)
    new_reports = after_reports if after_reports is not None else run_reports(after)
    matched: dict[object, MatchupReport]
    if paired:
        matched = {r["index"]: r for r in old_reports}
        key = "index"
    else:   # pair pairings up by the decks' names instead
        matched = {(r["deck_a"], r["deck_b"]): r for r in old_reports}
        key = None
    rows = []
    for report in new_reports:
        old = matched.get(report["index"] if key else (report["deck_a"], report["deck_b"]))
        subject = report["a"] if deck is None else deck
        if old is None or subject not in (report["a"], report["b"]):
            continue
        row = _change(old, report, subject, paired)
        row.update({"deck_name": after.deck_name(subject),
                    "opponent": after.deck_name(row["opponent_index"])})
        rows.append(row)
    return {"before": {"uid": before.uid, "label": before.label},
            "after": {"uid": after.uid, "label": after.label},
            "method": PAIRED if paired else UNPAIRED, "problems": problems, "rows": rows}


def what_if_report(run: SimulationRun, reports: list[MatchupReport]) -> dict[str, Any] | None:
    """The change a what-if made, per pairing, for the swapped deck (same seeds as the base)."""
    base = run.base_run
    if base is None or not run.swap:
        return None
    deck = run.swap["deck"]
    comparison = compare_runs(base, run, deck=deck, after_reports=reports)
    out_code, in_code = run.swap["out"], run.swap["in"]
    return {"base_uid": base.uid, "base_label": base.label, "deck": deck,
            "deck_name": base.deck_name(deck), "card_out": out_code, "card_in": in_code,
            "card_out_name": frozen_card_name(run.cards, out_code),
            "card_in_name": frozen_card_name(run.cards, in_code),
            "method": comparison["method"], "problems": comparison["problems"],
            "pairings": comparison["rows"]}
