"""The balance search's meta objective: every deck's field win rate in a band, every matchup in a
loose band, and a field that adapts (the maximum-entropy ε-equilibrium) still playing every
deck — on a rock-paper-scissors toy whose answers are known, and on real games."""

from __future__ import annotations

import math
import re
from itertools import combinations

import numpy as np
import pytest

from rules.decks.cardset import CORE_SET, load_card_set
from rules.lab.balance_search import (
    Field,
    LocalEvaluator,
    Move,
    Problem,
    SearchSpace,
    Tally,
    balance_search,
    space_moves,
)
from rules.lab.balance_search.evaluate import matchup_seed
from rules.lab.balance_search.model import Model
from rules.lab.balance_search.objective import (
    BANDS_CONTRADICT,
    FEW_DECKS_META,
    Goal,
    GoalError,
    meta_figures,
)
from rules.lab.balance_search.result import Scored, SearchResult, meta_of, pareto, scored_of
from rules.lab.balance_search.verify import prediction_half_width, verify_reserve
from rules.lab.meta import Field as MetaField
from rules.lab.meta import (
    MatchupGames,
    meta_report,
    payoff_matrix,
    relaxed_equilibrium,
)

CORE = load_card_set(CORE_SET)
THREE = tuple(CORE.deck(n) for n in ("Ember Rush", "Tidewall", "Gravecallers"))
FIELD = Field(cards=CORE.cards, decks=THREE, agent="greedy")
NAMES = [d.name for d in THREE]
META = Goal("meta")


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


class RockPaperScissors:
    """Synthetic blocks (50 games, no noise) of a rock-paper-scissors field — Ember Rush beats
    Tidewall, Tidewall beats Gravecallers, Gravecallers beats Ember Rush, each 65 % — with
    Ember Rush tilted 0.3 log-odds stronger in both its matchups (its field win rate 57 %).
    Heroes' HP moves: Ember Rush's hero −2 takes the tilt back (a fair meta: every deck at
    50 % against the field, matchups still 35–65 %); +2 flattens Ember Rush's two matchups
    and Tidewall's hero +2 flattens Tidewall against Gravecallers (every matchup at 50 %, two
    changes). A step of 1 does half of a step of 2; Gravecallers' hero changes nothing."""

    BASE = {(0, 1): 0.9, (0, 2): -0.3, (1, 2): 0.6}
    EFFECTS = {("H01", -2): {(0, 1): -0.3, (0, 2): -0.3},
               ("H01", 2): {(0, 1): -0.9, (0, 2): 0.3},
               ("H04", 2): {(1, 2): -0.6},
               ("H04", -2): {(1, 2): 0.6}}

    def __init__(self):
        self.tasks = []

    def truth(self, moves, a, b) -> float:
        x = self.BASE[(a, b)]
        for m in moves:
            far = self.EFFECTS.get((m.card, 2 if m.step > 0 else -2), {})
            x += far.get((a, b), 0.0) * abs(m.step) / 2
        return x

    def evaluate(self, tasks):
        self.tasks.extend(tasks)
        out = []
        for t in tasks:
            wins = round(sigmoid(self.truth(t.moves, t.a, t.b)) * 50)
            out.append([Tally(wins=wins, losses=50 - wins)] * t.blocks)
        return out


def hp_move(card: str, step: int) -> Move:
    printed = CORE.cards[card].hp
    return Move(card, "hp", printed + step, abs(step), step)


def toy_problem(**extra) -> Problem:
    space = SearchSpace.for_decks(THREE, CORE.cards, only=["H01", "H04", "H05"],
                                  fields=("hp",))
    options = {"verify_games": 100, **extra}
    return Problem(field=FIELD, space=space, max_changes=3, seed=2, budget_games=200_000,
                   rungs=(1, 2), base_blocks=2, proposals=4, screen_cards=0,
                   meta_resamples=20, **options)


def test_on_a_rock_paper_scissors_field_the_objectives_pick_different_patches():
    """The band objective flattens every matchup (two changes); the meta objective takes the
    one change that leaves a fair rock-paper-scissors: every deck at 50 % against the field,
    polarised matchups, every deck a third of both equilibria."""
    band = balance_search(toy_problem(), RockPaperScissors())
    meta = balance_search(toy_problem(objective="meta"), RockPaperScissors())
    assert band.best.moves == (hp_move("H01", 2), hp_move("H04", 2))
    assert band.best.worst == 0 and band.best.outside == 0
    assert meta.best.moves == (hp_move("H01", -2),)
    assert meta.best.meta.field_rates == pytest.approx([0.5, 0.5, 0.5])
    assert meta.best.meta.matchup_low < 0.4 and meta.best.meta.matchup_high > 0.6
    assert meta.best.meta.relaxed == pytest.approx([1 / 3] * 3, abs=1e-6)
    assert meta.baseline.meta.field_worst == pytest.approx(0.07, abs=0.005)   # Ember Rush 57 %


def test_a_meta_search_repeats_itself_for_the_same_seed():
    first = balance_search(toy_problem(objective="meta"), RockPaperScissors())
    again = balance_search(toy_problem(objective="meta"), RockPaperScissors())
    assert again.to_dict(NAMES) == first.to_dict(NAMES)


def test_the_report_carries_the_objective_and_every_verified_patchs_meta():
    result = balance_search(toy_problem(objective="meta"), RockPaperScissors())
    data = result.to_dict(NAMES)
    assert data["objective"] == {"objective": "meta", "field_band": [0.47, 0.53],
                                 "matchup_band": [0.3, 0.7], "epsilon": 0.005,
                                 "min_share": 0.05}
    for verified in [data["baseline"], *data["front"]]:
        report = verified["meta_report"]
        assert report["decks"] == NAMES
        assert len(report["field_rates"]) == 3 and {"rate", "low", "high"} <= set(
            report["field_rates"][0])
        for kind in ("nash", "relaxed"):
            assert sum(report[kind]["shares"]) == pytest.approx(1, abs=1e-5)
            assert 0 <= report[kind]["entropy_ratio"] <= 1
        low, high = report["matchup_range"]
        rates = [r for m in verified["matchups"] for r in (m["rate"], m["rate_b"])]
        assert (low, high) == pytest.approx((min(rates), max(rates)), abs=1e-4)
        assert set(verified["meta"]) >= {"field_rates", "matchup_range", "nash", "relaxed",
                                         "min_share", "field_worst"}
    assert data["best"]["meets"] is True and data["baseline"]["meets"] is False


def verified_candidates(toy: RockPaperScissors, seed: int) -> set:
    fresh = {matchup_seed(seed, a, b, fresh=1) for a, b in combinations(range(3), 2)}
    return {t.moves for t in toy.tasks if t.seed in fresh}


def fresh_blocks(toy: RockPaperScissors, seed: int, moves) -> int:
    """Blocks a matchup the verification played for ``moves`` (on its fresh seeds)."""
    fresh = {matchup_seed(seed, a, b, fresh=1) for a, b in combinations(range(3), 2)}
    return max((t.first + t.blocks for t in toy.tasks if t.seed in fresh and t.moves == moves),
               default=0)


def test_the_meta_objective_re_verifies_one_patch_at_a_time_until_one_holds():
    """The unpatched field and the first pick are verified on 5,000 games a matchup; the pick
    meets every target, so it is confirmed on 5,000 more and, still meeting every target with
    room for a fresh check, it holds: no further patch is played on fresh seeds (the band
    objective verifies its whole front at once)."""
    toy = RockPaperScissors()
    result = balance_search(toy_problem(objective="meta", verify_games=5000), toy)
    pick = (hp_move("H01", -2),)
    assert verified_candidates(toy, 2) == {(), pick}
    assert fresh_blocks(toy, 2, pick) == 200
    assert [s.moves for s in result.front] == [pick]
    assert result.best.holds and result.best.games == 10_000
    band_toy = RockPaperScissors()
    balance_search(toy_problem(), band_toy)
    assert len(verified_candidates(band_toy, 2)) > 2   # (a matchup's games: its decks' moves)


def test_a_pick_meeting_the_targets_on_too_few_games_to_hold_is_marked_so():
    """On 100 games a matchup (200 once confirmed) a fresh check's noise reaches outside the
    field band, so the pick that meets every target does not hold; with nothing else on the
    front it is still the best verified patch (the fewest changes meeting every target)."""
    toy = RockPaperScissors()
    result = balance_search(toy_problem(objective="meta"), toy)
    pick = (hp_move("H01", -2),)
    assert fresh_blocks(toy, 2, pick) == 4 and [s.moves for s in result.front] == [pick]
    assert result.best.moves == pick and not result.best.holds
    best = result.to_dict(NAMES)["best"]
    assert best["meets"] is True and best["holds"] is False


def test_a_patch_that_holds_beats_fewer_changes_that_only_meet():
    figures = meta_figures(3, {(0, 1): (0.6, 0.4), (0, 2): (0.4, 0.6), (1, 2): (0.6, 0.4)},
                           {(0, 1): 0.6, (0, 2): 0.4, (1, 2): 0.6}, 0.005)
    one, two = (hp_move("H01", 1),), (hp_move("H01", 1), hp_move("H04", 1))
    meets_only = Scored(one, 2000, {}, worst=0.0, outside=0, meta=figures)
    held = Scored(two, 4000, {}, worst=0.0, outside=0, meta=figures, holds=True)
    result = SearchResult(band=(0.45, 0.55), baseline=meets_only, front=[meets_only, held],
                          searched=[], games_searched=0, games_verified=0, evaluations=0,
                          moves_screened=0, goal=META)
    assert result.best is held


def test_a_fresh_checks_interval_adds_the_checks_noise_to_the_verified_uncertainty():
    """Verified on twice the check's games, the check's rate falls within √3 times the
    verified rate's half-width (its own variance plus twice that: half the games)."""
    assert prediction_half_width(0.49, 0.51, 4000, 2000) == pytest.approx(0.01 * math.sqrt(3))
    assert prediction_half_width(0.49, 0.51, 2000, 2000) == pytest.approx(0.01 * math.sqrt(2))


def test_a_clock_keeps_time_to_verify_two_meta_patches_and_stops_before_a_third():
    """With a clock that has run out, the meta objective verifies the unpatched field and its
    first pick only, whatever they show; the clock keeps time for two patches (four for the
    band objective, verified at once)."""
    problem = toy_problem(objective="meta", field_band=(0.49, 0.51))   # the toy cannot meet it
    toy = RockPaperScissors()
    balance_search(problem, toy, should_stop=lambda: True)
    assert len(verified_candidates(toy, 2)) == 2
    assert verify_reserve(problem) == 2 and verify_reserve(toy_problem()) == 4


def test_the_band_objective_reports_the_meta_too():
    data = balance_search(toy_problem(), RockPaperScissors()).to_dict(NAMES)
    assert data["objective"] == {"objective": "band", "band": [0.45, 0.55]}
    assert data["best"]["meta_report"]["decks"] == NAMES
    assert "meta" not in data["best"]           # the band objective's own figures only


def tallies_of(rates: dict, games: int = 400) -> dict:
    """Tallies with the given win rates from the first deck's side (no draws, whole pairs)."""
    out = {}
    for matchup, rate in rates.items():
        wins, n = round(rate * games), games // 2
        both = max(0, wins - n) + min(wins, n) // 4           # pairs won 2-0, then 1-1
        one = wins - 2 * both
        pairs = (n - both - one, one, both)
        out[matchup] = Tally(wins=wins, losses=games - wins, pairs=pairs)
    return out


def test_field_rates_and_equilibria_agree_with_rules_meta():
    """The objective's figures on a search's tallies are ``rules.lab.meta``'s on the same games:
    the field win rate is the mean of a deck's matchups, the shares are the equilibria of the
    score payoff."""
    rates = {(0, 1): 0.7, (0, 2): 0.3, (0, 3): 0.55, (1, 2): 0.62, (1, 3): 0.4, (2, 3): 0.5}
    tallies = tallies_of(rates)
    scored = scored_of((), tallies, (0.45, 0.55), META)
    games = {m: MatchupGames() for m in rates}
    for m, t in tallies.items():
        for k, won in enumerate([2] * t.pairs[2] + [1] * t.pairs[1] + [0] * t.pairs[0]):
            games[m].add(k, won=won, drawn=0, counted=2)
    report = meta_report(MetaField(["a", "b", "c", "d"], games), resamples=0)
    assert scored.meta.field_rates == pytest.approx([r["rate"] for r in report.field_rates])
    assert scored.meta.nash == pytest.approx(report.nash.shares, abs=1e-6)
    assert scored.meta.relaxed == pytest.approx(report.relaxed.shares, abs=1e-6)
    ours = meta_of(tallies, 4, 0.005, resamples=0)
    assert ours.relaxed.shares == pytest.approx(report.relaxed.shares, abs=1e-6)
    assert [r["rate"] for r in ours.field_rates] == pytest.approx(scored.meta.field_rates)
    # Deck 1 wins 44 % against its field, outside 47–53 %; every matchup lies within 30–70 %.
    assert scored.meta.field_rates[1] == pytest.approx((0.3 + 0.62 + 0.4) / 3)
    assert scored.outside == 1 and scored.worst == pytest.approx(0.06)


def test_the_model_predicts_field_rates_and_refines_only_what_could_win():
    """Predicted field rates are the mean of the predicted matchups; the ε-equilibrium's
    smallest share is solved for the candidates that could rank among the best, and the best
    it keeps are those of solving every candidate."""
    matchups = list(combinations(range(4), 2))
    rng = np.random.default_rng(4)
    moves = [Move(f"C{i:03}", "cost", 1, 1, 1) for i in range(12)]
    effects = {m: {x: float(rng.normal(0, 0.3)) for x in matchups if rng.random() < 0.5}
               for m in moves}
    model = Model(matchups, effects, moves, goal=META)
    logits = [0.8, -0.6, 0.2, 0.5, -0.4, 0.1]
    p = model.predict((), logits, (moves[0], moves[3]))
    rates = {x: (sigmoid(v), 1 - sigmoid(v)) for x, v in zip(matchups, p.logits, strict=True)}
    figures = meta_figures(4, rates, {}, 0.005, equilibria=False)
    assert p.worst == pytest.approx(figures.field_worst)
    refined = model.refine(p)
    score = [[None] * 4 for _ in range(4)]
    for (a, b), (ra, rb) in rates.items():
        score[a][b], score[b][a] = ra, rb
    assert refined.min_share == pytest.approx(min(relaxed_equilibrium(payoff_matrix(score))))
    assert refined.excess >= p.excess
    candidates = [model.predict((), logits, (m,)) for m in moves] + \
        [model.predict((), logits, (a, b)) for a, b in combinations(moves, 2)]
    brute = sorted((model.refine(c) for c in candidates), key=lambda c: c.rank)[:5]
    assert [c.moves for c in model._best(candidates, 5)] == [c.moves for c in brute]


def test_the_meta_front_keeps_more_changes_only_when_they_do_better_on_the_objective():
    a, b, c = hp_move("H01", -1), hp_move("H04", 1), hp_move("H05", 1)
    even = {(0, 1): 0.5, (0, 2): 0.5, (1, 2): 0.5}
    tilted = {(0, 1): 0.6, (0, 2): 0.55, (1, 2): 0.5}
    pool = [scored_of(m, tallies_of(r), (0.45, 0.55), META)
            for m, r in [((), tilted), ((a,), tilted), ((a, b), even), ((a, b, c), even)]]
    front = pareto(pool, META)
    assert [s.moves for s in front] == [(a, b), ()]          # (a,) and (a, b, c) gain nothing


def test_the_best_meta_patch_is_the_fewest_changes_that_meet_every_target():
    figures = meta_figures(3, {(0, 1): (0.6, 0.4), (0, 2): (0.4, 0.6), (1, 2): (0.6, 0.4)},
                           {(0, 1): 0.6, (0, 2): 0.4, (1, 2): 0.6}, 0.005)
    lopsided = meta_figures(3, {(0, 1): (0.9, 0.1), (0, 2): (0.5, 0.5), (1, 2): (0.5, 0.5)},
                            {(0, 1): 0.9, (0, 2): 0.5, (1, 2): 0.5}, 0.005)
    one, two = (hp_move("H01", 1),), (hp_move("H01", 1), hp_move("H04", 1))
    fair = Scored(two, 2000, {}, worst=0.0, outside=0, meta=figures)
    unfair = Scored(one, 2000, {}, worst=0.2, outside=3, meta=lopsided)
    result = SearchResult(band=(0.45, 0.55), baseline=unfair, front=[unfair, fair], searched=[],
                          games_searched=0, games_verified=0, evaluations=0, moves_screened=0,
                          goal=META)
    assert result.best is fair


@pytest.mark.parametrize(("goal", "field", "decks"), [
    (Goal("meta", field_band=(0.40, 0.60), matchup_band=(0.45, 0.55)), "field_band", 6),
    (Goal("meta", field_band=(0.53, 0.47)), "field_band", 6),
    (Goal("meta", field_band=(0.51, 0.60)), "field_band", 6),
    (Goal("meta", matchup_band=(0.55, 0.70)), "matchup_band", 6),
    (Goal("meta", epsilon=0.5), "epsilon", 6),
    (Goal("meta", epsilon=-0.1), "epsilon", 6),
    (Goal("meta", min_share=0.3), "min_share", 6),
    (Goal("meta"), "decks", 2),
    (Goal("band", band=(0.5, 0.6)), "band", 2),
    (Goal("rock"), "objective", 6),
])
def test_an_impossible_goal_names_what_to_fix(goal, field, decks):
    with pytest.raises(GoalError) as caught:
        goal.check(decks)
    assert caught.value.field == field
    Goal("meta").check(3)                      # the defaults hold for three decks
    Goal("band").check(2)


def test_the_refusals_say_why():
    with pytest.raises(GoalError, match=re.escape(FEW_DECKS_META.format(count=2))):
        Goal("meta").check(2)
    with pytest.raises(GoalError, match="inside the matchup band"):
        Goal("meta", field_band=(0.40, 0.60), matchup_band=(0.45, 0.55)).check(4)
    assert "matchup band" in BANDS_CONTRADICT


@pytest.fixture(scope="module")
def small_meta_search():
    space = SearchSpace.for_decks(THREE, CORE.cards, fields=("cost", "attack", "hp"))
    problem = Problem(field=FIELD, space=space, max_changes=3, seed=3, budget_games=3_000,
                      verify_games=100, rounds=2, rungs=(1, 2), base_blocks=2, proposals=3,
                      screen_cards=2, objective="meta", field_band=(0.45, 0.55),
                      meta_resamples=20)
    with LocalEvaluator(FIELD, processes=1) as evaluator:
        return balance_search(problem, evaluator)


def test_a_small_meta_search_on_real_games_moves_the_field_rates_toward_the_band(
        small_meta_search):
    """Measured on the same seeds and games, the best candidate's worst deck is nearer 50 %
    against the field than the unpatched field's."""
    unpatched = next(s for s in small_meta_search.searched if not s.moves)
    best = small_meta_search.searched[0]
    assert best.games == unpatched.games == 100
    assert best.moves and best.meta.field_worst < unpatched.meta.field_worst
    assert best.rank < unpatched.rank
    assert small_meta_search.front and small_meta_search.baseline.report is not None


def test_moves_of_the_toy_exist():
    space = SearchSpace.for_decks(THREE, CORE.cards, only=["H01", "H04"], fields=("hp",))
    assert {hp_move("H01", -2), hp_move("H04", 2)} <= set(space_moves(space, CORE.cards))
