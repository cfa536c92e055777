"""A deck tuning's suggestion says how it moves the deck's share of the field's equilibria
(rules.lab.meta): the opponents' own pairings are played once on fresh seeds, and the Nash and
ε-equilibrium shares are solved with the unchanged deck and with the suggestion."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.legality import STANDARD
from rules.engine.cards import CardDef, DeckList
from rules.lab.deck_tuning import TuneField, TuningProblem, tune_deck
from rules.lab.deck_tuning.evaluate import BLOCK
from rules.lab.deck_tuning.problem import base_key
from rules.lab.meta import nash_equilibrium, payoff_matrix, relaxed_equilibrium

TEST = load_card_set(TEST_SET)
DUD = CardDef.from_dict({"code": "T-X01", "kind": "minion", "name_en": "Paper Golem",
                         "name_zh": "纸魔像", "rarity": "N", "cost": 3, "attack": 0,
                         "attribute": "fire"})
CARDS = {**TEST.cards, DUD.code: DUD}
DUSK, DAWN = TEST.deck("Dusk Test"), TEST.deck("Dawn Test")


def weakened_dawn() -> DeckList:
    counts = TEST.deck("Dawn Test").counts()
    del counts["T-M02"]
    counts["T-X01"] = 3
    return DeckList.from_counts("T-H01", counts, "Weak Dawn")


class Field:
    """Outcome strings with known rates (no noise): the tuned deck wins 30 % against Dusk and
    40 % against Dawn, ten points more for each Paper Golem swapped out; Dusk beats Dawn 70 %."""

    def __init__(self):
        self.tasks = []

    def rate(self, task) -> float:
        if task.deck == base_key(DUSK):
            return 0.7
        golems = dict(task.deck[1]).get("T-X01", 0)
        return (0.3, 0.4)[task.opponent] + 0.1 * (3 - golems)

    def evaluate(self, tasks):
        self.tasks.extend(tasks)
        out = []
        for task in tasks:
            wins = round(self.rate(task) * BLOCK)
            out.append(["a" * wins + "b" * (BLOCK - wins)] * task.blocks)
        return out


def problem(**changes) -> TuningProblem:
    field = TuneField(cards=CARDS, opponents=(DUSK, DAWN), agent="greedy")
    base = TuningProblem(field=field, deck=weakened_dawn(), fmt=STANDARD, max_swaps=2, seed=3,
                         budget_games=20_000, verify_games=200, proposals=8, suggestions=2,
                         pool=("T-M02", "T-M04", "T-X01"), meta_resamples=0)
    return replace(base, **changes)


def shares(tuned: tuple[float, float]) -> tuple[float, float]:
    """The tuned deck's Nash and ε-equilibrium shares, solved here from the rates."""
    score = [[None, tuned[0], tuned[1]], [1 - tuned[0], None, 0.7], [1 - tuned[1], 0.3, None]]
    payoff = payoff_matrix(score)
    return float(nash_equilibrium(payoff)[0]), float(relaxed_equilibrium(payoff, 0.005)[0])


def test_a_suggestion_says_how_it_moves_the_decks_share_of_the_field():
    field = Field()
    result = tune_deck(problem(), field)
    pairings = [t for t in field.tasks if t.deck == base_key(DUSK)]
    assert [(t.opponent, t.blocks * BLOCK) for t in pairings] == [(1, 200)]   # once, fresh
    data = result.to_dict(["Dusk Test", "Dawn Test"])
    assert data["field_meta"]["decks"] == ["Weak Dawn", "Dusk Test", "Dawn Test"]
    before = shares((0.3, 0.4))
    assert data["field_meta"]["nash"]["shares"][0] == pytest.approx(before[0], abs=1e-4)
    assert data["suggestions"]
    for s in data["suggestions"]:
        golems = s["deck"]["cards"].get("T-X01", 0)
        after = shares((0.3 + 0.1 * (3 - golems), 0.4 + 0.1 * (3 - golems)))
        assert s["shares"]["nash"]["before"] == pytest.approx(before[0], abs=1e-4)
        assert s["shares"]["nash"]["after"] == pytest.approx(after[0], abs=1e-4)
        assert s["shares"]["relaxed"]["before"] == pytest.approx(before[1], abs=1e-4)
        assert s["shares"]["relaxed"]["after"] == pytest.approx(after[1], abs=1e-4)
    best = data["suggestions"][0]
    assert best["shares"]["nash"]["after"] > best["shares"]["nash"]["before"]


def test_a_single_opponent_has_no_field_to_share():
    one = replace(problem(), field=TuneField(cards=CARDS, opponents=(DUSK,), agent="greedy"))
    field = Field()
    data = tune_deck(one, field).to_dict(["Dusk Test"])
    assert data["field_meta"] is None and data["suggestions"]
    assert all(s["shares"] is None for s in data["suggestions"])
    assert all(t.deck != base_key(DUSK) for t in field.tasks)      # no pairing played
