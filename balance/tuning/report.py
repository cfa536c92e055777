"""What ``python manage.py tune_deck`` prints: progress lines on stderr (``clock``:
``balance.tuning.cli.Clock``), and the report — the unchanged deck on fresh games, each
re-verified suggestion's swaps with its paired improvement, matchup by matchup, and how it moves
the deck's share of the field's equilibria.

English only, like every command's output; the pages say the same in both languages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.engine.cards import CardDef
from rules.lab.deck_tuning import TuningProblem, TuningResult


def _name(cards: dict[str, CardDef], code: str) -> str:
    card = cards.get(code)
    return card.name_en if card else code


def swap_text(cards: dict[str, CardDef], swap: dict[str, Any]) -> str:
    if swap["copies"] == 0:
        return f"hero {_name(cards, swap['out'])} -> {_name(cards, swap['into'])}"
    return f"-{swap['copies']} {_name(cards, swap['out'])}, +{swap['copies']} " \
           f"{_name(cards, swap['into'])}"


def progress_line(clock: Any, cards: dict[str, CardDef], event: dict[str, Any]) -> str:
    phase = event["phase"]
    details: dict[str, Callable[[], str]] = {
        "baseline": lambda: "the unchanged deck",
        "racing": lambda: f"round {event['round']}: {event['candidates']} decks at "
                          f"{event['rung_games']} games an opponent",
        "verifying": lambda: f"{event['candidates']} decks (the unchanged one included) at "
                             f"{event['games_each']} games an opponent on fresh seeds",
        "done": lambda: f"{event.get('suggestions', 0)} suggestion(s)",
    }
    detail = details[phase]()
    best = event.get("best")
    shown = ""
    if best:
        swaps = "; ".join(swap_text(cards, s) for s in best["swaps"]) or "unchanged"
        shown = (f" | best: {swaps} at {best['rate'] * 100:.1f} % "
                 f"({best['change'] * 100:+.1f} points)")
    return f"[{clock.elapsed:6.0f} s] {phase:<9} {detail} | {event['games']:,} games{shown}"


def report_text(result: TuningResult, names: Sequence[str], problem: TuningProblem,
                cards: dict[str, CardDef], *, elapsed: float) -> str:
    data = result.to_dict(names)
    base = data["baseline"]
    lines = [f"Deck tuning of {problem.deck.name or 'the deck'} against {len(names)} decks "
             f"({problem.field.agent} agent), at most {problem.max_swaps} swaps, seed "
             f"{problem.seed}.",
             f"Searched {result.games_searched:,} games ({result.evaluations} swaps over "
             f"{result.rounds} round(s), {result.games_each} games an opponent at the last "
             f"rung); verified {result.games_verified:,} games on fresh seeds; {elapsed:.0f} s.",
             "", f"Unchanged: field win rate {base['rate'] * 100:.1f} % "
                 f"[{base['low'] * 100:.1f}, {base['high'] * 100:.1f}] on "
                 f"{problem.verify_games:,} fresh games an opponent."]
    for row in base["matchups"]:
        lines.append(f"  vs {row['opponent']:<16} {row['rate'] * 100:5.1f} %")
    if not data["suggestions"]:
        lines.append("\nNo swap raised the field win rate within the budget.")
    for number, s in enumerate(data["suggestions"], 1):
        gain = s["improvement"]
        lines += ["", f"Suggestion {number}: " + "; ".join(swap_text(cards, w)
                                                            for w in s["swaps"]),
                  f"  field win rate {s['verified']['rate'] * 100:.1f} %: "
                  f"{gain['change'] * 100:+.1f} points, paired 95 % interval "
                  f"[{gain['low'] * 100:+.1f}, {gain['high'] * 100:+.1f}], McNemar p = "
                  f"{gain['p_value']:.2g} ({gain['gained']} games gained, {gain['lost']} lost; "
                  f"search seeds: {s['search_rate'] * 100:.1f} %)"]
        lines += share_lines(s.get("shares"))
        for m in s["matchups"]:
            lines.append(f"    vs {m['opponent']:<16} {m['before'] * 100:5.1f} % -> "
                         f"{m['after'] * 100:5.1f} %  ({m['change'] * 100:+.1f} "
                         f"[{m['low'] * 100:+.1f}, {m['high'] * 100:+.1f}], p = "
                         f"{m['p_value']:.2g})")
    return "\n".join(lines)


def share_lines(shares: dict[str, Any] | None) -> list[str]:
    """How a suggestion moves the deck's share of the field's equilibria (with two opponents
    or more)."""
    if not shares:
        return []
    nash, relaxed = shares["nash"], shares["relaxed"]
    return [f"  share of the field's Nash equilibrium {nash['before'] * 100:.1f} % -> "
            f"{nash['after'] * 100:.1f} %, of the ε-equilibrium (ε {shares['epsilon']:g}) "
            f"{relaxed['before'] * 100:.1f} % -> {relaxed['after'] * 100:.1f} % (evenness "
            f"{relaxed['entropy_before']:.2f} -> {relaxed['entropy_after']:.2f})"]
