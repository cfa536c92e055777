"""``balance_search --objective adapted``: its options, the problem they describe, and the
printed report — for each patch considered, its printed-list figures beside its adapted ones.

The search itself is ``rules.lab.balance_search.adapted`` (pure Python).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from balance.cli import OptionError
from balance.search.adapted import (
    DEFAULT_ANSWER_CHECK,
    DEFAULT_FORECAST_BUDGET,
    DEFAULT_FORECAST_ROUNDS,
    DEFAULT_FORECAST_SEEDS,
    DEFAULT_LIST_CHANGES,
    MAX_ANSWER_CHECK,
    adapted_options,
)
from rules.engine.cards import CardDef
from rules.lab.balance_search import Field, Problem
from rules.lab.balance_search.adapted import MAX_FORECAST_SEEDS, AdaptedProblem
from rules.lab.balance_search.adapted_result import AdaptedResult
from rules.lab.balance_search.space import candidate_patch
from rules.lab.forecast import ForecastError, ForecastProblem
from rules.lab.patches import Patch, patch_diff
from rules.localized import SOURCE_LANGUAGE

if TYPE_CHECKING:
    from django.core.management.base import CommandParser

SEARCH_BUDGET = 400_000   # games each search may play without --budget-games (``BUDGET_CAP``)
BAD_EXPLOIT = "--exploit-limit: give a percentage from 50 to 100 (got {value})."
BAD_ITERATIONS = "--adapt-rounds: give a whole number from 1 to 6 (got {value})."
BAD_SEEDS = f"--forecast-seeds: give a whole number from 1 to {MAX_FORECAST_SEEDS} (got {{value}})."
BAD_ANSWER_CHECK = (f"--answer-check: give 0 (none) or a whole number up to {MAX_ANSWER_CHECK} "
                    "(got {value}).")
CLI_OPTIONS = {"list_changes": "list_changes", "adapt_rounds": "iterations",
               "forecast_budget_games": "forecast_budget_games", "tune_games": "tune_games",
               "round_games": "round_games", "final_games": "final_games",
               "forecast_rounds": "max_rounds", "forecast_seeds": "forecast_seeds",
               "answer_check": "answer_check"}


def add_adapted_arguments(parser: CommandParser) -> None:
    group = parser.add_argument_group("the adapted objective")
    group.add_argument("--adapt-rounds", type=int, default=None,
                       help="patches searched at most, each judged on the lists players adapt "
                            "to it (default 3)")
    group.add_argument("--list-changes", type=int, default=None,
                       help="cards an adapted list may differ from its printed list "
                            f"(default {DEFAULT_LIST_CHANGES})")
    group.add_argument("--exploit-limit", type=float, default=None,
                       help="the highest field win rate one more tuning may reach against the "
                            "adapted mix, in %% (default 56)")
    group.add_argument("--forecast-budget-games", type=int, default=None,
                       help=f"each forecast's rounds' games (default {DEFAULT_FORECAST_BUDGET:,})")
    group.add_argument("--forecast-rounds", type=int, default=None,
                       help="each forecast's most rounds of re-tuning "
                            f"(default {DEFAULT_FORECAST_ROUNDS})")
    group.add_argument("--forecast-seeds", type=int, default=None,
                       help="seeds each patch is forecast on (the search's seed and the ones "
                            "after it); a patch meets only if every forecast does "
                            f"(default {DEFAULT_FORECAST_SEEDS})")
    group.add_argument("--answer-check", type=int, default=None, metavar="K",
                       help="price each search's K best patches (its pick, its verified "
                            "front, then what it raced) against one round of the lists' answer "
                            "(on each forecast seed's lists every list re-tunes once under the "
                            "patch; the worse seed's answer counts) and forecast the one whose "
                            "answered meta misses least (default "
                            f"{DEFAULT_ANSWER_CHECK}: the search's own pick)")
    group.add_argument("--tune-games", type=int, default=None,
                       help="one tuning's search games (default 30,000)")
    group.add_argument("--round-games", type=int, default=None,
                       help="games a matchup each round of a forecast (default 400)")
    group.add_argument("--final-games", type=int, default=None,
                       help="games a matchup of the adapted field, fresh seeds (default 1,000)")


def adapted_cli_options(opts: dict[str, Any]) -> dict[str, Any]:
    """The options given, under the names the job stores (``balance.search.adapted``)."""
    out = {name: opts[option] for option, name in CLI_OPTIONS.items()
           if opts.get(option) is not None}
    if opts.get("exploit_limit") is not None:
        out["exploit_limit"] = opts["exploit_limit"] / 100
    return out


def build_adapted(field: Field, search: Problem, opts: dict[str, Any]) -> AdaptedProblem:
    """The adapted search the options describe; OptionError says what to fix."""
    o = adapted_options(adapted_cli_options(opts))
    if not 0.5 <= o["exploit_limit"] <= 1:
        raise OptionError(BAD_EXPLOIT.format(value=opts.get("exploit_limit")))
    if not 1 <= o["iterations"] <= 6:
        raise OptionError(BAD_ITERATIONS.format(value=o["iterations"]))
    if not 1 <= o["forecast_seeds"] <= MAX_FORECAST_SEEDS:
        raise OptionError(BAD_SEEDS.format(value=o["forecast_seeds"]))
    if not 0 <= o["answer_check"] <= MAX_ANSWER_CHECK:
        raise OptionError(BAD_ANSWER_CHECK.format(value=o["answer_check"]))
    sizes = {k: o[k] for k in ("tune_games", "round_games", "final_games") if k in o}
    forecast = ForecastProblem(cards=field.cards, archetypes=field.decks, agent=field.agent,
                               ruleset=field.ruleset, max_changes=o["list_changes"],
                               budget_games=o["forecast_budget_games"],
                               max_rounds=o["max_rounds"], seed=search.seed, **sizes)
    try:
        forecast.check()
    except ForecastError as exc:
        raise OptionError(str(exc)) from None
    budget = opts.get("budget_games") or SEARCH_BUDGET
    return AdaptedProblem(search=replace(search, objective="meta", budget_games=budget),
                          forecast=forecast, only=_only(opts),
                          fields=tuple(search.space.fields), spread=search.space.spread,
                          iterations=o["iterations"], exploit_limit=o["exploit_limit"],
                          forecast_seeds=o["forecast_seeds"], answer_check=o["answer_check"])


def _only(opts: dict[str, Any]) -> tuple[str, ...] | None:
    cards = [c.strip() for c in (opts.get("cards") or "").split(",") if c.strip()]
    return tuple(cards) or None


def adapted_progress_line(event: dict[str, Any]) -> str:
    step = event.get("step", "")
    if event.get("phase") == "judged" and event.get("judged"):
        return judged_line(event["judged"][-1])
    head = f"[patch {event.get('iteration', 0)}: {step}] {event.get('phase', '')}"
    games = (f"{event.get('games', 0):,} of about {event['expected']:,} games"
             if event.get("expected") else
             f"{event.get('games', 0):,}/{event.get('budget', 0):,} games")
    extra = ""
    if event.get("archetype"):
        extra = f" {event['archetype']}"
    if event.get("round") is not None and step == "forecast":
        # The "round" phase itself already names the round: "round 3 played", not "round round 3".
        extra += (f" {event['round']} played" if event.get("phase") == "round"
                  else f" round {event['round']}")
    if step == "answer" and event.get("candidates"):
        extra += f" (patch {event['candidate']} of {event['candidates']}" + (
            f", seed {event['seed']}'s lists, path {event['path']} of {event['paths']})"
            if (event.get("paths") or 1) > 1 else ")")
    if step == "forecast" and (event.get("paths") or 1) > 1:
        extra += f" (seed {event['seed']}, forecast {event['path']} of {event['paths']})"
    return f"{head}{extra} · {games}"


class AdaptedFollower:
    """Progress lines of an adapted search followed by polling (``--via-celery``): a poll may
    miss the short "judged" event, so every patch judged since the last poll gets its line."""

    def __init__(self) -> None:
        self.shown = 0

    def __call__(self, event: dict[str, Any]) -> str:
        judged = event.get("judged") or []
        lines = [judged_line(j) for j in judged[self.shown:]]
        self.shown = max(self.shown, len(judged))
        if event.get("phase") != "judged":
            lines.append(adapted_progress_line(event))
        return "\n".join(lines)


# How a forecast stopped, in a line: settled, or where its lists stood when it was cut off.
STOPPED = {"settled": "settled", "rounds": "stopped at the most rounds allowed",
           "budget": "stopped when its budget was spent"}


def judged_line(judged: dict[str, Any]) -> str:
    """A patch's verdict as soon as its forecasts end: "[patch 1: judged] 2 changes (Volcanic
    Behemoth: attack 6 → 5; …) misses — seed 1: 2 targets missed, settled after 9 rounds; …"."""
    n = judged["iteration"]
    what = ("the unpatched pool" if not judged["changes"] else
            ("the live patch, " if n == 0 else "")
            + f"{len(judged['changes'])} change{'s' if len(judged['changes']) != 1 else ''} ("
            + "; ".join(judged["lines"]) + ")")
    seeds = "; ".join(
        f"seed {p['seed']}: " + ("meets" if p["meets"] else
                                 f"{p['misses']} target{'s' if p['misses'] != 1 else ''} "
                                 "missed")
        + f", {STOPPED.get(p['stopped'], p['stopped'])} after {p['rounds']} "
        f"round{'s' if p['rounds'] != 1 else ''}"
        for p in judged["paths"])
    return (f"[patch {n}: judged] {what} "
            f"{'meets every target' if judged['meets'] else 'misses'} — {seeds}")


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.1f} %"


def _figure(f: dict[str, Any] | None) -> str:
    if not f or f.get("rate") is None:
        return "—"
    return f"{_pct(f['rate'])} [{f['low'] * 100:.1f}, {f['high'] * 100:.1f}]"


def _side_lines(label: str, side: dict[str, Any], names: list[str]) -> list[str]:
    lo, hi = side["matchup_low"], side["matchup_high"]
    ex = side.get("exploitability")
    lines = [f"  {label} ({side['agent']}, {side['games_each']:,} games a matchup):",
             "    matchups " + (f"{_pct(lo['rate'])} ({lo['deck']} v {lo['rival']}) – "
                                f"{_pct(hi['rate'])} ({hi['deck']} v {hi['rival']})"
                                if lo and hi else "—"),
             f"    smallest ε-share {_pct(min(side['relaxed'], default=None))} "
             f"(ε = {side['epsilon']:g})",
             "    exploitability " + (f"{_figure(ex)} ({ex['archetype']}, {ex['games']:,} "
                                      "fresh games)" if ex else "—")]
    return lines


def _answer_paths(paths: list[dict[str, Any]]) -> str:
    """Each forecast path's answer, where the check answered more than one path's lists (a
    one-path answer names no paths: ``answer.answered``)."""
    if not paths:
        return ""
    return (f" (the worse of {len(paths)} paths' answers: "
            + ", ".join(f"seed {p['seed']} {p['misses']} missed" for p in paths) + ")")


def _answer_lines(answers: list[dict[str, Any]], chosen: dict[str, Any],
                  unpatched: Mapping[str, Any], words: Mapping[str, str] | None) -> list[str]:
    """The answer check that chose a patch: each of the search's patches it priced, with its
    misses once every list re-tuned once against it (``--answer-check``)."""
    if not answers:
        return []
    games = sum(a["games"] for a in answers)
    played = (f"; {answers[0]['agent']}, {answers[0]['games_each']:,} fresh games a matchup"
              if "agent" in answers[0] else "")
    lines = [f"  chosen after the lists' first answer, among the search's {len(answers)} best "
             f"patches ({games:,} games; the search's own pick first{played}):"]
    for a in answers:
        patch = Patch.from_dict(a["patch"])
        text = "; ".join(row["text"] for row in patch_diff(unpatched, patch, SOURCE_LANGUAGE,
                                                             words))
        misses = len(a["failures"])
        mark = "  ← forecast" if a["patch"]["changes"] == chosen["changes"] else ""
        lines.append(f"    {a['changes']} change{'s' if a['changes'] != 1 else ''} ({text}): "
                     + ("meets the field, matchup and share targets" if not misses else
                        f"{misses} target{'s' if misses != 1 else ''} missed")
                     + f" after the answer{_answer_paths(a.get('paths') or [])}, "
                     f"{a['adopted']} list{'s' if a['adopted'] != 1 else ''} re-tuned{mark}")
    return lines


def adapted_report_text(result: AdaptedResult, out: str | None, elapsed: float, *,
                        cards: Mapping[str, CardDef],
                        words: Mapping[str, str] | None = None) -> str:
    """The command's report; each patch's changes name their cards ("Volcanic Behemoth: attack
    6 → 5"), ``words`` the races and factions of a changed rules text."""
    data = result.to_dict()
    unpatched = {code: card.to_dict() for code, card in cards.items()}
    names = data["decks"]
    edits = data.get("max_edits")
    step = (f"; each search at most {edits} edit{'s' if edits != 1 else ''} of the patch it "
            "starts from" if edits else "")
    lines = [f"Adapted search: {len(data['considered'])} patches judged on the meta after "
             f"players adapt ({data['games']['total']:,} games: {data['games']['search']:,} "
             "searching, " + (f"{data['games']['answer']:,} pricing the lists' answer, "
                              if data["games"].get("answer") else "")
             + f"{data['games']['forecast']:,} forecasting; {elapsed:.0f} s{step})."]
    for index, (c, considered) in enumerate(zip(data["considered"], result.considered,
                                                strict=True)):
        mark = "  ← chosen" if index == data["chosen"] else ""
        changes = "; ".join(f"{row['text']} ({row['card']})" for row in patch_diff(
            unpatched, candidate_patch(considered.moves, "considered"), SOURCE_LANGUAGE,
            words)) or "unpatched"
        verdict = "meets every target" if c["meets"] else "misses: " + ", ".join(
            _failure(f) for f in c["failures"])
        live = ", the live patch" if c["iteration"] == 0 and c["changes"] else ""
        lines += ["", f"Patch {c['iteration']}{live} ({c['changes']} changes: {changes}){mark}",
                  f"  adapted meta {verdict}; the forecast "
                  f"{STOPPED.get(c['stopped'], c['stopped'])} after "
                  f"{c['rounds']} round(s)" + ("" if c["stopped"] == "settled" else
                                               ", before the lists settled: another seed "
                                               "may adapt elsewhere")]
        lines += _path_lines(c["paths"])
        lines += _answer_lines(c.get("answers") or [], c["patch"], unpatched, words)
        lines.append(f"  {'deck':<16} {'printed lists':>24} {'adapted lists':>24}")
        for i, name in enumerate(names):
            lines.append(f"  {name:<16} {_figure(c['printed']['field'][i]):>24} "
                         f"{_figure(c['adapted']['field'][i]):>24}")
        lines += _side_lines("printed", c["printed"], names)
        lines += _side_lines("adapted", c["adapted"], names)
    for agent, side in data["real_agents"].items():
        lines += ["", f"The chosen patch's adapted lists under {agent} itself "
                      f"(searched with {side['stand_in']}):"]
        lines += [f"  {n:<16} {_figure(f)}" for n, f in zip(names, side["field"], strict=True)]
    if data["next_moves"]:
        lines += ["", "No patch met every target after players adapt. Why it ended there, "
                      "and what would go further:"]
        lines += [f"  - {next_move_text(m)}" for m in data["next_moves"]]
    lines.append("")
    lines.append(f"Patch written to {out}." if out and data["patch"] else
                 "No patch chosen: the unpatched pool's adapted meta misses least."
                 if not data["patch"] else "")
    return "\n".join(lines)


def _seeds(seeds: list[int]) -> str:
    return ("seed " if len(seeds) == 1 else "seeds ") + ", ".join(map(str, seeds))


def next_move_text(move: dict[str, Any]) -> str:
    """One of ``AdaptedResult.next_moves`` as the command says it, naming its options."""
    why, n = move["why"], move.get("patches", 0)
    if why == "fixed_point":
        capped = move.get("max_edits")
        return (f"after {n} patch(es) the search on the adapted lists proposed only patches "
                "already tried: a wider search (--cards, --fields, --spread) or more changes "
                "(--max-changes) may find another"
                + (f", or a longer step from each patch (--max-edits {capped + 1})."
                   if capped else "."))
    if why == "patches":
        return (f"every patch it might try was tried (--adapt-rounds {n}); more patches "
                f"(--adapt-rounds {n + 1}) search again on the lists the last one adapted to.")
    if why == "stopped":
        return (f"it was stopped after {n} patch(es) (--budget-minutes); a longer budget "
                "tries more.")
    if why == "paths":
        return (f"patch {move['iteration']} met every target on {_seeds(move['met'])} and "
                f"missed on {_seeds(move['missed'])}: forecasts on other seeds settle in "
                "other metas, and a patch must hold in each; the next search works on the "
                "lists of every forecast.")
    return (f"patch {move['iteration']}'s worst forecast "
            f"{STOPPED.get(move['stopped'], move['stopped'])} after "
            f"{move['rounds']} rounds, before the lists settled: more rounds "
            "(--forecast-rounds) or games (--forecast-budget-games) let it settle.")


def _path_lines(paths: list[dict[str, Any]]) -> list[str]:
    """Each forecast path of a patch in a line; the patch stands on the worst one."""
    if len(paths) < 2:
        return []
    lines = [f"  judged on the worst of {len(paths)} forecasts (seeds "
             + ", ".join(str(p["seed"]) for p in paths) + "); its figures below are seed "
             + next(str(p["seed"]) for p in paths if p["worst"]) + "'s:"]
    for p in paths:
        field = ", ".join(_pct(f["rate"]) for f in p["field"])
        verdict = "meets" if p["meets"] else f"misses {len(p['failures'])}"
        lines.append(f"    seed {p['seed']}: {verdict}; field {field}; forecast "
                     f"{STOPPED.get(p['stopped'], p['stopped'])} "
                     f"after {p['rounds']} round(s)")
    return lines


def _failure(f: dict[str, Any]) -> str:
    if f["what"] == "field":
        return f"{f['archetype']} needs a {f['verdict']}"
    if f["what"] == "matchup":
        return f"{f['archetype']} v {f['rival']} {_pct(f['rate'])}"
    if f["what"] == "share":
        return f"smallest ε-share {_pct(f['share'])}"
    return f"exploitability {_pct(f['rate'])} ({f['archetype']})"
