"""The meta forecast (rules.lab.forecast, pure Python): the meta's dynamics settle where the
answer is known — a rock-paper-scissors field on a third each, a dominated deck on nothing —
and a forecast of a tiny field adapts a list that carries dead cards, keeps every list within
its cap of its printed list with its hero, and repeats itself for the same seed."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.decks.cardset import TEST_SET, load_card_set
from rules.engine.cards import CardDef, DeckList
from rules.lab.deck_tuning import TuneField
from rules.lab.deck_tuning.problem import Candidate, Swap, apply, base_key, changes
from rules.lab.deck_tuning.result import Measured, Suggestion, TuningResult
from rules.lab.forecast import ForecastError, ForecastProblem, LocalPairEvaluator, forecast, rounds
from rules.lab.forecast.dynamics import meta_step, patch_day
from rules.lab.forecast.result import card_moves, list_diff

TEST = load_card_set(TEST_SET)
DUD = CardDef.from_dict({"code": "T-X01", "kind": "minion", "name_en": "Paper Golem",
                         "name_zh": "纸魔像", "rarity": "N", "cost": 3, "attack": 0,
                         "attribute": "fire"})
CARDS = {**TEST.cards, DUD.code: DUD}
ROCK_PAPER_SCISSORS = [[None, 0.0, 1.0], [1.0, None, 0.0], [0.0, 1.0, None]]


def run_meta(scores, start, rounds=200, epsilon=0.005):
    shares = start
    for number in range(1, rounds + 1):
        shares, _ = meta_step(shares, scores, number, epsilon=epsilon)
    return shares


def test_the_meta_settles_on_a_third_each_in_rock_paper_scissors():
    for start in ((1.0, 0.0, 0.0), (0.2, 0.7, 0.1), patch_day(3)):
        shares = run_meta(ROCK_PAPER_SCISSORS, start)
        assert shares == pytest.approx((1 / 3,) * 3, abs=0.01)


def test_a_dominated_deck_leaves_the_meta():
    # deck 2 loses 30-70 to both others; 0 and 1 are even with each other
    scores = [[None, 0.5, 0.7], [0.5, None, 0.7], [0.3, 0.3, None]]
    shares = run_meta(scores, patch_day(3), epsilon=0.0)
    assert shares[2] < 0.01
    # allowing half a point, the most even field plays it as much as costs the others no more
    # than that: 0.2 × share ≤ 0.005, a share of 2.5 %
    shares = run_meta(scores, patch_day(3), epsilon=0.005)
    assert shares[2] == pytest.approx(0.025, abs=0.005)
    assert shares[0] == pytest.approx(shares[1], abs=0.01)


def weak_dawn() -> DeckList:
    counts = TEST.deck("Dawn Test").counts()
    del counts["T-M02"]                  # three Thorn Boars out, three Paper Golems in
    counts["T-X01"] = 3
    return DeckList.from_counts("T-H01", counts, "Weak Dawn")


def problem(**changes_) -> ForecastProblem:
    base = ForecastProblem(cards=CARDS, archetypes=(weak_dawn(), TEST.deck("Dusk Test")),
                           agent="greedy", max_changes=3, swaps_per_round=1, max_rounds=2,
                           tune_games=2_500, verify_games=400, round_games=200,
                           final_games=200, exploit_swaps=1, seed=5,
                           pool=("T-M02", "T-M04", "T-M06", "T-M09", "T-M11", "T-X01"))
    return replace(base, **changes_)


def run(p: ForecastProblem):
    field = TuneField(cards=p.cards, opponents=(), agent=p.agent)
    with LocalPairEvaluator(field, processes=1) as evaluator:
        return forecast(p, evaluator)


@pytest.mark.long
def test_a_forecast_drops_dead_cards_and_repeats_for_the_same_seed():
    p = problem()
    result = run(p)
    data = result.to_dict()
    printed = [base_key(d) for d in p.archetypes]
    for step in result.rounds:
        for key, origin in zip(step.lists, printed, strict=True):
            assert key[0] == origin[0]                      # the hero stays
            assert changes(origin, key) <= p.max_changes     # within the cap, in all
    first = data["rounds"][1]["decks"][0]
    assert first["tuning"]["adopted"]                       # the golems' deck re-tunes:
    assert {"card": "T-X01", "copies": -3} in first["diff"]  # they go
    gain = first["tuning"]["improvement"]                   # verified on fresh seeds, paired
    assert gain["change"] > p.settle and gain["low"] > 0
    assert data["rounds"][0]["shares"] == [0.5, 0.5]        # patch day: nobody adapted yet
    last = data["rounds"][-1]
    assert data["final"]["shares"] == last["shares"]
    moved = {row["card"] for d in data["final"]["decks"] for row in d["diff"]}
    assert moved == {row["card"] for kind in ("adopted", "dropped")
                     for row in data["cards"][kind]}
    final = data["final"]
    assert [d["name"] for d in final["decks"]] == ["Weak Dawn", "Dusk Test"]
    assert sum(final["shares"]) == pytest.approx(1, abs=1e-3)
    assert final["field"][0]["low"] < final["field"][0]["rate"] < final["field"][0]["high"]
    assert final["field"][0]["games"] == 200
    assert final["matchups"][0][1]["rate"] == pytest.approx(1 - final["matchups"][1][0]["rate"]
                                                            - draws_share(result))
    exploit = data["exploitability"]
    assert exploit["agent"] == "greedy" and exploit["games"] > 0
    rows = exploit["per_archetype"]
    assert exploit["rate"] == max(r["rate"] for r in rows)   # the best deck one tuning reaches
    assert all(r["improvement"]["change"] > 0 for r in rows if r["swaps"])
    assert result.games["total"] == sum(v for k, v in result.games.items() if k != "total")
    assert run(p).to_dict() == data                          # same seed, same forecast


def test_a_quick_answer_plays_one_round_and_no_exploitability():
    """The lists' first answer to a patch (``balance_search.answer``): one round of re-tuning
    and the answered lists' matchups, without one more tuning of each list after it."""
    quick = run(problem(max_rounds=1, exploitability=False))
    assert len(quick.rounds) == 2 and quick.rounds[1].tunings[0].adopted   # golems out
    assert quick.exploits == () and quick.exploitability() is None
    assert quick.final[(0, 1)] and quick.stopped == "rounds"
    full = run(problem(max_rounds=1))
    assert full.exploitability() is not None
    assert quick.games["total"] < full.games["total"]


def draws_share(result) -> float:
    text = result.final[(0, 1)]
    return text.count("d") / sum(text.count(c) for c in "abd")


def test_lists_as_diffs_and_the_cards_adopted_and_dropped():
    printed = ("H", (("A", 2), ("B", 2)))
    one = ("H", (("A", 1), ("B", 2), ("C", 1)))
    two = ("G", (("A", 2), ("C", 2)))
    assert list_diff(printed, one) == [{"card": "A", "copies": -1}, {"card": "C", "copies": 1}]
    moves = card_moves([printed, ("G", (("A", 2), ("B", 2)))], [one, two])
    assert moves["adopted"] == [{"card": "C", "archetypes": 2, "copies": 3}]
    assert moves["dropped"] == [{"card": "B", "archetypes": 1, "copies": 2},   # most first
                                {"card": "A", "archetypes": 1, "copies": 1}]


def test_a_forecast_settles_when_no_gain_clears_the_bar():
    result = run(problem(settle=0.5, max_rounds=3))
    # Round 1 adopts nothing; round 2 is the check (the exploitability's wider tuning), which
    # adopts nothing either: settled, and the check's tunings are the exploitability.
    assert result.stopped == "settled" and len(result.rounds) == 3
    assert [r.check for r in result.rounds] == [False, False, True]
    assert result.rounds[-1].lists == result.rounds[0].lists     # nobody changed
    for tuning, exploit in zip(result.rounds[-1].tunings, result.exploits, strict=True):
        found = exploit.result.suggestions
        assert tuning is not None and tuning.suggestion is (found[0] if found else None)
    assert result.to_dict()["rounds"][-1]["check"] is True


GOLEMS_OUT = (Swap("T-X01", "T-M02", 3),)      # the Paper Golems out, the Thorn Boars back


def scripted_tuning(found_by_check: list[Candidate]):
    """``tune_deck`` standing in for the real one: a round's narrow search (one swap, capped)
    finds nothing; a check's (the exploitability's: no cap) finds ``found_by_check``'s next
    candidate for Weak Dawn, verified on its fresh games far above its list."""
    calls: list[str] = []

    def tune(problem, evaluator, should_stop=None):
        is_check = problem.max_changes is None
        calls.append("check" if is_check else "round")
        n = len(problem.field.opponents)
        lose = Measured((), ("b" * 200,) * n, problem.field.weights)
        suggestions = []
        if is_check and problem.deck.name == "Weak Dawn" and found_by_check:
            swaps = found_by_check.pop(0)
            key = apply(base_key(problem.deck), swaps)
            win = Measured(swaps, ("a" * 200,) * n, problem.field.weights)
            suggestions.append(Suggestion(swaps, key, win, win, lose))
        return TuningResult(deck=problem.deck, baseline=lose, suggestions=suggestions,
                            searched=[], search_baseline=lose, games_searched=0,
                            games_verified=0, evaluations=0, rounds=0, games_each=0)

    return tune, calls


def test_the_check_adopts_what_the_rounds_narrow_search_missed(monkeypatch):
    tune, calls = scripted_tuning([GOLEMS_OUT])
    monkeypatch.setattr(rounds, "tune_deck", tune)
    result = run(problem(max_rounds=6))
    data = result.to_dict()
    # Round 1: nobody; round 2, the check: Weak Dawn adopts the golems' swap; round 3, a
    # check again (the narrow search had nothing before): nobody — settled.
    assert [r["check"] for r in data["rounds"]] == [False, False, True, True]
    assert data["rounds"][2]["decks"][0]["tuning"]["adopted"]
    assert {"card": "T-X01", "copies": -3} in data["rounds"][2]["decks"][0]["diff"]
    assert data["rounds"][2]["shares"] != data["rounds"][1]["shares"]   # the meta moved
    assert result.stopped == "settled"
    assert {"card": "T-X01", "copies": -3} in data["final"]["decks"][0]["diff"]
    # The last check was the exploitability: no tuning after it.
    assert calls == ["round", "round", "check", "check", "check", "check"]


def test_the_check_keeps_every_list_within_its_cap(monkeypatch):
    # Three copies out of a list that may differ from print in two: the check may report it
    # as the exploitability, never adopt it.
    tune, calls = scripted_tuning([GOLEMS_OUT])
    monkeypatch.setattr(rounds, "tune_deck", tune)
    result = run(problem(max_rounds=6, max_changes=2))
    data = result.to_dict()
    assert [r["check"] for r in data["rounds"]] == [False, False, True]
    assert result.stopped == "settled" and data["final"]["decks"][0]["diff"] == []
    assert not data["rounds"][2]["decks"][0]["tuning"]["adopted"]
    exploit = data["exploitability"]
    assert exploit["archetype"] == "Weak Dawn" and exploit["rate"] == 1.0
    assert [s["out"] for s in exploit["swaps"]] == ["T-X01"]
    assert calls == ["round", "round", "check", "check"]


def test_a_field_of_one_is_refused():
    with pytest.raises(ForecastError, match="two archetypes"):
        run(problem(archetypes=(weak_dawn(),)))


def test_verdicts_across_agents_follow_riots_rule():
    """Over the band under any agent: a nerf; under it under every agent: a buff."""
    from rules.lab.forecast.result import ForecastResult

    def games(wins: int) -> str:
        return "a" * wins + "b" * (100 - wins)

    result = ForecastResult(
        names=("A", "B", "C"), printed=(), rounds=(), meta=None, exploits=(),
        stopped="settled", games={}, agent="greedy", final_games=100,
        final={(0, 1): games(70), (0, 2): games(64), (1, 2): games(50)},
        further={"lean": {(0, 1): games(50), (0, 2): games(60), (1, 2): games(60)}})
    verdicts = {row["archetype"]: row for row in result.verdicts()}
    assert verdicts["A"]["verdict"] == "nerf"        # 67 % under greedy, 55 % under lean
    assert verdicts["B"]["verdict"] == "fine"        # 40 % under greedy only: no buff
    assert verdicts["C"]["verdict"] == "buff"        # 43 % and 40 %: under under both
    assert verdicts["C"]["agents"]["lean"]["rate"] == 0.4
    assert verdicts["B"]["agents"]["greedy"]["games"] == 200


def test_each_round_proposes_other_cards_on_the_same_racing_seeds(monkeypatch):
    # A round proposing what the last one raced and turned down would only ever reach the few
    # cards one seed drew: every round and every check draws its proposals anew, while an
    # archetype's rounds race on the same seeds (their unchanged games re-read).
    tune, _ = scripted_tuning([GOLEMS_OUT])
    seen: list[tuple[str, bool, int, int | None]] = []

    def recording(problem_, evaluator, should_stop=None):
        seen.append((problem_.deck.name, problem_.max_changes is None, problem_.seed,
                     problem_.proposal_seed))
        return tune(problem_, evaluator, should_stop)

    monkeypatch.setattr(rounds, "tune_deck", recording)
    run(problem(max_rounds=6))
    rounds_ = [(seed, drawn) for name, check, seed, drawn in seen
               if name == "Weak Dawn" and not check]
    checks = [(seed, drawn) for name, check, seed, drawn in seen
              if name == "Weak Dawn" and check]
    # round 1, then two checks (the first adopts the golems' swap): one racing seed for the
    # checks, a new draw of proposals for each
    assert len(rounds_) == 1 and len(checks) == 2
    assert len({seed for seed, _ in checks}) == 1
    drawn = [d for _, d in rounds_ + checks]
    assert None not in drawn and len(set(drawn)) == len(drawn)
