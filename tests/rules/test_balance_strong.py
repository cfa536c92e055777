"""One balance search for two levels of play: the meta targets held under a further, stronger
agent whose games are spent where they decide — on a rock-paper-scissors toy whose stronger
agent sees the field differently, and on the checks of what is asked."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.lab.balance_search import Problem, SearchSpace, Tally, balance_search
from rules.lab.balance_search.evaluate import matchup_seed
from rules.lab.balance_search.memo import field_matchups
from rules.lab.balance_search.objective import GoalError
from rules.lab.balance_search.problem import _State
from rules.lab.balance_search.result import scored_of
from rules.lab.balance_search.strong import (
    AGENT_TWICE,
    AGENTS_NEED_META,
    STRONG_BASE_BLOCKS,
    STRONG_BUDGET_SHORT,
    agents_in_order,
    check_agents,
    least_strong_budget,
    searching_agent,
    stand_in_figure,
    strong_picks,
)
from tests.rules.test_balance_meta import (
    CORE,
    FIELD,
    NAMES,
    THREE,
    RockPaperScissors,
    hp_move,
    sigmoid,
)


class TwoLevels(RockPaperScissors):
    """The toy played by two agents: under the planner Gravecallers beats Tidewall (that
    matchup 0.6 log-odds lower), the moves doing the same. Greedy's fair meta, Ember Rush's
    hero −2, leaves Tidewall weak under the planner; Tidewall's hero −1 as well is fair enough
    under both."""

    OFFSET = {(1, 2): -0.6}

    def truth(self, moves, a, b, agent=""):
        x = super().truth(moves, a, b)
        return x + (self.OFFSET.get((a, b), 0.0) if agent == "planner" else 0.0)

    def evaluate(self, tasks):
        self.tasks.extend(tasks)
        out = []
        for t in tasks:
            wins = round(sigmoid(self.truth(t.moves, t.a, t.b, t.agent)) * 50)
            out.append([Tally(wins=wins, losses=50 - wins)] * t.blocks)
        return out


def problem(**extra) -> Problem:
    space = SearchSpace.for_decks(THREE, CORE.cards, only=["H01", "H04", "H05"],
                                  fields=("hp",))
    options = {"verify_games": 100, "strong_verify_games": 100, "objective": "meta",
               "field_band": (0.45, 0.55), "matchup_band": (0.25, 0.75), "stand_ins": False,
               **extra}
    space = options.pop("space", space)
    return Problem(field=FIELD, space=space, max_changes=3, seed=2, budget_games=200_000,
                   rungs=(1, 2), base_blocks=2, proposals=4, screen_cards=0,
                   meta_resamples=20, **options)


def test_a_patch_for_casual_play_alone_fails_skilled_play_and_one_search_finds_both():
    casual = balance_search(problem(), TwoLevels())
    assert casual.best.moves == (hp_move("H01", -2),)
    toy = TwoLevels()
    both = balance_search(problem(strong_agents=("planner",), strong_budget_games=20_000), toy)
    best = both.best
    assert best.moves == (hp_move("H01", -2), hp_move("H04", -1))
    assert best.meets_all(both.goal)
    [(agent, skilled)] = best.under
    assert agent == "planner" and skilled.meta is not None
    # greedy's patch under the planner: Tidewall outside the field band
    planner_of_casual = [u for s in both.front for a, u in s.under
                         if s.moves == (hp_move("H01", -2),)]
    assert all(not u.meets_all(both.goal) for u in planner_of_casual)
    data = both.to_dict(NAMES)
    assert data["agents"] == ["greedy", "planner"]
    assert data["best"]["meets"] and data["best"]["agents"]["planner"]["meta_report"]
    assert data["strong_games_searched"] == both.strong_games_searched > 0


def test_the_strong_agent_plays_only_its_baseline_races_and_verification():
    toy = TwoLevels()
    result = balance_search(problem(strong_agents=("planner",), strong_budget_games=20_000),
                            toy)
    strong = [t for t in toy.tasks if t.agent == "planner"]
    cheap = [t for t in toy.tasks if t.agent == ""]
    assert sum(t.games for t in strong) == (result.strong_games_searched
                                            + result.strong_games_verified)
    raced = [set(s.moves) for s in result.searched]
    screened = [t for t in strong if t.moves and not any(set(t.moves) <= m for m in raced)]
    # what was not raced is a single move screened on its own decks' matchups only
    holders = {"H01": 0, "H04": 1, "H05": 2}
    assert screened and all(len(t.moves) == 1 and holders[t.moves[0].card] in (t.a, t.b)
                            for t in screened)
    assert result.strong_games_screened >= sum(t.games for t in screened)
    assert cheap and all(t.agent in ("", "planner") for t in toy.tasks)
    searched = [t for t in strong if t.seed in {matchup_seed(2, a, b)
                                                for a, b in field_matchups(3)}]
    assert max(t.first + t.blocks for t in searched if not t.moves) == STRONG_BASE_BLOCKS


class SkillLever(TwoLevels):
    """TwoLevels, and a lever only skilled play feels: Gravecallers' hero −2 gives Tidewall
    back its 0.6 log-odds against Gravecallers under the planner, and does nothing under
    greedy (greedy's games are the same with or without it)."""

    def truth(self, moves, a, b, agent=""):
        x = super().truth(moves, a, b, agent)
        if agent == "planner" and (a, b) == (1, 2):
            x += sum(0.6 * abs(m.step) / 2 for m in moves if m.card == "H05" and m.step < 0)
        return x


def test_a_lever_only_skilled_play_feels_is_found_by_screening_under_the_strong_agent():
    options = {"strong_agents": ("planner",), "strong_budget_games": 20_000}
    only = SearchSpace.for_decks(THREE, CORE.cards, only=["H01", "H05"], fields=("hp",))
    found = balance_search(problem(space=only, **options), SkillLever())
    assert found.best.moves == (hp_move("H01", -2), hp_move("H05", -2))
    assert found.best.meets_all(found.goal) and found.strong_games_screened > 0
    assert found.roles == {"planner": {"screened": "planner", "raced": "planner",
                                       "verified": "planner"}}
    # screened under greedy alone, the lever is worth nothing: the search cannot find it
    blind = balance_search(problem(space=only, strong_screen_games=0, **options), SkillLever())
    assert blind.best is None or hp_move("H05", -2) not in blind.best.moves \
        or not blind.best.meets_all(blind.goal)


def test_the_lean_planner_stands_in_for_the_planner_where_the_ladder_says_they_play_alike():
    alike = {"lean-vs-planner": {"win_rate": {"rate": 0.507, "low": 0.47, "high": 0.544}}}
    apart = {"lean-vs-planner": {"win_rate": {"rate": 0.44, "low": 0.41, "high": 0.47}}}
    assert searching_agent("planner", alike) == "lean"
    assert searching_agent("planner", apart) == "planner"
    assert searching_agent("greedy", alike) == "greedy"
    assert stand_in_figure("planner", alike)["high"] == 0.544


def test_a_search_for_two_levels_repeats_itself():
    first = balance_search(problem(strong_agents=("planner",)), TwoLevels())
    again = balance_search(problem(strong_agents=("planner",)), TwoLevels())
    assert first.to_dict(NAMES) == again.to_dict(NAMES)


def test_the_agents_are_put_fastest_first_and_checked():
    assert agents_in_order(["planner", "greedy"]) == ("greedy", "planner")
    assert check_agents(["planner", "greedy"], objective="meta", decks=6,
                        strong_budget=24_000, strong_verify=600) == ("greedy", "planner")
    cases = [(["greedy", "wizard"], {}, "agents", "unknown agent 'wizard'"),
             (["greedy", "greedy"], {}, "agents", AGENT_TWICE.format(name="greedy")),
             (["greedy", "planner"], {"objective": "band"}, "agents",
              AGENTS_NEED_META.format(objective="band")),
             (["greedy", "planner"], {"strong_budget": 100}, "strong_budget_games",
              STRONG_BUDGET_SHORT.format(agents="planner", least=least_strong_budget(6),
                                         decks=6, budget=100)),
             (["greedy", "planner"], {"strong_verify": 5}, "strong_verify_games", "100")]
    for agents, extra, field, message in cases:
        options = {"objective": "meta", "decks": 6, "strong_budget": 24_000,
                   "strong_verify": 600, **extra}
        with pytest.raises(GoalError) as caught:
            check_agents(agents, **options)
        assert caught.value.field == field and message in caught.value.message


def test_the_least_budget_is_a_baseline_and_one_race_on_every_matchup():
    assert least_strong_budget(6) == (4 + 4) * 50 * 15
    assert least_strong_budget(3, 2) == 2 * (4 + 4) * 50 * 3


def test_when_nothing_beats_the_unpatched_field_the_best_patches_are_verified_anyway():
    """Two patches raced under both agents, each scoring worse than the unpatched field: the
    front holds no patch, and the raced patches are still picked for fresh seeds, the better
    first."""
    p = problem(strong_agents=("planner",))
    state = _State(p, None, [], None, None)   # type: ignore[arg-type]
    toy = TwoLevels()

    def scored(moves, excess_bias):
        tallies = {}
        for a, b in field_matchups(3):
            wins = round(sigmoid(toy.truth(moves, a, b)) * 100)
            tallies[a, b] = Tally(wins=wins, losses=100 - wins)
        s = scored_of(moves, tallies, p.band, p.goal)
        return replace(s, excess=s.excess + excess_bias)

    state.combined = {(): scored((), 0.0),
                      (hp_move("H04", 1),): scored((hp_move("H04", 1),), 1.0),
                      (hp_move("H05", 1),): scored((hp_move("H05", 1),), 2.0)}
    picks = strong_picks(state)
    assert [s.moves for s in picks] == [(hp_move("H04", 1),), (hp_move("H05", 1),)]
