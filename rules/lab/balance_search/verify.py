"""Re-verification: the search's picks played again on fresh seeds, and when a pick is trusted.

The band objective plays its front (``VERIFY_FRONT`` patches) and the unpatched field at once.

The meta objective plays the unpatched field and its first pick, then goes one pick after
another while none *holds* and the clock allows. A pick that meets every target on its first
``verify_games`` a matchup is **confirmed** on as many again (the next seeds of the same fresh
stream, so it stands on twice the games) and *holds* when, on all those games, even a fresh
check of ``verify_games`` a matchup would meet every target: each deck's field win rate and each
matchup lie inside their bands by the half-width of a *prediction interval* — the 95 % interval
of the verified rate widened by the noise of a fresh check (``prediction_half_width``) — and the
smallest ε-equilibrium share clears the minimum by ``SHARE_HOLD_MARGIN``. A patch picked among
hundreds on the search's seeds sits at the edge its luck put it at; one that merely meets the
bands on one verification misses on the next fresh seeds about as often as not.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.lab.balance_search.evaluate import BLOCK, matchup_seed
from rules.lab.balance_search.memo import Evaluations
from rules.lab.balance_search.objective import Goal, meets
from rules.lab.balance_search.result import Scored, meta_of, pareto, scored_of
from rules.lab.balance_search.space import Candidate
from rules.lab.intervals import cluster_rate

if TYPE_CHECKING:
    from rules.lab.balance_search.problem import Problem, _State

VERIFY_FRONT = 4                # front members re-verified, best first (band; meta: at most)
META_VERIFY_KEPT = 2            # meta: verifications a clock keeps time for (a pick, confirmed)
CONFIRM_FACTOR = 2              # meta: a pick that meets is confirmed on this many times the games
SHARE_HOLD_MARGIN = 0.02        # meta: a held pick's smallest ε-share clears the minimum by this


def verify_reserve(problem: Problem) -> int:
    """Verifications (the unpatched field apart) a clock keeps time for: the band objective
    verifies ``VERIFY_FRONT`` patches at once; the meta objective its first pick and that
    pick's confirmation (``META_VERIFY_KEPT``), and a further pick only when the clock allows
    (``should_stop``)."""
    return META_VERIFY_KEPT if problem.objective == "meta" else VERIFY_FRONT


def prediction_half_width(low: float, high: float, games: int, check_games: int) -> float:
    """Half-width of the 95 % interval a fresh check on ``check_games`` would fall in, from a
    rate's 95 % interval on ``games``: the verified rate's own uncertainty plus the check's
    noise, which is the verified noise scaled to the check's games."""
    return (high - low) / 2 * math.sqrt(1 + games / max(check_games, 1))


def holds(scored: Scored, goal: Goal, check_games: int) -> bool:
    """Every target met with room for a fresh check of ``check_games`` a matchup (see the
    module's docstring); False without a verified meta report."""
    if scored.meta is None or scored.report is None or not meets(scored.meta, goal,
                                                                 scored.outside):
        return False
    low, high = goal.field_band
    for rate in scored.report.field_rates:
        room = prediction_half_width(rate["low"], rate["high"], rate["games"] or 1,
                                     check_games * len(scored.report.names) - check_games)
        share = rate["rate"]        # None only for a deck with no games, which meets no target
        if share is None or not low + room <= share <= high - room:
            return False
    mlow, mhigh = goal.matchup_band
    lowest, highest = max(mlow, 1 - mhigh), min(mhigh, 1 - mlow)   # both sides in the band
    for tally in scored.tallies.values():
        interval = cluster_rate(tally.moments())
        room = prediction_half_width(interval["low"], interval["high"], interval["games"] or 1,
                                     check_games)
        share = interval["rate"]
        if share is None or not lowest + room <= share <= highest - room:
            return False
    return scored.meta.min_share >= goal.min_share + SHARE_HOLD_MARGIN


def verify(state: _State) -> tuple[dict[Candidate, Scored], int]:
    """The front (and the unpatched field) again on fresh seeds, ``verify_games`` a matchup.
    Meta: the unpatched field and the first pick, then each next pick only while none verified
    holds and the clock allows; a pick that meets is confirmed on ``CONFIRM_FACTOR`` times the
    games. Progress events carry ``verified_games``."""
    problem = state.problem
    goal = problem.goal
    blocks = max(1, -(-problem.verify_games // BLOCK))
    fresh = Evaluations(state.memo.evaluator, problem.field.decks,
                        lambda a, b: matchup_seed(problem.seed, a, b, fresh=1))
    chosen = [()] + [s.moves for s in to_verify(state)]
    out: dict[Candidate, Scored] = {}

    def play(batch: list[Candidate], depth: int) -> None:
        state.report("verifying", candidates=len(batch), games_each=depth * BLOCK,
                     verified_games=fresh.games)
        fresh.ensure(batch, depth)
        for moves in batch:
            tallies = fresh.tallies(moves, depth)
            report = meta_of(tallies, len(problem.field.decks), goal.epsilon,
                             problem.meta_resamples)
            out[moves] = replace(scored_of(moves, tallies, problem.band, goal), report=report)

    if not goal.is_meta:
        play(chosen, blocks)
    else:
        play(chosen[:2], blocks)
        for index, moves in enumerate(chosen[1:]):
            if index and state.out_of_time():
                break
            if moves not in out:
                play([moves], blocks)
            s = out[moves]
            if s.meta is not None and meets(s.meta, goal, s.outside):
                play([moves], blocks * CONFIRM_FACTOR)
                if holds(out[moves], goal, problem.verify_games):
                    out[moves] = replace(out[moves], holds=True)
                    break
    state.report("done", verified=[out[m].summary() for m in out],
                 verified_games=fresh.games)
    return out, fresh.games


def to_verify(state: _State) -> list[Scored]:
    """The front members played again on fresh seeds: the best ``VERIFY_FRONT`` by the worst
    matchup (band); under the meta objective those that meet the aims, fewest changes first,
    then the rest by the objective — a patch with fewer changes is worth verifying once
    another meets the aims, and the best by the objective backs it up."""
    problem = state.problem
    pool = state.combined or state.raced    # checked under further agents: what all played
    front = [s for s in pareto(list(pool.values()), problem.goal) if s.moves]
    if problem.objective != "meta":
        return front[:VERIFY_FRONT]
    aimed = sorted((s for s in front if s.rank[0] == 0), key=lambda s: (s.changes, s.rank))
    picks = aimed[:VERIFY_FRONT - 1] + [s for s in front if s not in aimed[:VERIFY_FRONT - 1]]
    return picks[:VERIFY_FRONT]


__all__ = ["holds", "prediction_half_width", "to_verify", "verify", "verify_reserve"]
