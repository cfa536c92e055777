"""The learned agents (rules.ai.learned): an evaluator trained here in seconds on a few hundred
games, that reads only its seat's view, refuses a card set it was not trained on, and agents on
it that play legal games, the same game from the same seed."""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import pytest

from rules.ai.agents import agent_spec, make_agent
from rules.ai.learned import LEARNED_SHARE, LearnedAgent, LearnedPlannerAgent
from rules.ai.value_features import FEATURES, features
from rules.ai.value_model import (
    MODEL_FEATURES,
    MODEL_MISSING,
    ModelMismatch,
    card_codes,
    fingerprint,
    load_model,
    model_from_dict,
    shipped_model,
)
from rules.decks.cardset import CORE_SET, TEST_SET, load_card_set
from rules.engine import Game
from rules.lab.learned_curve import curve_svg
from rules.lab.learned_training import (
    OVERLAP,
    Data,
    Settings,
    evaluate,
    log_loss,
    play_for_data,
    train,
    training_players,
)
from rules.lab.match import play_game
from tests.rules.test_agents import TRUTH_A, TRUTH_B

TEST = load_card_set(TEST_SET)
TINY = Settings(seed=3, games=240, rounds=1, round_games=60, eval_games=8, planner_games=4,
                hidden=8, epochs=6, round_epochs=2)


@pytest.fixture(scope="module")
def tiny():
    """A model trained on the test set: 240 games of the existing agents, one round of 60
    games of self-play."""
    return train(TEST, TINY, log=False)


def test_a_tiny_model_trains_from_games_and_tells_winners_from_losers(tiny):
    meta = tiny.meta
    assert meta["games"] == 300 and meta["positions"] > 1000
    assert [row["round"] for row in meta["curve"]] == [0, 1]
    for row in meta["curve"]:
        assert row["greedy"]["games"] == 8 and 0 <= row["greedy"]["rate"] <= 1
        assert row["planner"]["games"] == 4
    assert tiny.cards == card_codes(TEST.cards) and tiny.fingerprint == fingerprint(tiny.cards)
    assert "--seed 3" in meta["command"]
    # On its own positions, the games it won were judged likelier wins than those it lost,
    # and better than a constant guess.
    data = Data()
    play_for_data(TEST, data, 77_000, 40, training_players(None, 5), "check")
    x, y = data.arrays()
    chances = tiny.win_chances(x)
    assert chances[y == 1].mean() > chances[y == 0].mean() + 0.1
    base = y.mean()
    assert log_loss(tiny, x, y) < -(base * np.log(base) + (1 - base) * np.log(1 - base))


def test_training_is_reproducible_from_its_seed(tiny):
    again = train(TEST, TINY, log=False)
    assert np.array_equal(again.hidden_weights, tiny.hidden_weights)
    assert again.meta["curve"] == tiny.meta["curve"]


def test_evaluation_refuses_a_game_seed_that_training_played():
    data = Data()
    play_for_data(TEST, data, 5_000, 4, training_players(None, 1), "train")
    with pytest.raises(ValueError) as refused:
        evaluate(TEST, make_agent("greedy"), make_agent("random"), 4, 5_000, data.seeds)
    assert str(refused.value).startswith(OVERLAP.split("{")[0])


def test_two_positions_differing_only_in_what_the_seat_cannot_see_have_one_value(tiny):
    """Rule: R1.1, R2.3.2 — the enemy's hand, both decks' order and the enemy's face-down
    minion differ; seat 0's features and value do not (seat 1's, who sees its own hand, do)."""
    a = Game.from_snapshot(TRUTH_A, TEST.cards, seed=1)
    b = Game.from_snapshot(TRUTH_B, TEST.cards, seed=2)
    assert a.snapshot() != b.snapshot()
    assert features(a.view(0)) == features(b.view(0))
    assert tiny.value(a.view(0)) == tiny.value(b.view(0))
    assert features(a.view(1)) != features(b.view(1))
    assert len(features(a.view(0))) == len(FEATURES)


@pytest.mark.parametrize("kind", [LearnedAgent, LearnedPlannerAgent])
def test_the_learned_agents_choose_alike_whatever_the_seat_cannot_see(tiny, kind):
    """Rule: R1.1 — the hidden zones of the true game do not change what the agent does."""
    choices = []
    for truth, seed in ((TRUTH_A, 1), (TRUTH_B, 99)):
        game = Game.from_snapshot(truth, TEST.cards, seed=seed)
        choices.append(kind(tiny).choose(game.view(0), game.legal_actions(), random.Random(5)))
    assert choices[0] == choices[1]


def test_the_strong_agent_judges_its_moves_alike_whatever_the_seat_cannot_see(tiny):
    """Rule: R1.1 — the strong agent's search (both evaluators on the same rollouts, every
    decision searched: margin 1000) gives each shortlisted move the same score in two games
    differing only in hidden zones, and so makes the same choice."""
    assert LearnedPlannerAgent(tiny).learned_share == LEARNED_SHARE == 0.5
    scores, choices = [], []
    for truth, seed in ((TRUTH_A, 1), (TRUTH_B, 99)):
        game = Game.from_snapshot(truth, TEST.cards, seed=seed)
        legal = game.legal_actions()
        agent = LearnedPlannerAgent(tiny, margin=1000)
        scores.append(agent._search(game.view(0), legal[:4] + legal[-1:], random.Random(5)))
        choices.append(agent.choose(game.view(0), legal, random.Random(5)))
    assert scores[0] == scores[1] and choices[0] == choices[1]
    # Each evaluator is brought to one scale over the shortlist: the mixed scores sum to 0
    # and tell the moves apart.
    assert sum(scores[0]) == pytest.approx(0, abs=1e-9) and len(set(scores[0])) > 1


def test_the_strong_agent_with_the_learned_value_alone_searches_as_before(tiny):
    """``learned_share`` 1 is the planner's search judged by the learned value alone (its
    rollouts' ``_rollout``), the strong agent shipped before both evaluators were mixed."""
    game = Game.from_snapshot(TRUTH_A, TEST.cards, seed=1)
    legal = game.legal_actions()
    shortlist = legal[:4] + legal[-1:]
    alone = LearnedPlannerAgent(tiny, learned_share=1.0)
    scores = alone._search(game.view(0), shortlist, random.Random(5))
    assert all(0 <= score <= 2 * 100 for score in scores)     # two worlds' chances, in points
    mixed = LearnedPlannerAgent(tiny)._search(game.view(0), shortlist, random.Random(5))
    assert scores != mixed


def test_a_model_refuses_a_card_set_it_was_not_trained_on(tiny):
    core = load_card_set(CORE_SET)
    with pytest.raises(ModelMismatch) as refused:
        tiny.check_cards(core.cards)
    message = str(refused.value)
    assert tiny.fingerprint in message and "python -m rules.lab.learned_training" in message
    game = Game(core.cards, [core.deck(n) for n in list(core.decks)[:2]], seed=1)
    with pytest.raises(ModelMismatch):
        LearnedAgent(tiny).choose(game.view(0), game.legal_actions(), random.Random(1))
    result = play_game(core.cards, *(core.deck(n) for n in list(core.decks)[:2]), seed=1,
                       a_first=True, agent_a=LearnedPlannerAgent(tiny),
                       agent_b=make_agent("greedy"))
    assert result.error is not None and "trained on another card set" in result.error


def test_a_patched_card_set_keeps_its_model(tiny):
    """A patch changes figures, not codes: the model reads the new figures. A card or two
    added stays within the tolerance."""
    patched = dict(TEST.cards)
    code = next(c for c in sorted(patched) if patched[c].kind == "minion")
    patched[code] = dataclasses.replace(patched[code], attack=patched[code].attack + 2)
    tiny.check_cards(patched)
    grown = dict(TEST.cards)
    grown["NEW1"] = dataclasses.replace(patched[code], code="NEW1")
    tiny.check_cards(grown)


def test_a_model_file_round_trips_and_a_wrong_one_is_refused(tiny, tmp_path):
    path = tmp_path / "model.json"
    tiny.save(path)
    again = load_model(path)
    assert again.fingerprint == tiny.fingerprint
    game = Game.from_snapshot(TRUTH_A, TEST.cards, seed=1)
    assert again.value(game.view(0)) == pytest.approx(tiny.value(game.view(0)), abs=1e-4)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["features"] = data["features"][:-1]
    with pytest.raises(ModelMismatch) as refused:
        model_from_dict(data, "x.json")
    assert str(refused.value) == MODEL_FEATURES.format(path="x.json", found=len(FEATURES) - 1,
                                                        expected=len(FEATURES))
    with pytest.raises(ModelMismatch) as missing:
        load_model(tmp_path / "none.json")
    assert str(missing.value) == MODEL_MISSING.format(path=tmp_path / "none.json")


@pytest.mark.parametrize("kind", [LearnedAgent, LearnedPlannerAgent,
                                  lambda model: LearnedPlannerAgent(model, margin=1000)])
def test_the_learned_agents_play_legal_games_the_same_from_a_seed(tiny, kind):
    """Every action is checked against the rules (``apply`` with its check), and the same seed
    plays the same game (the strong agent also with every main-phase decision searched)."""
    logs = []
    for _ in range(2):
        game = Game(TEST.cards, [TEST.deck(n) for n in TEST.decks], seed=11)
        rngs = (random.Random(1), random.Random(2))
        agents = (kind(tiny), make_agent("greedy"))
        while game.decision is not None:
            seat = game.decision.player
            legal = game.legal_actions()
            action = agents[seat].choose(game.view(seat), legal, rngs[seat])
            assert action in legal
            game.apply(action)
        assert game.result is not None
        logs.append(game.actions)
    assert logs[0] == logs[1]


def test_the_registered_agents_use_the_shipped_model_of_the_core_set():
    model = shipped_model()
    core = load_card_set(CORE_SET)
    model.check_cards(core.cards)
    assert model.meta["curve"] and model.meta["games"] > 0
    for name in ("learned", "learned_planner"):
        assert agent_spec(name).skill == "skilled" and agent_spec(name).measured_against
    result = play_game(core.cards, *(core.deck(n) for n in list(core.decks)[:2]), seed=4,
                       a_first=True, agent_a=make_agent("learned"),
                       agent_b=make_agent("learned_planner"))
    assert result.error is None and result.winner in ("a", "b")


def test_the_learning_curve_is_drawn_with_both_rivals_and_their_intervals(tiny):
    svg = curve_svg(tiny.meta["curve"])
    assert svg.startswith("<svg") and svg.count("<polyline") == 2
    assert "vs greedy" in svg and "vs planner" in svg
