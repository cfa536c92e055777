"""R2.1 Setup: decks, heroes, turn order, opening hands, the mulligan, placing and its end."""

from __future__ import annotations

from collections import Counter

from rules.engine import Action, Game
from rules.engine.actions import KEEP, READY
from tests.rules.helpers import TEST, act, board, cards, deck, view

# Thirty distinct cards, so a test can tell exactly where each one went.
DISTINCT = tuple(f"{a}{n}" for a in "FGWLD" for n in range(6))
PLAIN = deck(*(["F2"] * 15 + ["W3"] * 15))


def new_game(seed: int = 1, first: int | None = 0, decks=None) -> Game:
    decks = decks or [deck(*DISTINCT), deck(*DISTINCT, hero_code="HERO-FIRE")]
    return Game(cards(), decks, seed=seed, first_player=first)


def test_r2_1_1_decks_go_to_the_deck_zone_and_heroes_are_revealed():
    game = new_game()
    for seat in (0, 1):
        seen = view(game, seat)
        assert seen["me"]["deck_size"] + len(seen["me"]["hand"]) == 30
        assert Counter(seen["me"]["hand"]) + Counter(seen["me"]["deck_contents"]) \
            == Counter(DISTINCT)
    assert view(game, 0)["enemy"]["hero"] == "HERO-FIRE"     # both heroes are public
    assert view(game, 1)["enemy"]["hero"] == "HERO"


def test_r2_1_1_each_hero_starts_at_its_cards_hp():
    game = Game(TEST.cards, list(TEST.decks.values()), seed=2)
    for seat in (0, 1):
        assert view(game, seat)["me"]["hp"] == game.players[seat].hero.hp == 20


def test_r2_1_2_turn_order_is_random_from_the_seed():
    firsts = {seed: new_game(seed, first=None).first_player for seed in range(40)}
    assert set(firsts.values()) == {0, 1}
    assert all(new_game(seed, first=None).first_player == firsts[seed] for seed in range(10))


def test_r2_1_2_the_first_player_decides_first():
    game = new_game(first=1)
    assert (game.decision.kind, game.to_move) == ("mulligan", 1)
    act(game, KEEP)
    assert (game.decision.kind, game.to_move) == ("mulligan", 0)


def test_r2_1_3_both_players_shuffle_and_draw_ten():
    hands = set()
    for seed in range(5):
        game = new_game(seed)
        for seat in (0, 1):
            assert len(view(game, seat)["me"]["hand"]) == 10
            assert view(game, seat)["me"]["deck_size"] == 20
        hands.add(tuple(view(game, 0)["me"]["hand"]))
    assert len(hands) == 5                       # shuffled: different seeds, different hands


def test_r2_1_4_mulligan_puts_cards_on_the_bottom_and_draws_back_to_ten():
    # A 12-card deck: after the opening draw only 2 cards remain, so what comes back from the
    # top must be those 2, and the 2 cards sent away (to the bottom) stay in the deck.
    small = deck(*DISTINCT[:12])
    game = Game(cards(), [small, small], seed=4, first_player=0)
    before = view(game, 0)["me"]
    sent = before["hand"][:2]
    remaining = set(DISTINCT[:12]) - set(before["hand"])
    act(game, Action("mulligan", 0), Action("mulligan", 1), KEEP)
    after = view(game, 0)["me"]
    assert len(after["hand"]) == 10
    assert remaining <= set(after["hand"])
    assert not set(sent) & set(after["hand"])
    assert sorted(after["deck_contents"]) == sorted(sent)


def test_r2_1_4_the_deck_is_shuffled_after_the_mulligan():
    game = new_game(seed=5)
    sent = view(game, 0)["me"]["hand"][:5]
    act(game, *(Action("mulligan", i) for i in range(5)), KEEP)
    deck_top_first = game.snapshot()["players"][0]["deck"]
    assert set(deck_top_first[-5:]) != set(sent)          # not simply left at the bottom
    assert set(sent) <= set(deck_top_first)


def test_r2_1_4_keeping_changes_nothing_and_both_players_may_mulligan():
    game = new_game(seed=6)
    hands = [view(game, s)["me"]["hand"] for s in (0, 1)]
    act(game, KEEP)
    assert game.decision.kind == "mulligan" and game.to_move == 1
    act(game, Action("mulligan", 3), KEEP)
    assert view(game, 0)["me"]["hand"] == hands[0]
    assert view(game, 1)["me"]["hand"] != hands[1]
    assert game.decision.kind == "setup"


def test_r2_1_5_players_place_any_number_face_down_in_turn_order():
    game = Game(cards(), [PLAIN, PLAIN], seed=7, first_player=1)
    act(game, KEEP, KEEP)
    assert (game.decision.kind, game.to_move) == ("setup", 1)
    assert {a.kind for a in game.legal_actions()} == {"place", "ready"}
    act(game, Action("place", 0, 0), Action("place", 0, 2), Action("place", 0, 4), READY)
    assert (game.decision.kind, game.to_move) == ("setup", 0)
    act(game, Action("place", 0, 1), READY)
    assert [m is not None for m in board(game, 1)] == [True, False, True, False, True]
    assert board(game, 1, viewer=0) == ["?", None, "?", None, "?"]   # face down
    assert board(game, 0, viewer=1) == [None, "?", None, None, None]
    assert all(not m["awake"] for m in view(game, 1)["me"]["minions"] if m)   # sleeping


def test_r2_1_5_only_minion_cards_may_be_placed():
    mixed = deck(*(["T-I02"] * 15 + ["F2"] * 15))
    game = Game(cards(), [mixed, mixed], seed=8, first_player=0)
    act(game, KEEP, KEEP)
    hand = view(game, 0)["me"]["hand"]
    placed = {hand[a.a] for a in game.legal_actions() if a.kind == "place"}
    assert placed == {"F2"}


def test_r2_1_6_a_player_without_minions_after_setup_loses():
    game = Game(cards(), [PLAIN, PLAIN], seed=9, first_player=0)
    act(game, KEEP, KEEP, Action("place", 0, 0), READY, READY)
    assert game.over and game.winner == 0 and game.result["reason"] == "no_minions"


def test_r2_1_6_both_without_minions_is_a_draw():
    game = Game(cards(), [PLAIN, PLAIN], seed=9, first_player=0)
    act(game, KEEP, KEEP, READY, READY)
    assert game.over and game.winner is None
    assert view(game, 0)["result"]["winner"] is None


def test_r2_1_6_with_minions_on_both_sides_the_first_turn_begins():
    game = Game(cards(), [PLAIN, PLAIN], seed=9, first_player=1)
    act(game, KEEP, KEEP, Action("place", 0, 0), READY, Action("place", 0, 3), READY)
    assert not game.over
    assert (game.decision.kind, game.to_move, game.turn) == ("main", 1, 1)
