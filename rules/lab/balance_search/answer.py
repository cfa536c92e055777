"""The lists' first answer to a patch, priced before the adapted search forecasts it.

A search on adapted lists balances the lists of the moment; players then re-tune against the
patch, and their first swaps can undo it — a nerfed card dropped, a buffed one taken up by three
archetypes. The full forecast says so one patch later, at millions of games. So where
``AdaptedProblem.answer_check`` is k > 1, the adapted search prices the search's k best patches
(its pick, its verified front, then what it raced) against **one round** of that answer before
it forecasts one: on each forecast path of the last patch, each list re-tunes once against the
others under the patch (the forecast's round: ``swaps_per_round`` swaps raced, a swap adopted
only when its gain holds on fresh seeds) and the answered lists play every matchup on fresh
seeds (``final_games`` each); a candidate is judged by its worse path's answer, and the patch
whose answered meta misses fewest targets (then by least; the field, matchup and share
targets — one more tuning's exploitability is left to the full forecast) is the one forecast,
ties to the search's order. Every candidate is answered on the same seeds, so two patches
differ by their cards, not their dice.

It costs one forecast round a candidate and a path (about 0.2 million greedy games on the six
starters). What it cannot see: the rounds after the first, where a field can drift further —
and on the starter field those decide: candidates one round priced alike (5–6 misses) settled
3 to 9 apart (``docs/balance-search.md``, "Both paths' answers").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rules.lab.balance_search.adapted_result import Answer, Judgement
from rules.lab.balance_search.result import SearchResult
from rules.lab.balance_search.space import Candidate, candidate_cards
from rules.lab.deck_tuning.problem import DeckKey, deck_list
from rules.lab.forecast import ForecastProblem, ForecastResult


def answer_candidates(searched: SearchResult, tried: Sequence[Candidate], count: int
                      ) -> list[Candidate]:
    """The search's ``count`` best patches in its own order, none empty and none already
    judged: its pick, the rest of its verified front, then the patches it raced, best first
    (a front re-verified on fresh seeds holds few patches: under ``--max-edits 1``, the
    patch it started from and its pick)."""
    ordered = ([searched.best] if searched.best is not None else []) + \
        sorted(searched.front, key=lambda s: s.rank) + list(searched.searched)
    out: list[Candidate] = []
    for scored in ordered:
        if scored.moves and scored.moves not in tried and scored.moves not in out:
            out.append(scored.moves)
    return out[:count]


def answer_problem(base: ForecastProblem, lists: Sequence[DeckKey], names: Sequence[str],
                   moves: Candidate, seed: int) -> ForecastProblem:
    """One round of re-tuning from ``lists`` under the patch ``moves``, then the answered
    lists' matchups on fresh seeds; no exploitability, no further agents."""
    return replace(base, cards=candidate_cards(base.cards, moves), seed=seed, max_rounds=1,
                   exploitability=False, further_agents=(),
                   archetypes=tuple(deck_list(k, n) for k, n in zip(lists, names, strict=True)))


def answered(moves: Candidate, paths: Sequence[tuple[int, ForecastResult, Judgement]]
             ) -> Answer:
    """A candidate's answer on each path's lists (its seed, the one-round forecast, its
    verdict), judged by the worse: a patch one basin answers well and another undoes is
    undone for players who take that path."""
    worst = max(paths, key=lambda p: (len(p[2].failures), p[2].excess))
    adopted = sum(1 for _, result, _ in paths for t in result.rounds[-1].tunings
                  if t is not None and t.adopted)
    games = sum(result.games["total"] for _, result, _ in paths)
    each = tuple((seed, len(j.failures)) for seed, _, j in paths) if len(paths) > 1 else ()
    return Answer(moves, worst[2], games, adopted, each)


def best_answer(answers: Sequence[Answer]) -> Answer:
    """The fewest misses after the answer, then the least excess; ties to the search's order."""
    return min(answers, key=lambda a: a.rank)
