"""The adapted objective (rules.lab.balance_search.adapted): a patch is judged on the meta after
players re-tune their lists, not on the printed lists. A tiny field (three lists of the test
set, small budgets) runs the whole loop — forecast, search on the adapted lists, re-forecast
with the patch — and repeats itself for the same seed; hand-made forecasts show the adapted
verdict deciding where the printed-list verdict says the opposite, and Riot's rule across
agents."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.decks.cardset import TEST_SET, load_card_set
from rules.engine.cards import CardDef, DeckList
from rules.lab.balance_search import Field, Problem, SearchSpace
from rules.lab.balance_search.adapted import AdaptedProblem, adapted_search
from rules.lab.balance_search.adapted_play import AdaptedBase, LocalAdaptedEvaluator
from rules.lab.balance_search.adapted_result import Considered, choose, judge
from rules.lab.balance_search.objective import Goal
from rules.lab.deck_tuning.problem import base_key, changes
from rules.lab.forecast import ForecastProblem
from rules.lab.forecast.result import ForecastResult, Round

TEST = load_card_set(TEST_SET)
DUD = CardDef.from_dict({"code": "T-X01", "kind": "minion", "name_en": "Paper Golem",
                         "name_zh": "纸魔像", "rarity": "N", "cost": 3, "attack": 0,
                         "attribute": "fire"})
CARDS = {**TEST.cards, DUD.code: DUD}
GOAL = Goal("adapted", field_band=(0.45, 0.55), matchup_band=(0.25, 0.75))


def weak_dawn() -> DeckList:
    counts = TEST.deck("Dawn Test").counts()
    del counts["T-M02"]                  # three Thorn Boars out, three Paper Golems in
    counts["T-X01"] = 3
    return DeckList.from_counts("T-H01", counts, "Weak Dawn")


def tiny(seed: int = 3) -> AdaptedProblem:
    decks = (TEST.deck("Dawn Test"), TEST.deck("Dusk Test"), weak_dawn())
    field = Field(cards=CARDS, decks=decks, agent="greedy")
    search = Problem(field=field, space=SearchSpace.for_decks(decks, CARDS), max_changes=2,
                     seed=seed, budget_games=2_000, verify_games=100, rounds=1, rungs=(1, 2),
                     base_blocks=2, proposals=3, screen_cards=2, objective="meta",
                     field_band=GOAL.field_band, matchup_band=GOAL.matchup_band,
                     min_share=0.0, meta_resamples=20)
    forecast = ForecastProblem(cards=CARDS, archetypes=decks, agent="greedy", max_changes=3,
                               swaps_per_round=1, max_rounds=1, tune_games=600,
                               verify_games=100, round_games=100, final_games=100,
                               exploit_swaps=1, seed=5, pool=("T-M02", "T-M04", "T-X01"))
    return AdaptedProblem(search=search, forecast=forecast, fields=("cost", "attack"),
                          iterations=1, exploit_limit=0.9)


def run(problem: AdaptedProblem):
    base = AdaptedBase(CARDS, "greedy")
    with LocalAdaptedEvaluator(base, processes=1) as evaluator:
        return adapted_search(problem, evaluator)


@pytest.fixture(scope="module")
def searched():
    return run(tiny())


@pytest.mark.long
def test_each_patch_carries_its_printed_and_adapted_figures_side_by_side(searched):
    data = searched.to_dict()
    assert data["considered"][0]["changes"] == 0            # the unpatched pool comes first
    printed = [base_key(d) for d in tiny().forecast.archetypes]
    for c, patch in zip(searched.considered, data["considered"], strict=True):
        for key, origin in zip(c.forecast.rounds[-1].lists, printed, strict=True):
            assert key[0] == origin[0] and changes(origin, key) <= 3   # hero kept, capped
        for side, games in (("printed", 100), ("adapted", 100)):
            figures = patch[side]
            assert figures["agent"] == "greedy" and figures["games_each"] == games
            for rate in figures["field"]:
                assert rate["low"] <= rate["rate"] <= rate["high"] and rate["games"] == 2 * games
            assert figures["matchup_low"]["rate"] <= figures["matchup_high"]["rate"]
            assert sum(figures["relaxed"]) == pytest.approx(1, abs=1e-3)
        exploit = patch["adapted"]["exploitability"]
        assert exploit["agent"] == "greedy" and exploit["games"] > 0
        assert exploit["low"] <= exploit["rate"] <= exploit["high"]
        assert patch["meets"] == (not patch["failures"])
    assert data["best"] == data["considered"][data["chosen"]]
    assert data["games"]["total"] == data["games"]["search"] + data["games"]["forecast"] > 0


@pytest.mark.long
def test_the_same_seed_gives_the_same_adapted_search(searched):
    assert run(tiny()).to_dict() == searched.to_dict()


def games(wins: int, total: int = 100) -> str:
    return "a" * wins + "b" * (total - wins)


EVEN = {(0, 1): games(50), (0, 2): games(50), (1, 2): games(50)}
FIRST_STRONG = {(0, 1): games(70), (0, 2): games(70), (1, 2): games(50)}
LISTS = (("H", (("A", 1),)), ("G", (("B", 1),)), ("F", (("C", 1),)))


def forecast_of(printed, adapted, further=None) -> ForecastResult:
    day = Round(0, LISTS, (1 / 3,) * 3, (1 / 3,) * 3, printed, (None,) * 3)
    return ForecastResult(names=("A", "B", "C"), printed=LISTS, rounds=(day,), final=adapted,
                          meta=None, exploits=(), stopped="settled", games={}, agent="greedy",
                          final_games=100, further=further or {}, band=GOAL.field_band)


def considered(moves, printed, adapted) -> Considered:
    result = forecast_of(printed, adapted)
    return Considered(len(moves), moves, result, None, judge(result, GOAL, 0.56, seed=1))


def test_the_adapted_meta_decides_where_the_printed_lists_say_otherwise():
    # Patch one looks healthy on the printed lists, but players re-tune deck A to 70 %;
    # patch two leaves A at 70 % as printed, but the adapted lists are even.
    unpatched = considered((), FIRST_STRONG, FIRST_STRONG)
    looks_good = considered(("x",), EVEN, FIRST_STRONG)
    adapts_well = considered(("y", "z"), FIRST_STRONG, EVEN)
    assert looks_good.judgement.printed["field"][0]["rate"] == 0.5      # printed: fine
    assert adapts_well.judgement.printed["field"][0]["rate"] == 0.7     # printed: a nerf
    assert not looks_good.judgement.meets
    assert looks_good.judgement.failures[0] == {"what": "field", "archetype": "A",
                                                "verdict": "nerf"}
    assert adapts_well.judgement.meets
    # more changes, but the only patch whose adapted meta meets every target
    assert choose([unpatched, looks_good, adapts_well]) is adapts_well


def test_riots_rule_across_agents_on_the_adapted_lists():
    """Over the band under any agent: a nerf; under it under only some: no buff."""
    lean_only = {(0, 1): games(62), (0, 2): games(62), (1, 2): games(50)}
    result = forecast_of(EVEN, EVEN, further={"lean": lean_only})
    judgement = judge(result, GOAL, 0.56, seed=1)
    assert {"what": "field", "archetype": "A", "verdict": "nerf"} in judgement.failures
    # B and C read 44 % under lean, 50 % under greedy: under the band under one agent only
    assert not any(f.get("verdict") == "buff" for f in judgement.failures)
    assert judgement.adapted["agents"]["lean"]["field"][0]["rate"] == 0.62


def test_a_matchup_a_share_and_exploitability_each_miss_on_their_own():
    # rock-paper-scissors at 80 %: every field win rate 50 %, every matchup outside 25–75 %
    lopsided = {(0, 1): games(80), (0, 2): games(20), (1, 2): games(80)}
    judgement = judge(forecast_of(EVEN, lopsided), GOAL, 0.56, seed=1)
    assert [f["what"] for f in judgement.failures] == ["matchup"] * 3
    looser = replace(GOAL, matchup_band=(0.15, 0.85), min_share=0.4)   # a third each < 40 %
    assert [f["what"] for f in judge(forecast_of(EVEN, lopsided), looser, 0.56,
                                      seed=1).failures] == ["share"]



@pytest.mark.long
def test_its_progress_reads_against_what_it_will_play_not_the_cap_of_every_step():
    events: list[dict] = []
    base = AdaptedBase(CARDS, "greedy")
    with LocalAdaptedEvaluator(base, processes=1) as evaluator:
        result = adapted_search(tiny(), evaluator, progress=events.append)
    assert all(e["expected"] >= e["games"] for e in events)
    steps = [(e["step"], e["iteration"]) for e in events]
    assert steps[0] == ("forecast", 0) and ("search", 1) in steps
    # The cap of every step is three forecast budgets and a search's; a tiny field's steps
    # play a small part of it, and the estimate says so from the first forecast on.
    after_first = next(e for e in events if e["step"] == "search")
    assert after_first["expected"] < after_first["budget"] / 4
    if not result.fixed_point:      # every step it planned was played: exact at the end
        played = result.search_games + result.forecast_games
        assert events[-1]["games"] == events[-1]["expected"] == played


def scripted(monkeypatch, proposals):
    """The adapted search's steps scripted: each search proposes the next of ``proposals``,
    each forecast misses (its lists the printed ones); returns the searches' starts and the
    forecasts' patches, as they are asked for."""
    from types import SimpleNamespace

    from rules.lab.balance_search import adapted

    proposed = iter(proposals)
    starts, forecast_moves = [], []

    def search(problem, side, **_):
        starts.append(problem.start)
        return SimpleNamespace(best=SimpleNamespace(moves=next(proposed)), games_searched=10,
                               games_verified=0, strong_games_searched=0,
                               strong_games_verified=0)

    def forecast(problem, pairs, **_):
        forecast_moves.append(pairs.moves)
        missed = forecast_of(FIRST_STRONG, FIRST_STRONG)
        printed = tuple(base_key(d) for d in problem.archetypes)
        return replace(missed, games={"total": 100}, printed=printed,
                       rounds=(replace(missed.rounds[0], lists=printed),))

    monkeypatch.setattr(adapted, "balance_search", search)
    monkeypatch.setattr(adapted, "forecast", forecast)
    return starts, forecast_moves


def test_each_next_patch_is_searched_on_top_of_the_patch_its_lists_adapted_to(monkeypatch):
    """A designer patches the live patch: the search after a patch's forecast starts from
    that patch (its lists were re-tuned against it), and each search's patch is forecast."""
    from rules.lab.balance_search import adapted
    from rules.lab.balance_search.space import Move

    boar, squire = Move("T-M02", "cost", 3), Move("T-M04", "attack", 3)
    starts, forecast_moves = scripted(monkeypatch, [(boar,), (boar, squire), (squire,)])
    result = adapted.adapted_search(replace(tiny(), iterations=3), evaluator=None)
    assert starts == [(), (boar,), (boar, squire)]
    assert forecast_moves == [(), (boar,), (boar, squire), (squire,)]
    assert [c.moves for c in result.considered] == forecast_moves


def test_from_a_live_patch_the_live_patch_is_forecast_first_and_searched_on_top_of(
        monkeypatch):
    """``--live-patch``: the designer's patch already out is the pool players adapted to —
    judged first (patch 0, its changes named), and the first search edits it."""
    from rules.lab.balance_search import adapted
    from rules.lab.balance_search.space import Move

    live, squire = (Move("T-M02", "cost", 3),), Move("T-M04", "attack", 3)
    starts, forecast_moves = scripted(monkeypatch, [(*live, squire)])
    problem = tiny()
    problem = replace(problem, search=replace(problem.search, start=live))
    result = adapted.adapted_search(problem, evaluator=None)
    assert forecast_moves == [live, (*live, squire)] and starts == [live]
    assert result.considered[0].moves == live and result.best_patch is not None
    assert adapted.judged_summary(result.considered[0], CARDS)["changes"] == [
        {"card": "T-M02", "field": "cost", "value": 3}]


def test_a_capped_step_caps_every_search_and_a_capped_fixed_point_names_the_cap(
        monkeypatch):
    """``--max-edits 1``: each search starts from the last patch with the cap; when one
    proposes a patch already tried, the way further it names includes a longer step."""
    from types import SimpleNamespace

    from balance.search.adapted_cli import next_move_text
    from balance.search.adapted_view import adapted_context
    from rules.lab.balance_search import adapted
    from rules.lab.balance_search.space import Move

    boar = Move("T-M02", "cost", 3)
    caps = []
    starts, _ = scripted(monkeypatch, [(boar,), (boar,)])
    search = adapted.balance_search
    monkeypatch.setattr(adapted, "balance_search",
                        lambda problem, side, **kw: caps.append(problem.max_edits)
                        or search(problem, side, **kw))
    problem = tiny()
    problem = replace(problem, iterations=3, search=replace(problem.search, max_edits=1))
    result = adapted.adapted_search(problem, evaluator=None)
    assert starts == [(), (boar,)] and caps == [1, 1] and result.fixed_point
    fixed = result.next_moves()[0]
    assert fixed == {"why": "fixed_point", "patches": 1, "max_edits": 1}
    assert "a longer step from each patch (--max-edits 2)" in next_move_text(fixed)
    job = SimpleNamespace(result={"considered": [], "next_moves": [fixed], "games": {},
                                  "objective": {"exploit_limit": 0.56}},
                          cards={}, deck_renames={})
    page = adapted_context(job)["next_moves"][0]
    assert "under a cap of 1 on its edits of the patch it started from" in page


def test_the_answer_check_forecasts_the_patch_the_lists_answer_least(monkeypatch):
    """``--answer-check 3``: the search's pick would be undone by the lists' first re-tuning;
    of its three best patches (its pick, then what it raced) the one whose meta holds after
    every list re-tunes once is forecast. Each is answered on the same seed, from the lists
    the search balanced, for one round and without exploitability; the games are counted
    apart."""
    from types import SimpleNamespace

    from rules.lab.balance_search import adapted
    from rules.lab.balance_search.space import Move

    boar, squire, both = (Move("T-M02", "cost", 3),), (Move("T-M04", "attack", 3),), \
        (Move("T-M02", "cost", 3), Move("T-M04", "attack", 3))
    answers = []

    def search(problem, side, **_):
        ranked = [SimpleNamespace(moves=m, rank=(k,)) for k, m in enumerate((boar, squire,
                                                                            both, ()))]
        # a front of the start and the pick (--max-edits 1): the rest comes from the raced
        return SimpleNamespace(best=ranked[0], front=[ranked[3], ranked[0]],
                               searched=ranked[:3], games_searched=10, games_verified=0,
                               strong_games_searched=0, strong_games_verified=0)

    def forecast(problem, pairs, **_):
        printed = tuple(base_key(d) for d in problem.archetypes)
        holds = not problem.exploitability and pairs.moves == squire
        if not problem.exploitability:
            answers.append((pairs.moves, problem.seed, problem.max_rounds, printed))
        result = forecast_of(FIRST_STRONG, EVEN if holds else FIRST_STRONG)
        return replace(result, games={"total": 100}, printed=printed,
                       rounds=(replace(result.rounds[0], lists=printed),))

    monkeypatch.setattr(adapted, "balance_search", search)
    monkeypatch.setattr(adapted, "forecast", forecast)
    result = adapted.adapted_search(replace(tiny(), answer_check=3), evaluator=None)
    assert [a[0] for a in answers] == [boar, squire, both]       # the search's order
    assert len({a[1] for a in answers}) == 1 and {a[2] for a in answers} == {1}
    printed = tuple(base_key(d) for d in tiny().forecast.archetypes)
    assert all(a[3] == printed for a in answers)    # the lists the search balanced
    chosen = result.considered[1]
    assert chosen.moves == squire and [a.moves for a in chosen.answers] == [boar, squire, both]
    assert [len(a.judgement.failures) for a in chosen.answers][1] == 0
    assert chosen.answers[1].to_dict()["meets"] and chosen.answers[1].to_dict()["changes"] == 1
    assert (result.answer_games, result.search_games, result.forecast_games) == (300, 10, 200)
    unchecked = adapted.adapted_search(tiny(), evaluator=None)
    assert unchecked.considered[1].moves == boar and not unchecked.considered[1].answers


def test_the_answer_check_answers_every_paths_lists_and_keeps_the_worse(monkeypatch):
    """Forecasts on two seeds settle in two metas; the lists of each answer a patch their own
    way. A patch the worse path's lists answer well but the other path's undo is passed over
    for one both paths' answers hold: each candidate is answered on every path's lists, on
    the same seed, and judged by the worse answer."""
    from types import SimpleNamespace

    from balance.search.adapted_cli import adapted_progress_line
    from rules.lab.balance_search import adapted
    from rules.lab.balance_search.space import Move

    boar, squire, both = (Move("T-M02", "cost", 3),), (Move("T-M04", "attack", 3),), \
        (Move("T-M02", "cost", 3), Move("T-M04", "attack", 3))
    worse = (("T-H01", (("T-M02", 2),)), ("T-H01", (("T-M04", 2),)), ("T-H02", (("T-X01", 2),)))
    other = (worse[0], ("T-H01", (("T-M02", 1), ("T-M04", 1))), ("T-H02", (("T-X01", 1),)))
    holds_on = {boar: (), squire: (worse,), both: (worse, other)}
    answers = []

    def search(problem, side, **_):
        ranked = [SimpleNamespace(moves=m, rank=(k,)) for k, m in enumerate((boar, squire, both))]
        return SimpleNamespace(best=ranked[0], front=[ranked[0]], searched=ranked,
                               games_searched=10, games_verified=0, strong_games_searched=0,
                               strong_games_verified=0)

    def forecast(problem, pairs, progress, **_):
        progress({"games": 50})
        lists = tuple(base_key(d) for d in problem.archetypes)
        if not problem.exploitability:          # an answer: from the lists it was given
            answers.append((pairs.moves, lists, problem.seed))
            result = forecast_of(FIRST_STRONG, EVEN if lists in holds_on[pairs.moves]
                                 else FIRST_STRONG)
        else:                                   # seed 6 the worse path: one deck at 70 %
            result = forecast_of(FIRST_STRONG, EVEN if problem.seed == 5 else FIRST_STRONG)
            lists = other if problem.seed == 5 else worse
        return replace(result, games={"total": 100},
                       rounds=(replace(result.rounds[0], lists=lists),))

    monkeypatch.setattr(adapted, "balance_search", search)
    monkeypatch.setattr(adapted, "forecast", forecast)
    events: list[dict] = []
    result = adapted.adapted_search(replace(tiny(), forecast_seeds=2, answer_check=3),
                                    evaluator=None, progress=events.append)
    assert [(m, lists) for m, lists, _ in answers] == [
        (m, lists) for m in (boar, squire, both) for lists in (other, worse)]
    assert len({seed for *_, seed in answers}) == 1
    patch = result.considered[1]
    assert patch.moves == both                  # squire holds on the worse path's lists only
    squire_answer = patch.answers[1].to_dict()
    assert not squire_answer["meets"] and squire_answer["games"] == 200
    assert [(p["seed"], p["misses"] > 0) for p in squire_answer["paths"]] == [
        (5, True), (6, False)]
    assert result.answer_games == 600
    lines = [adapted_progress_line(e) for e in events if e["step"] == "answer"]
    assert any("(patch 2 of 3, seed 6's lists, path 2 of 2)" in line for line in lines)
    assert all(e["expected"] >= e["games"] for e in events)


@pytest.mark.long
def test_the_answer_check_plays_its_rounds_on_the_tiny_field():
    """With real games: the search's verified patches are each answered by one round of
    re-tuning, their games counted, and the patch forecast is the best answered one."""
    from rules.lab.balance_search.answer import best_answer

    result = run(replace(tiny(), answer_check=3))
    patch = result.considered[1]
    assert len(patch.answers) >= 2 and patch.moves == best_answer(patch.answers).moves
    assert result.answer_games == sum(a.games for a in patch.answers) > 0
    answer = result.to_dict()["considered"][1]["answers"][0]
    assert answer["games"] > 0 and (answer["agent"], answer["games_each"]) == ("greedy", 100)
    assert answer["paths"] == []        # one forecast path: no path of its own to name


def test_the_report_names_each_paths_answer_where_several_paths_answered(searched):
    from balance.search.adapted_cli import adapted_report_text
    from rules.lab.balance_search.adapted_result import Answer

    patch = searched.considered[-1]
    misses = len(patch.judgement.failures)
    answer = Answer(patch.moves, patch.judgement, 400, 1, ((5, misses), (6, 0)))
    answered = replace(patch, answers=(answer,))
    result = replace(searched, considered=(*searched.considered[:-1], answered),
                     chosen=answered if searched.chosen is patch else searched.chosen)
    report = adapted_report_text(result, None, 1.0, cards=CARDS)
    assert (f"after the answer (the worse of 2 paths' answers: seed 5 {misses} missed, seed 6 "
            "0 missed), 1 list re-tuned  ← forecast") in report


def test_a_patch_meets_only_where_every_forecast_seed_does(monkeypatch):
    """Forecasts of one patch on other seeds can settle in other metas: with two seeds, a patch
    is judged by the worse forecast, and the next search works on every forecast's lists."""
    from types import SimpleNamespace

    from rules.lab.balance_search import adapted
    from rules.lab.balance_search.space import Move

    boar = Move("T-M02", "cost", 3)
    searched_lists, searched_names, forecast_seeds = [], [], []
    worse = (("T-H01", (("T-M02", 2),)), ("T-H01", (("T-M04", 2),)), ("T-H02", (("T-X01", 2),)))
    # the first seed's lists: the first archetype's as on the worse path, the others not
    other = (worse[0], ("T-H01", (("T-M04", 1), ("T-M02", 1))), ("T-H02", (("T-X01", 1),)))

    def search(problem, side, **_):
        searched_lists.append(side.decks)
        searched_names.append(tuple(d.name for d in problem.field.decks))
        return SimpleNamespace(best=SimpleNamespace(moves=(boar,)), games_searched=10,
                               games_verified=0, strong_games_searched=0,
                               strong_games_verified=0)

    def forecast(problem, pairs, **_):
        # the first seed settles even; the second, one deck at 70 % — unless patched
        forecast_seeds.append((pairs.moves, problem.seed))
        even = pairs.moves or problem.seed == 5
        result = forecast_of(FIRST_STRONG, EVEN if even else FIRST_STRONG)
        lists = other if problem.seed == 5 else worse
        return replace(result, games={"total": 100},
                       rounds=(replace(result.rounds[0], lists=lists),))

    monkeypatch.setattr(adapted, "balance_search", search)
    monkeypatch.setattr(adapted, "forecast", forecast)
    result = adapted.adapted_search(replace(tiny(), iterations=2, forecast_seeds=2),
                                    evaluator=None)
    assert forecast_seeds == [((), 5), ((), 6), ((boar,), 5), ((boar,), 6)]
    unpatched, patched = result.considered
    assert not unpatched.judgement.meets and unpatched.seed == 6    # seed 5 alone would meet
    # The next search balances the worse path's lists and, beside them, the other path's
    # lists that differ (the first archetype's is the same on both paths: once).
    assert searched_lists == [worse + other[1:]]
    assert searched_names == [("Dawn Test", "Dusk Test", "Weak Dawn",
                               "Dusk Test (seed 5)", "Weak Dawn (seed 5)")]
    assert patched.judgement.meets and result.chosen is patched
    paths = [p.to_dict(worst=p.seed == unpatched.seed) for p in unpatched.paths]
    assert [(p["seed"], p["meets"], p["worst"]) for p in paths] == [
        (5, True, False), (6, False, True)]
    assert paths[1]["field"][0]["rate"] == 0.7


@pytest.mark.long
def test_two_forecast_seeds_play_two_forecasts_and_count_them_in_the_progress():
    events: list[dict] = []
    problem = replace(tiny(), forecast_seeds=2)
    base = AdaptedBase(CARDS, "greedy")
    with LocalAdaptedEvaluator(base, processes=1) as evaluator:
        result = adapted_search(problem, evaluator, progress=events.append)
    for c in result.considered:
        assert [p.seed for p in c.paths] == [5, 6] and c.seed in (5, 6)
        assert c.forecast is next(p.forecast for p in c.paths if p.seed == c.seed)
    forecasts = [e for e in events if e["step"] == "forecast"]
    assert {(e["path"], e["seed"]) for e in forecasts} == {(1, 5), (2, 6)}
    assert all(e["expected"] >= e["games"] for e in events)
    from balance.search.adapted_cli import adapted_progress_line
    played = next(e for e in forecasts if e["phase"] == "round" and e["path"] == 2)
    assert adapted_progress_line(played).startswith(
        f"[patch 0: forecast] round {played['round']} played (seed 6, forecast 2 of 2) · ")
    if not result.fixed_point:
        assert events[-1]["games"] == events[-1]["expected"] == \
            result.search_games + result.forecast_games
    one_seed = run(tiny())
    # the first seed's forecast is the one-seed search's forecast, game for game
    assert result.considered[0].paths[0].forecast.final == one_seed.considered[0].forecast.final


def test_each_patch_says_its_verdict_as_soon_as_its_forecasts_end(monkeypatch):
    """An hour-long search shows each patch's verdict when it is known: a "judged" event after
    each patch's forecasts, naming its changes by card and each seed's verdict, and every
    later event carries the patches judged so far (a page polling it misses none)."""
    from types import SimpleNamespace

    from balance.search.adapted_cli import AdaptedFollower, adapted_progress_line
    from rules.lab.balance_search import adapted
    from rules.lab.balance_search.space import Move

    boar = Move("T-M02", "cost", 3)

    def search(problem, side, progress, **_):
        progress({"phase": "racing", "games": 5})
        return SimpleNamespace(best=SimpleNamespace(moves=(boar,)), games_searched=10,
                               games_verified=0, strong_games_searched=0,
                               strong_games_verified=0)

    def forecast(problem, pairs, **_):      # unpatched: seed 6 ends with one deck at 70 %
        even = pairs.moves or problem.seed == 5
        result = forecast_of(FIRST_STRONG, EVEN if even else FIRST_STRONG)
        printed = tuple(base_key(d) for d in problem.archetypes)
        return replace(result, games={"total": 100}, printed=printed,
                       rounds=(replace(result.rounds[0], lists=printed),))

    monkeypatch.setattr(adapted, "balance_search", search)
    monkeypatch.setattr(adapted, "forecast", forecast)
    events: list[dict] = []
    adapted.adapted_search(replace(tiny(), iterations=2, forecast_seeds=2), evaluator=None,
                           progress=events.append)
    judged = [e for e in events if e["phase"] == "judged"]
    assert [(e["iteration"], len(e["judged"])) for e in judged] == [(0, 1), (1, 2)]
    unpatched, patched = judged[-1]["judged"]
    assert not unpatched["meets"] and unpatched["changes"] == []
    assert [(p["seed"], p["meets"]) for p in unpatched["paths"]] == [(5, True), (6, False)]
    assert patched["meets"] and patched["changes"] == [
        {"card": "T-M02", "field": "cost", "value": 3}]
    assert patched["lines"] == ["Thorn Boar: cost 2 → 3"]
    search_event = next(e for e in events if e["step"] == "search")
    assert len(search_event["judged"]) == 1           # carried by every later event
    assert adapted_progress_line(judged[0]) == (
        "[patch 0: judged] the unpatched pool misses — seed 5: meets, settled after 0 rounds;"
        " seed 6: 3 targets missed, settled after 0 rounds")
    assert adapted_progress_line(judged[1]) == (
        "[patch 1: judged] 1 change (Thorn Boar: cost 2 → 3) meets every target — seed 5: "
        "meets, settled after 0 rounds; seed 6: meets, settled after 0 rounds")
    # followed by polling, a verdict the poll did not see still gets its line
    follower = AdaptedFollower()
    assert "[patch 0: judged]" in follower(search_event)
    assert "judged" not in follower(search_event)


def test_the_report_names_each_patchs_cards_by_name(searched):
    from balance.search.adapted_cli import adapted_report_text

    report = adapted_report_text(searched, "patch.json", 1.0, cards=CARDS)
    assert "Patch 0 (0 changes: unpatched)" in report
    assert len(searched.considered) == 2 and searched.considered[1].moves   # a patch to name
    for c in searched.considered[1:]:
        for move in c.moves:
            assert f"{CARDS[move.card].name_en}: {move.field} " in report
            assert f" → {move.value} ({move.card})" in report


@pytest.mark.parametrize(("iterations", "proposals", "why"), [
    (1, [("boar",)], "patches"),              # its one patch tried, and it missed
    (3, [("boar",), ("boar",)], "fixed_point"),   # the search proposed the same patch again
])
def test_a_search_that_misses_says_why_it_ended_and_what_would_go_further(
        monkeypatch, iterations, proposals, why):
    """The patch met on seed 5 and missed on 6, and its worse forecast stopped unsettled."""
    from types import SimpleNamespace

    from balance.search.adapted_cli import next_move_text
    from rules.lab.balance_search import adapted
    from rules.lab.balance_search.space import Move

    boar = Move("T-M02", "cost", 3)
    moves = iter([tuple(boar for _ in p) for p in proposals])

    def search(problem, side, **_):
        return SimpleNamespace(best=SimpleNamespace(moves=next(moves)), games_searched=10,
                               games_verified=0, strong_games_searched=0,
                               strong_games_verified=0)

    def forecast(problem, pairs, **_):        # seed 6 always ends with one deck at 70 %
        result = forecast_of(FIRST_STRONG, EVEN if problem.seed == 5 else FIRST_STRONG)
        printed = tuple(base_key(d) for d in problem.archetypes)
        return replace(result, games={"total": 100}, printed=printed,
                       stopped="settled" if problem.seed == 5 else "rounds",
                       rounds=(replace(result.rounds[0], lists=printed),))

    monkeypatch.setattr(adapted, "balance_search", search)
    monkeypatch.setattr(adapted, "forecast", forecast)
    result = adapted.adapted_search(replace(tiny(), iterations=iterations, forecast_seeds=2),
                                    evaluator=None)
    assert not result.chosen.judgement.meets and result.chosen.iteration == 0
    assert [m["why"] for m in result.next_moves()] == [why, "paths", "unsettled"]
    assert result.next_moves()[1:] == [
        {"why": "paths", "iteration": 0, "met": [5], "missed": [6]},
        {"why": "unsettled", "iteration": 0, "stopped": "rounds", "rounds": 0}]
    texts = [next_move_text(m) for m in result.next_moves()]
    assert texts[1].startswith("patch 0 met every target on seed 5 and missed on seed 6")
    assert texts[2].startswith("patch 0's worst forecast stopped at the most rounds allowed "
                               "after 0 rounds") and "--forecast-rounds" in texts[2]
    assert ("--adapt-rounds 2" in texts[0]) if why == "patches" else ("--cards" in texts[0])


def test_the_report_carries_what_would_go_further_where_the_chosen_patch_misses(searched):
    moves = searched.to_dict()["next_moves"]
    assert moves == searched.next_moves()
    assert (moves == []) == searched.chosen.judgement.meets


def test_a_search_on_many_paths_lists_asks_each_list_for_the_share_such_a_field_can_give(
        monkeypatch):
    """Four paths whose lists all differ give the next search twelve lists: every list at 10 %
    of the ε-equilibrium is more than twelve lists can have, so each is asked for a twelfth."""
    from types import SimpleNamespace

    from rules.lab.balance_search import adapted

    asked: list[tuple[int, float]] = []

    def search(problem, side, **_):
        asked.append((len(problem.field.decks), problem.min_share))
        return SimpleNamespace(best=None, games_searched=0, games_verified=0,
                               strong_games_searched=0, strong_games_verified=0)

    def forecast(problem, pairs, **_):
        result = forecast_of(FIRST_STRONG, FIRST_STRONG)
        copies = problem.seed - 4          # seeds 5–8: one to four copies of each card
        lists = tuple((hero, ((code, copies),)) for hero, code in
                      (("T-H01", "T-M02"), ("T-H01", "T-M04"), ("T-H02", "T-X01")))
        return replace(result, games={"total": 100},
                       rounds=(replace(result.rounds[0], lists=lists),))

    monkeypatch.setattr(adapted, "balance_search", search)
    monkeypatch.setattr(adapted, "forecast", forecast)
    problem = replace(tiny(), forecast_seeds=4)
    problem = replace(problem, search=replace(problem.search, min_share=0.1))
    adapted.adapted_search(problem, evaluator=None)
    assert asked == [(12, pytest.approx(1 / 12))]


def test_each_list_screens_the_live_patchs_cards_it_plays_and_what_it_brought_in(
        monkeypatch):
    """The live patch gives Dawn Squire 3 attack, and Dawn answers with two Paper Golems and
    a Night Wyrm: the next search screens, for each list, the patched card it plays, then the
    cards it brought in beyond its printed list, most copies first, whatever their copies
    rank among the list's cards (Dusk plays no Squire and kept its list: nothing first)."""
    from types import SimpleNamespace

    from rules.lab.balance_search import adapted
    from rules.lab.balance_search.space import Move

    asked = []

    def search(problem, side, **_):
        asked.append(problem.first_cards)
        return SimpleNamespace(best=None, games_searched=0, games_verified=0,
                               strong_games_searched=0, strong_games_verified=0)

    def forecast(problem, pairs, **_):
        result = forecast_of(FIRST_STRONG, FIRST_STRONG)
        dawn, dusk, weak = (base_key(d) for d in problem.archetypes)
        counts = dict(dawn[1])
        counts.update({"T-M02": 1, "T-X01": 2, "T-M14": 2, "T-M12": 1})
        answered_dawn = (dawn[0], tuple(sorted(counts.items())))
        return replace(result, games={"total": 100},
                       rounds=(replace(result.rounds[0], lists=(answered_dawn, dusk, weak)),))

    monkeypatch.setattr(adapted, "balance_search", search)
    monkeypatch.setattr(adapted, "forecast", forecast)
    problem = tiny()
    live = (Move("T-M04", "attack", 3),)
    adapted.adapted_search(replace(problem, search=replace(problem.search, start=live)),
                           evaluator=None)
    assert asked == [(("T-M04", "T-X01", "T-M12"), (), ("T-M04",))]


def with_more(key, extra):
    """A list with ``extra`` copies brought in beyond ``key``'s."""
    counts = dict(key[1])
    for code, n in extra.items():
        counts[code] = counts.get(code, 0) + n
    return (key[0], tuple(sorted(counts.items())))


def test_what_every_path_brought_in_leads_each_lists_screening(monkeypatch):
    """On seed 5 Dawn brings in two Paper Golems and a Night Wyrm, on seed 6 one Paper Golem
    and a Tide Caller, and Weak Dawn takes up a fourth Paper Golem on both: the next search
    leads each Dawn list's screening with Paper Golem, the one card Dawn brought in on both
    paths (the Wyrm and the Caller are one path's answer each); Weak Dawn leads with it too,
    and Dusk, which kept its list, with nothing."""
    from types import SimpleNamespace

    from rules.lab.balance_search import adapted

    asked = []

    def search(problem, side, **_):
        asked.append((problem.field.decks, problem.lead_cards))
        return SimpleNamespace(best=None, games_searched=0, games_verified=0,
                               strong_games_searched=0, strong_games_verified=0)

    def forecast(problem, pairs, **_):
        result = forecast_of(FIRST_STRONG, FIRST_STRONG)
        dawn, dusk, weak = (base_key(d) for d in problem.archetypes)
        answer = {5: {"T-X01": 2, "T-M12": 1}, 6: {"T-X01": 1, "T-M09": 1}}[problem.seed]
        lists = (with_more(dawn, answer), dusk, with_more(weak, {"T-X01": 1}))
        return replace(result, games={"total": 100},
                       rounds=(replace(result.rounds[0], lists=lists),))

    monkeypatch.setattr(adapted, "balance_search", search)
    monkeypatch.setattr(adapted, "forecast", forecast)
    adapted.adapted_search(replace(tiny(), forecast_seeds=2), evaluator=None)
    [(decks, lead)] = asked
    assert [d.name for d in decks] == ["Dawn Test", "Dusk Test", "Weak Dawn",
                                       "Dawn Test (seed 6)"]
    assert lead == (("T-X01",), (), ("T-X01",), ("T-X01",))


def test_shared_cards_rank_what_more_lists_took_up_first():
    """Across two paths Paper Golem is brought into Dawn and Weak Dawn on both (four lists),
    Night Wyrm into Dawn alone on both with more copies: Dawn's screening leads with the Golem,
    the kind of card every tuning takes, then the Wyrm."""
    from rules.lab.balance_search.adapted import shared_cards

    printed = (TEST.deck("Dawn Test"), TEST.deck("Dusk Test"), weak_dawn())
    dawn, dusk, weak = (base_key(d) for d in printed)
    path = (with_more(dawn, {"T-X01": 1, "T-M12": 3}), dusk, with_more(weak, {"T-X01": 1}))
    assert shared_cards([path, path], printed) == (("T-X01", "T-M12"), (), ("T-X01",))
    assert shared_cards([path], printed) == ((), (), ())
