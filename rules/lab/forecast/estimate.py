"""How many games a forecast will play in all, estimated from the rounds played so far — so its
progress and time left read true while it runs, not against its budget cap (a cap it rarely
reaches).

- **Before round 1** the rounds cost what the problem's sizes say: every archetype's tuning at
  its racing depth (``rules.lab.deck_tuning.search.round_cost``) and its fresh games, and the
  round's matchups.
- **After a round** the next rounds cost what the last one did (later rounds re-read the games
  of the lists that did not change, so the last round is a better guide than the mean), and as
  many rounds are left as the share ``f`` of archetypes that changed suggests: a share that
  keeps shrinking by ``f`` each round leaves about ``f / (1 − f)`` rounds of changes, then one
  in which nobody changes; never more than the rounds or the budget left.
- **After a round in which nobody changed** (or a check that changed somebody), the check:
  one more tuning of every archetype against the settled mix, as the exploitability's (the
  estimate expects it to change nobody: then it is the exploitability, and only the settled
  field follows).
- **Then** the settled field's matchups on fresh seeds (each further agent too) and one more
  tuning of every archetype (its exploitability), unless the last check was it.

The estimate is never below the games already played; at the end it is exact.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from rules.lab.deck_tuning import BLOCK, TuningProblem
from rules.lab.deck_tuning.search import affordable_top, round_cost
from rules.lab.forecast.problem import ForecastProblem

PROPOSALS = TuningProblem.proposals      # the candidates a tuning races each round


def _blocks(games: int) -> int:
    return max(1, -(-games // BLOCK))


def tuning_games(problem: ForecastProblem, *, opponents: int, swaps: int) -> int:
    """The most games one tuning plays against ``opponents`` lists: its racing rounds at the
    depth its budget affords, and the unchanged list with two suggestions on fresh seeds."""
    top = affordable_top(opponents, PROPOSALS, swaps, problem.tune_games)
    search = round_cost(opponents, PROPOSALS, top) * swaps
    return search + 3 * opponents * _blocks(problem.verify_games) * BLOCK


def round_games(problem: ForecastProblem) -> int:
    """One round before any is played: every archetype's tuning and the field's matchups."""
    n = len(problem.archetypes)
    tuning = tuning_games(problem, opponents=n - 1, swaps=problem.swaps_per_round)
    return n * tuning + n * (n - 1) // 2 * _blocks(problem.round_games) * BLOCK


def exploit_games(problem: ForecastProblem, *, exploit_each: int | None = None) -> int:
    """One more tuning of each archetype against the settled lists (its own included): the
    exploitability, and a check's cost."""
    n = len(problem.archetypes)
    return n * (exploit_each if exploit_each is not None else tuning_games(
        problem, opponents=n, swaps=problem.exploit_swaps))


def after_rounds(problem: ForecastProblem, *, exploit_each: int | None = None,
                 exploit: bool = True) -> int:
    """The games after the rounds: the settled field on fresh seeds, under every agent, and
    (``exploit``) the exploitability."""
    n = len(problem.archetypes)
    final = n * (n - 1) // 2 * _blocks(problem.final_games) * BLOCK
    return final * (1 + len(problem.further_agents)) + (
        exploit_games(problem, exploit_each=exploit_each) if exploit else 0)


def rounds_left(problem: ForecastProblem, *, played: int, changed: Sequence[bool]) -> int:
    """Rounds still to play after ``played`` rounds, the last of which changed ``changed``."""
    left = problem.max_rounds - played
    if left <= 0 or (played and not any(changed)):
        return 0
    if not played:
        return left
    share = sum(changed) / len(changed)
    if share >= 1:
        return left
    return min(left, math.ceil(share / (1 - share)) + 1)


def expected_games(problem: ForecastProblem, *, games: int, rounds_played: int,
                   last_round: int, changed: Sequence[bool], spent_rounds: int,
                   exploit_each: int | None = None, after_started: bool = False,
                   check_due: bool = False, exploit_done: bool = False) -> int:
    """The games the whole forecast will have played: ``games`` so far, ``spent_rounds`` of
    them when the last round ended (patch day: round 0), ``last_round`` that round's cost,
    ``changed`` which archetypes it changed; ``check_due`` when a check comes next,
    ``exploit_done`` when a check that changed nobody was the exploitability; once the
    settled field is under way (``after_started``, ``spent_rounds`` then every round's games)
    only what follows."""
    if after_started:
        return max(games, spent_rounds + after_rounds(problem, exploit_each=exploit_each,
                                                      exploit=not exploit_done))
    if check_due:
        check = exploit_games(problem, exploit_each=exploit_each)
        return max(games, spent_rounds + check + after_rounds(problem, exploit=False))
    per_round = last_round if rounds_played else round_games(problem)
    left = rounds_left(problem, played=rounds_played, changed=changed)
    rounds = min(left * per_round, max(0, problem.budget_games - spent_rounds))
    return max(games, spent_rounds + rounds + after_rounds(problem))
