"""The match runner and its statistics, as the simulate command reports them."""

import pytest

from rules.decks.cardset import TEST_SET, load_card_set
from rules.lab.match import game_seed, run_games, run_match
from rules.lab.stats import MatchStats, wilson_interval


@pytest.fixture(scope="module")
def test_set():
    return load_card_set(TEST_SET)


def test_wilson_interval_known_values():
    low, high = wilson_interval(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and 0.69 < low < 0.73


def test_games_come_in_seat_swapped_pairs(test_set):
    """Rule: R2.1.2 — both games of a pair share a seed; deck A goes first in one of them."""
    assert game_seed(7, 0) == game_seed(7, 1) != game_seed(7, 2)
    stats = run_match(test_set.cards, test_set.deck("Dawn Test"), test_set.deck("Dusk Test"),
                      games=40, seed=3)
    assert stats.first_games == 20 and stats.second_games == 20


def test_same_seed_same_result_and_chunks_add_up(test_set):
    cards, a, b = test_set.cards, test_set.deck("Dawn Test"), test_set.deck("Dusk Test")
    whole = run_match(cards, a, b, games=30, seed=11, agent_a="greedy", agent_b="random")
    again = run_match(cards, a, b, games=30, seed=11, agent_a="greedy", agent_b="random")
    assert whole.to_dict() == again.to_dict()
    first, _ = run_games(cards, a, b, seed=11, start=0, stop=14, agent_a="greedy")
    rest, _ = run_games(cards, a, b, seed=11, start=14, stop=30, agent_a="greedy")
    assert first.merge(rest).to_dict() == whole.to_dict()
    assert MatchStats.from_counts(whole.counts()).to_dict() == whole.to_dict()


def test_an_engine_error_is_counted_apart_with_its_seed(test_set):
    from dataclasses import replace

    # A hero whose turn-start ability names an effect the engine cannot run (as if it had
    # slipped past the validator): every game that reaches its turn fails inside the engine.
    dawn = test_set.deck("Dawn Test")
    hero = test_set.cards[dawn.hero]
    broken = {"trigger": "turn_start", "whose": "own", "if": None, "sleeping": False,
              "effects": ({"do": "explode"},)}
    cards = dict(test_set.cards)
    cards[hero.code] = replace(hero, by_trigger={"turn_start": (broken,)})
    stats = run_match(cards, dawn, test_set.deck("Dusk Test"), games=20, seed=5)
    assert stats.errors > 0
    assert stats.wins + stats.losses + stats.draws + stats.errors == stats.games
    sample = stats.error_samples[0]
    assert "explode" in sample["error"] and isinstance(sample["seed"], int)
    assert stats.to_dict()["win_rate"]["games"] == stats.completed


def test_kept_logs_replay_to_the_same_result(test_set):
    from rules.engine import replay_game

    _, kept = run_games(test_set.cards, test_set.deck("Dawn Test"), test_set.deck("Dusk Test"),
                        seed=2, start=0, stop=4, agent_a="greedy", keep_logs=2)
    assert len(kept) == 2
    for result in kept:
        game = replay_game(result.log, test_set.cards)
        assert game.result == result.log["result"]
        assert game.events == result.log["events"]


def test_per_card_figures_count_draws_opening_hands_plays_awakenings_and_wins(test_set):
    cards, a, b = test_set.cards, test_set.deck("Dawn Test"), test_set.deck("Dusk Test")
    stats, _ = run_games(cards, a, b, seed=8, start=0, stop=20, agent_a="greedy",
                         agent_b="greedy")
    rows = {r["code"]: r for r in stats.card_figures("a")}
    assert set(rows) <= set(a.cards) | {a.hero}
    for row in rows.values():
        when = row["when"]
        assert 1 <= when["drawn"]["games"] <= stats.completed   # a card is listed once drawn
        assert when["opening"]["games"] <= when["drawn"]["games"] <= row["times_drawn"]
        assert row["times_played"] >= row["games_played_in"]
        assert row["wins_when_played"] <= min(row["games_played_in"], stats.wins)
        for figure in when.values():
            assert figure["wins"] <= figure["games"]
    assert sum(r["times_awakened"] for r in rows.values()) > 0
    assert sum(r["when"]["awakened"]["games"] for r in rows.values()) > 0
    # R2.1.3: an opening hand of ten cards, every game: at least ten codes a game on average
    # are in some opening hand, since a deck holds at most a few copies of a card.
    assert sum(r["when"]["opening"]["games"] for r in rows.values()) >= 3 * stats.completed
    half, _ = run_games(cards, a, b, seed=8, start=0, stop=10, agent_a="greedy",
                        agent_b="greedy")
    rest, _ = run_games(cards, a, b, seed=8, start=10, stop=20, agent_a="greedy",
                        agent_b="greedy")
    assert half.merge(rest).counts() == stats.counts()
