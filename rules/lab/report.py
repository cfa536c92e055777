"""Plain-text and JSON reports of a match, as the command line prints them.

Invariant: a report contains nothing that varies between runs with the same inputs (no times,
no dates), so the same seed always prints the same text.
"""

from __future__ import annotations

from typing import Any

from rules.lab.stats import MatchStats


def match_summary(stats: MatchStats, *, deck_a: str, deck_b: str, seed: int,
                  agent_a: str, agent_b: str,
                  patch: dict[str, Any] | None = None) -> dict[str, Any]:
    """``patch``: the balance patch played, as ``{"name", "diff"}`` (``rules.lab.patches``)."""
    return {"deck_a": deck_a, "deck_b": deck_b, "seed": seed, "agent_a": agent_a,
            "agent_b": agent_b, "patch": patch, **stats.to_dict()}


def _pct(value: float | None) -> str:
    return "  n/a" if value is None else f"{value * 100:5.1f} %"


def _rate_line(label: str, rate: dict[str, Any]) -> str:
    if rate["rate"] is None:
        return f"  {label:<14} n/a (no games)"
    units = f" in {rate['pairs']} pairs" if rate.get("pairs") is not None else ""
    return (f"  {label:<14}{_pct(rate['rate'])}   95 % CI {rate['low'] * 100:.1f} – "
            f"{rate['high'] * 100:.1f} %   ({rate['games']} games{units})")


def _patch_lines(patch: dict[str, Any] | None) -> list[str]:
    if not patch:
        return []
    return [f"  patch {patch['name']}:"] + [f"    {row['text']}" for row in patch["diff"]]


def match_text(summary: dict[str, Any]) -> str:
    lines = [
        f"{summary['deck_a']} ({summary['agent_a']}) vs {summary['deck_b']} "
        f"({summary['agent_b']}): {summary['games']} games in seat-swapped pairs, "
        f"seed {summary['seed']}",
        *_patch_lines(summary.get("patch")),
        f"  wins {summary['wins']}   losses {summary['losses']}   draws {summary['draws']}   "
        f"engine errors {summary['errors']}",
        _rate_line("win rate", summary["win_rate"]),
        _rate_line("going first", summary["going_first"]),
        _rate_line("going second", summary["going_second"]),
        f"  (draws count as {summary.get('draws_count_as', 'not won')}; intervals are computed "
        "on seat-swapped pairs, which share a seed)",
    ]
    turns = summary["average_turns"]
    lines.append(f"  average length {turns:.1f} turns" if turns is not None
                 else "  average length n/a")
    for sample in summary["error_samples"][:5]:
        lines.append(f"  error in game seed {sample['seed']}: {sample['error']}")
    return "\n".join(lines)
