"""What ``python manage.py balance_search`` prints: progress lines on stderr, and the report —
the re-verified Pareto front, the meta of every verified patch and of the unpatched field
(each deck's field win rate, the matchup range, the Nash equilibrium and the ε-equilibrium
with their entropy), the best verified patch's changes and matchups, and how to replay them.

English only, like every command's output; the pages say the same in both languages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rules.lab.balance_search import Problem, Scored, SearchResult
from rules.lab.balance_search.evaluate import matchup_seed
from rules.lab.balance_search.memo import field_matchups
from rules.lab.patches import patch_diff
from rules.localized import SOURCE_LANGUAGE


def progress_line(clock: Any, event: dict[str, Any]) -> str:
    """One line of progress (``clock``: ``cli.Clock``, whose games it keeps up to date)."""
    clock.games = max(clock.games, event["games"])
    clock.strong_games = max(getattr(clock, "strong_games", 0), event.get("strong_games", 0))
    clock.verified = max(getattr(clock, "verified", 0), event.get("verified_games", 0))
    phase = event["phase"]
    details: dict[str, Callable[[], str]] = {
        "baseline": lambda: f"unpatched field: {_figures(event['baseline'])}",
        "screening": lambda: f"{event.get('screened', 0)}/{event['moves']} single changes",
        "racing": lambda: f"round {event['round']}: {event['candidates']} candidates at "
                          f"{event['rung_games']} games a matchup",
        "verifying": lambda: f"{event['candidates']} patches (the unpatched field included) at "
                             f"{event['games_each']} games a matchup on fresh seeds",
        "done": lambda: "verified",
    }
    detail = details[phase]()
    best = event.get("best")
    shown = f" | best: {best['changes']} changes, {_figures(best)}" if best else ""
    strong = event.get("strong_games")
    further = f" + {strong:,} by the further agents" if strong is not None else ""
    agents = event.get("agents")
    under = f" under {', '.join(agents)}" if agents and phase in ("baseline", "racing") else ""
    return (f"[{clock.elapsed:6.0f} s] {phase:<9} {detail}{under} | {event['games']:,} games"
            f"{further}{shown}")


def _figures(summary: dict[str, Any]) -> str:
    """A candidate's summary in a few words: its worst figure and what lies outside."""
    meta = summary.get("meta")
    if meta is None:
        return (f"worst matchup {_pct(summary['worst_distance'])} from 50 %, "
                f"{summary['outside']} outside the band")
    return (f"worst deck {_pct(meta['field_worst'])} from 50 % against the field, "
            f"{summary['outside']} outside, smallest ε-equilibrium share "
            f"{meta['min_share'] * 100:.1f} %")


def _pct(distance: float) -> str:
    return f"±{distance * 100:.1f} %"


def _objective_line(problem: Problem) -> str:
    goal = problem.goal
    if not goal.is_meta:
        low, high = goal.band
        return f"objective band: every matchup in {low * 100:g}-{high * 100:g} %"
    (low, high), (mlow, mhigh) = goal.field_band, goal.matchup_band
    return (f"objective meta: every deck's field win rate in {low * 100:g}-{high * 100:g} %, "
            f"every matchup in {mlow * 100:g}-{mhigh * 100:g} %, every deck at least "
            f"{goal.min_share * 100:g} % of the ε-equilibrium (ε {goal.epsilon:g})")


def _budget_line(result: SearchResult, problem: Problem) -> str:
    """What the games played owe to the budget: the rounds it started, the round finished past
    it, and the re-verification that comes on top."""
    past = max(0, result.games_searched - problem.budget_games)
    within = result.games_searched - past
    strong = result.strong_games_searched + result.strong_games_verified
    total = result.games_searched + result.games_verified + strong
    return (f"Games in all: {total:,} = {within:,} within the {problem.budget_games:,}-game "
            f"budget + {past:,} finishing the round under way when it was spent + "
            f"{result.games_verified:,} re-verifying (outside the budget)"
            + (f" + {strong:,} under the further agents" if strong else "") + ".")


def report_text(result: SearchResult, names: Sequence[str], problem: Problem, *,
                out: str | None, elapsed: float, words: Mapping[str, str] | None = None
                ) -> str:
    """The command's report; ``words`` name races and factions in the best patch's rules text
    (``simulations.cli.input.card_set_words``)."""
    meta = problem.goal.is_meta
    agents = ", ".join((problem.field.agent, *problem.strong_agents))
    lines = [f"Balance search over {len(names)} decks ({agents} agent"
             f"{'s' if problem.strong_agents else ''}), "
             f"{_objective_line(problem)}, at most {problem.max_changes} changes"
             + (f", at most {problem.max_edits} edit{'s' if problem.max_edits != 1 else ''} "
                "of the patch it starts from" if problem.max_edits is not None else "") + ".",
             f"Searched {result.games_searched:,} games ({result.evaluations} candidate "
             f"evaluations, {result.moves_screened} single changes screened); verified "
             f"{result.games_verified:,} games on fresh seeds; {elapsed:.0f} s wall time.",
             _budget_line(result, problem),
             *([f"Further agents ({', '.join(problem.strong_agents)}): "
                f"{result.strong_games_searched:,} games searching (of which "
                f"{result.strong_games_screened:,} screening single changes, "
                f"{' → '.join(str(n) for n in result.strong_moves_screened) or 'none'} "
                f"changes a halving rung), {result.strong_games_verified:,} verifying "
                f"({problem.strong_verify_games:,} a matchup)."]
               if problem.strong_agents else []),
             *[f"For {agent}: screened and raced by {r['screened']}, verified by "
               f"{r['verified']}." for agent, r in result.roles.items()], "",
             "Pareto front (verified, "
             f"{problem.verify_games:,} games a matchup):",
             f"  {'changes':>7}  {'size':>4}  {'worst' if not meta else 'field':>7}  "
             f"{'outside':>7}  {'matchups':>11}  {'Nash min':>8}  {'ε-eq min':>8}"]
    for s in [result.baseline, *result.front]:
        lines.append(_front_row(s, names) + ("   (unpatched)" if not s.moves else ""))
    lines += ["", _meta_heading(problem), *_meta_table(result, names)]
    best = result.best
    if best is None:
        lines.append("\nNo candidate was verified.")
        return "\n".join(lines)
    lines += ["", _best_line(best, problem)]
    unpatched = {code: card.to_dict() for code, card in problem.field.cards.items()}
    lines += [f"  {row['text']} ({row['card']})"
              for row in patch_diff(unpatched, best.patch(), SOURCE_LANGUAGE, words)]
    lines += ["", "Matchups (verified):"]
    for row in best.matchup_rows(names):
        lines.append(f"  {row['a']:>14} vs {row['b']:<14} {row['rate'] * 100:5.1f} %  "
                     f"[{row['low'] * 100:4.1f}, {row['high'] * 100:4.1f}]")
    if out:
        lines += ["", f"Wrote {out}. Replay a verified matchup with:"]
        a, b = field_matchups(len(names))[0]
        seed = matchup_seed(problem.seed, a, b, fresh=1)
        for agent, games in ((problem.field.agent, problem.verify_games),
                             *((s, problem.strong_verify_games) for s in problem.strong_agents)):
            lines.append(f"  python manage.py simulate --deck-a \"{names[a]}\" --deck-b "
                         f"\"{names[b]}\" --agent-a {agent} --agent-b {agent} --games {games} "
                         f"--seed {seed} --patch {out}")
        lines.append("  (each matchup's seed is in the JSON report under \"replay\")")
    return "\n".join(lines)


def _front_row(s: Scored, names: Sequence[str]) -> str:
    report = s.meta_dict(names)
    low, high = report["matchup_range"] if report else (0.5, 0.5)
    nash = min(report["nash"]["shares"]) if report else 0.0
    relaxed = min(report["relaxed"]["shares"]) if report else 0.0
    return (f"  {s.changes:>7}  {sum(m.size for m in s.moves):>4}  {_pct(s.worst):>7}  "
            f"{s.outside:>7}  {low * 100:4.1f}–{high * 100:4.1f} %  {nash * 100:6.1f} %  "
            f"{relaxed * 100:6.1f} %")


def _meta_heading(problem: Problem) -> str:
    return (f"The meta of each verified patch: each deck's win rate against the field (95 % "
            f"interval on seat-swapped pairs), its share of the Nash equilibrium and of the "
            f"maximum-entropy ε-equilibrium (ε {problem.goal.epsilon:g}); entropy ÷ log "
            f"{len(problem.field.decks)} (1: every deck equally):")


def _meta_table(result: SearchResult, names: Sequence[str]) -> list[str]:
    width = max(len(n) for n in names)
    lines = []
    for played in [result.baseline, *result.front]:
        for agent, s in ((None, played), *played.under):
            report = s.meta_dict(names)
            if report is None:
                continue
            title = "unpatched" if not s.moves else \
                f"{s.changes} change{'s' if s.changes != 1 else ''} ({_moves(s)})"
            if agent is not None:
                title += f", under {agent}"
            lines += _meta_rows(title, report, names, width)
    return lines


def _meta_rows(title: str, report: dict[str, Any], names: Sequence[str], width: int
               ) -> list[str]:
    low, high = report["matchup_range"]
    lines = [f"  {title}: matchups {low * 100:.1f}–{high * 100:.1f} %; entropy Nash "
             f"{report['nash']['entropy_ratio']:.2f}, ε-equilibrium "
             f"{report['relaxed']['entropy_ratio']:.2f}"]
    for d, name in enumerate(names):
        rate = report["field_rates"][d]
        lines.append(f"    {name:>{width}}  {rate['rate'] * 100:5.1f} % "
                     f"({rate['low'] * 100:4.1f}–{rate['high'] * 100:4.1f})  Nash "
                     f"{report['nash']['shares'][d] * 100:5.1f} %  ε-eq "
                     f"{report['relaxed']['shares'][d] * 100:5.1f} %")
    return lines


def _moves(s: Scored) -> str:
    return ", ".join(f"{m.card}.{m.field} = {m.value}" for m in s.moves)


def _best_line(best: Scored, problem: Problem) -> str:
    agents = f" under {', '.join((problem.field.agent, *problem.strong_agents))}" \
        if problem.strong_agents else ""
    if not problem.goal.is_meta or best.meta is None:
        return (f"Best verified patch: {best.changes} changes, worst matchup "
                f"{_pct(best.worst)} from 50 %, {best.outside} outside the band.")
    if best.holds:
        trust = "it meets every target with room for a fresh check's noise"
    elif best.meets_all(problem.goal):
        trust = "it meets every target, but a fresh check's noise could take it out"
    else:
        trust = "it misses a target"
    return (f"Best verified patch{agents}: {best.changes} changes, worst deck {_pct(best.worst)} "
            f"from 50 % against the field, {best.outside} outside their bands, smallest "
            f"ε-equilibrium share {best.meta.min_share * 100:.1f} % (on {best.games:,} games "
            f"a matchup: {trust}).")
