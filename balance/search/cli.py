"""``python manage.py balance_search``: options, progress lines, the printed report, and
``--via-celery`` (the search as a job for the workers, followed to its end).

The search itself is ``rules.lab.balance_search`` (pure Python); this module reads the command's
options into a ``Problem``, prints progress to stderr, and prints the re-verified Pareto front,
the best patch's matchups, and the ``simulate`` commands that replay each verified matchup.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from balance.cli import OptionError, follow_job
from balance.search.report import progress_line, report_text
from rules.ai.ratings import LADDER_FILE, agent_costs, load_ladder, seconds_per_game
from rules.lab.balance_search import (
    BLOCK,
    EvalTask,
    Evaluator,
    Field,
    Problem,
    SearchSpace,
    SpaceError,
)
from rules.lab.balance_search.evaluate import matchup_seed
from rules.lab.balance_search.memo import field_matchups
from rules.lab.balance_search.objective import Goal, GoalError
from rules.lab.balance_search.problem import (
    DEFAULT_STRONG_BUDGET,
    DEFAULT_STRONG_SCREEN,
    DEFAULT_STRONG_VERIFY,
)
from rules.lab.balance_search.space import Candidate, default_fields, patch_candidate
from rules.lab.balance_search.strong import check_agents, searching_agent
from rules.lab.balance_search.verify import CONFIRM_FACTOR, verify_reserve
from simulations.cli.input import load_patch_for_cli

if TYPE_CHECKING:
    from django.core.management.base import BaseCommand

    from rules.engine.cards import CardDef


BAD_BAND = "--band: give two percentages LOW-HIGH with LOW < 50 < HIGH, e.g. 45-55 (got {value})."
LIVE_OVER_CAP = ("--live-patch: the live patch makes {changes} changes and --max-changes "
                 "allows {cap}: give --max-changes {changes} or more.")
BAD_RANGE = "{option}: give two percentages LOW-HIGH, e.g. {example} (got {value})."
OPTION_OF = {"objective": "--objective", "band": "--band", "field_band": "--field-band",
             "matchup_band": "--matchup-band", "epsilon": "--epsilon",
             "min_share": "--min-share", "decks": "--decks", "agents": "--agents",
             "strong_budget_games": "--strong-budget-games",
             "strong_verify_games": "--strong-verify-games"}
BAD_MAX_CHANGES = "--max-changes: give a whole number from 1 to 20 (got {value})."
BAD_MAX_EDITS = "--max-edits: give a whole number from 1 to 20 (got {value})."
EDITS_WITHOUT_START = ("--max-edits caps the edits of the patch a search starts from: give "
                       "--live-patch FILE, or --objective adapted (each search starts from "
                       "the patch the lists adapted to).")
BAD_BUDGET = "--budget-minutes: give a positive number of minutes (got {value})."
FEW_DECKS = "--decks: a field needs at least two decks (got {count})."
BAD_VERIFY = "--verify-games: give at least 100 games (got {value})."


def parse_band(text: str) -> tuple[float, float]:
    low, high = parse_range(text, BAD_BAND.format(value=text))
    if not 0 <= low < 0.5 < high <= 1:
        raise OptionError(BAD_BAND.format(value=text))
    return low, high


def parse_range(text: str, message: str) -> tuple[float, float]:
    """Two percentages LOW-HIGH as fractions (whether they make sense is the goal's to say)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*", text or "")
    if not match:
        raise OptionError(message)
    return float(match[1]) / 100, float(match[2]) / 100


def parse_goal(opts: dict[str, Any], decks: int) -> Goal:
    """The objective the options describe, checked for a field of ``decks`` decks."""
    objective = opts.get("objective") or "meta"
    adapted = objective == "adapted"
    band = parse_band(opts.get("band") or "45-55")
    field_band = parse_range(opts.get("field_band") or ("45-55" if adapted else "47-53"),
                             BAD_RANGE.format(option="--field-band", example="47-53",
                                              value=opts.get("field_band")))
    matchup_band = parse_range(opts.get("matchup_band") or ("25-75" if adapted else "30-70"),
                               BAD_RANGE.format(
        option="--matchup-band", example="30-70", value=opts.get("matchup_band")))
    epsilon = opts.get("epsilon")
    min_share = opts.get("min_share")
    goal = Goal(objective, band, field_band, matchup_band,
                0.005 if epsilon is None else float(epsilon),
                0.05 if min_share is None else float(min_share) / 100)
    try:
        goal.check(decks)
    except GoalError as exc:
        raise OptionError(f"{OPTION_OF.get(exc.field, exc.field)}: {exc.message}") from None
    return goal


def parse_agents(opts: dict[str, Any], decks: int) -> tuple[str, ...]:
    """``--agents a,b`` fastest first (``--agent`` alone when not given), checked for a field
    of ``decks`` decks (``strong.check_agents``: an unknown agent, one listed twice, a budget
    the further agents cannot search with — the message gives the least they need)."""
    listed = [a.strip() for a in (opts.get("agents") or "").split(",") if a.strip()]
    if not listed:
        return (opts["agent"],)
    try:
        return check_agents(listed, objective=opts.get("objective") or "meta", decks=decks,
                            strong_budget=opts.get("strong_budget_games")
                            or DEFAULT_STRONG_BUDGET,
                            strong_verify=opts.get("strong_verify_games")
                            or DEFAULT_STRONG_VERIFY)
    except GoalError as exc:
        raise OptionError(f"{OPTION_OF.get(exc.field, exc.field)}: {exc.message}") from None


def build_problem(field: Field, opts: dict[str, Any]) -> Problem:
    """The search the options describe; OptionError or SpaceError says what to fix."""
    if len(field.decks) < 2:
        raise OptionError(FEW_DECKS.format(count=len(field.decks)))
    goal = parse_goal(opts, len(field.decks))
    if not 1 <= opts["max_changes"] <= 20:
        raise OptionError(BAD_MAX_CHANGES.format(value=opts["max_changes"]))
    max_edits = opts.get("max_edits")
    if max_edits is not None:
        if not 1 <= max_edits <= 20:
            raise OptionError(BAD_MAX_EDITS.format(value=max_edits))
        if not opts.get("live_patch") and opts.get("objective") != "adapted":
            raise OptionError(EDITS_WITHOUT_START)
    if opts["verify_games"] < 100:
        raise OptionError(BAD_VERIFY.format(value=opts["verify_games"]))
    minutes = opts.get("budget_minutes")
    if minutes is not None and minutes <= 0:
        raise OptionError(BAD_BUDGET.format(value=minutes))
    fields = [f.strip() for f in (opts.get("fields") or "").split(",") if f.strip()] \
        or list(default_fields(goal.kind))
    only = [c.strip() for c in (opts.get("cards") or "").split(",") if c.strip()] or None
    space = SearchSpace.for_decks(field.decks, field.cards, only=only, fields=fields,
                                  spread=opts.get("spread") or 2)
    return Problem(field=field, space=space, band=goal.band,
                   max_changes=opts["max_changes"], seed=opts["seed"],
                   budget_games=opts.get("budget_games") or 10_000_000,
                   verify_games=opts["verify_games"], objective=goal.kind,
                   field_band=goal.field_band, matchup_band=goal.matchup_band,
                   epsilon=goal.epsilon, min_share=goal.min_share,
                   strong_agents=tuple(opts.get("further_agents") or ()),
                   strong_budget_games=opts.get("strong_budget_games") or DEFAULT_STRONG_BUDGET,
                   strong_verify_games=opts.get("strong_verify_games") or DEFAULT_STRONG_VERIFY,
                   strong_screen_games=DEFAULT_STRONG_SCREEN
                   if opts.get("strong_screen_games") is None else opts["strong_screen_games"],
                   start=live_patch_start(opts.get("live_patch"), field.cards,
                                          opts["max_changes"]),
                   max_edits=max_edits)


def live_patch_start(path: str | None, cards: Mapping[str, CardDef], max_changes: int
                     ) -> Candidate:
    """``--live-patch``: the moves of a patch already live, which the search starts from and
    may extend, change or take back (none without the option); OptionError says what to fix."""
    patch = load_patch_for_cli(path, "--live-patch")
    if patch is None:
        return ()
    try:
        moves = patch_candidate(patch, cards)
    except SpaceError as exc:
        raise OptionError(f"--live-patch: {exc}") from None
    if len(moves) > max_changes:
        raise OptionError(LIVE_OVER_CAP.format(changes=len(moves), cap=max_changes))
    return moves


class Clock:
    """Stops the search in time to re-verify within ``minutes`` (None: no time limit), and a
    re-verification one patch after another before a patch it has no time for. ``games`` and
    ``verified`` are kept up to date by ``progress_line``."""

    def __init__(self, minutes: float | None, problem: Problem):
        self.start = time.monotonic()
        self.limit = None if minutes is None else minutes * 60
        self.verify_games = verify_cost(problem)
        self.strong_factor = strong_factor(problem, searching=True)
        self.games = 0
        self.strong_games = 0
        self.verified = 0

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.start

    def should_stop(self) -> bool:
        if self.limit is None or self.games == 0:
            return False
        played = self.games + self.strong_games * self.strong_factor + self.verified
        rate = played / max(self.elapsed, 1e-6)
        return self.elapsed + max(0, self.verify_games - self.verified) / rate > self.limit


def verify_cost(problem: Problem) -> int:
    """Games the re-verification is kept time for: the unpatched field and
    ``verify_reserve`` patches, ``verify_games`` on every matchup; under further agents, the
    unpatched field and one pick confirmed, counted in the first agent's games
    (``strong_factor``)."""
    matchups = len(field_matchups(len(problem.field.decks)))
    cheap = (1 + verify_reserve(problem)) * matchups * problem.verify_games
    strong = (2 + CONFIRM_FACTOR) * matchups * problem.strong_verify_games \
        * len(problem.strong_agents)
    return cheap + int(strong * strong_factor(problem))


def strong_factor(problem: Problem, *, searching: bool = False) -> float:
    """How many of the first agent's games one of the further agents' games takes, by the AI
    ladder's measured costs (1 when an agent was never timed); ``searching``: the agents that
    play for them while searching (``strong.searching_agent``: the lean planner for the
    planner where the ladder cannot tell them apart)."""
    if not problem.strong_agents:
        return 1.0
    costs = agent_costs(load_ladder(LADDER_FILE)) if LADDER_FILE.exists() else {}
    first = seconds_per_game(costs, problem.field.agent, problem.field.agent)
    players = [searching_agent(a) if searching and problem.stand_ins else a
               for a in problem.strong_agents]
    slowest = max((seconds_per_game(costs, a, a) or 0.0) for a in players)
    return slowest / first if first and slowest else 1.0


BUDGET_CAP = 400_000   # games: more than a search's twelve rounds use on six decks


def calibrated_budget(evaluator: Evaluator, problem: Problem, minutes: float) -> tuple[int, float]:
    """Games the search can play in ``minutes`` on this machine now, leaving time to
    re-verify, and at most ``BUDGET_CAP`` — so a machine fast enough plays exactly the search
    ``--budget-games 400000`` plays (its rounds stop before the budget; a larger one would only
    lengthen the screening). Measured by playing a few blocks of the field's matchups (then
    thrown away) once the worker processes have started — timing their start-up too would count
    it as play and leave a quiet machine idle for much of its minutes."""
    matchups = field_matchups(len(problem.field.decks))
    warm = [EvalTask((), a, b, 10, 0, 1) for a, b in matchups[:2]]
    evaluator.evaluate(warm)
    probe = [EvalTask((), a, b, 11 + i, 1, 4) for i, (a, b) in enumerate(matchups[:6])]
    start = time.monotonic()
    evaluator.evaluate(probe)
    rate = sum(t.games for t in probe) / max(time.monotonic() - start, 1e-6)
    strong = problem.strong_budget_games * len(problem.strong_agents) \
        + (problem.strong_screen_games if problem.strong_agents else 0)
    affordable = int(rate * minutes * 60 * 0.9) - verify_cost(problem) - int(
        strong * strong_factor(problem, searching=True))
    return min(BUDGET_CAP, max(affordable, 20 * BLOCK * len(matchups))), rate


def replay_commands(problem: Problem, names: Sequence[str], out: str) -> list[dict[str, Any]]:
    """The simulate command that replays each verified matchup of the best patch exactly,
    under each agent (the further agents' first ``strong_verify_games`` games)."""
    rows = []
    for agent, games in ((problem.field.agent, problem.verify_games),
                         *((s, problem.strong_verify_games) for s in problem.strong_agents)):
        for a, b in field_matchups(len(names)):
            seed = matchup_seed(problem.seed, a, b, fresh=1)
            rows.append({"a": names[a], "b": names[b], "seed": seed, "agent": agent,
                         "command": f"python manage.py simulate --deck-a \"{names[a]}\" "
                                    f"--deck-b \"{names[b]}\" --agent-a {agent} --agent-b "
                                    f"{agent} --games {games} --seed {seed} --patch {out}"})
    return rows


__all__ = ["Clock", "OptionError", "SpaceError", "build_problem", "parse_band",
           "progress_line", "replay_commands", "report_text"]


def write_patch(path: str, patch: Mapping[str, Any]) -> None:
    """The best verified patch as a patch file (docs/patches.md), whichever way it was found."""
    Path(path).write_text(json.dumps(patch, indent=2, ensure_ascii=False) + "\n",
                          encoding="utf-8")


def run_via_celery(command: BaseCommand, opts: dict[str, Any]) -> None:
    """Submit the search as a job for the workers (the catalogue's starter decks by name) and
    follow its progress (``balance.cli.follow_job``); write the best verified patch to
    ``--out``."""
    from django.core.management.base import CommandError

    from balance.search.adapted_cli import AdaptedFollower, adapted_cli_options
    from balance.search.services import balance_job_request
    from balance.services import BalanceInputError
    from common.deck_refs import starter_spec
    from simulations.sources import starter_decks

    names = opts["decks"] or [d["name"] for d in starter_decks()]
    live = load_patch_for_cli(opts.get("live_patch"), "--live-patch")   # the service checks it
    fields = [f.strip() for f in (opts.get("fields") or "").split(",") if f.strip()]
    cards = [c.strip() for c in (opts.get("cards") or "").split(",") if c.strip()] or None
    try:
        goal = parse_goal(opts, len(names))
        adapted = adapted_cli_options(opts) if goal.kind == "adapted" else None
        job = balance_job_request(
            user=None, deck_specs=[starter_spec(n) for n in names], agent=opts["agent"],
            objective=goal.kind, band=goal.band, field_band=goal.field_band,
            matchup_band=goal.matchup_band, epsilon=goal.epsilon, min_share=goal.min_share,
            max_changes=opts["max_changes"],
            budget_games=opts.get("budget_games") or 300_000,
            verify_games=opts["verify_games"], fields=fields or default_fields(goal.kind),
            allowed_cards=cards, seed=opts["seed"], is_public=True,
            agents=[a.strip() for a in (opts.get("agents") or "").split(",") if a.strip()]
            or None, strong_budget_games=opts.get("strong_budget_games")
            or DEFAULT_STRONG_BUDGET,
            strong_verify_games=opts.get("strong_verify_games") or DEFAULT_STRONG_VERIFY,
            adapted=adapted, live_patch=dict(live.to_dict()) if live else None,
            max_edits=opts.get("max_edits"))
    except OptionError as exc:
        raise CommandError(str(exc)) from None
    except BalanceInputError as exc:
        option = OPTION_OF.get(exc.field, f"--{exc.field.replace('_', '-')}")
        raise CommandError(exc.message if exc.field == "non_field_errors"
                           else f"{option}: {exc.message}") from None
    clock = Clock(None, _problem_stub(len(names), opts["verify_games"]))
    follower = AdaptedFollower()
    finished = follow_job(command, job, opts, what="balance search",
                          line=lambda job, event: follower(event)
                          if adapted is not None else progress_line(clock, event))
    result = (finished.result or {}) if finished is not None else {}
    best = result.get("best")
    patch = result.get("patch") if adapted is not None else best and best["patch"]
    if opts.get("out") and patch:
        write_patch(opts["out"], patch)


def _problem_stub(decks: int, verify_games: int) -> Problem:
    from rules.engine.cards import DeckList

    field = Field(cards={}, decks=tuple(DeckList("x", ()) for _ in range(decks)))
    return Problem(field=field, space=SearchSpace(cards=()), verify_games=verify_games)
