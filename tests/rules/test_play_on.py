"""Play on from a position: the new start keeps what a seat could see and deals anew every card
it could not (``rules.engine.play_on``), never the real hidden cards.

Rules: R1.1 (hidden zones: the enemy hand, decks' order, face-down minions), R2.1.3 (decks are
shuffled), R2.1.5 (a minion placed face down is unknown to the enemy until revealed)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rules.ai.agents import make_agent
from rules.engine import Game
from rules.engine.play_on import (
    GAME_OVER,
    NOT_MAIN,
    NOTHING_SHOWN,
    PlayOnRefused,
    SeatKnowledge,
    play_on_snapshot,
    shown_cards,
)
from tests.rules.helpers import TEST

DECKS = list(TEST.decks.values())


def positions(seed: int) -> list[tuple[dict, dict, dict]]:
    """Every main-phase position of a greedy game: (snapshot, P1's view, P2's view)."""
    game = Game(TEST.cards, DECKS[:2], seed=seed)
    agents = [make_agent("greedy"), make_agent("greedy")]
    rngs = [random.Random(seed), random.Random(seed + 1)]
    found = []
    while not game.over:
        if game.decision is not None and game.decision.kind == "main":
            found.append((game.snapshot(), game.view(0).to_dict(), game.view(1).to_dict()))
        seat = game.to_move
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(), rngs[seat]))
    return found


def knowing(seat: int, *, list_known: bool = True) -> list[SeatKnowledge]:
    """The person plays ``seat``: the other seat's cards are hidden, its list known or not."""
    other = 1 - seat
    hidden = SeatKnowledge(hidden=True,
                           deck_list=DECKS[other].counts() if list_known else None)
    return [SeatKnowledge(hidden=False), hidden] if seat == 0 else [hidden,
                                                                    SeatKnowledge(hidden=False)]


def hidden_of(snapshot: dict, seat: int) -> dict:
    player = snapshot["players"][seat]
    return {"hand": player["hand"], "deck": player["deck"],
            "face_down": [m and (None if m["public"] else m["card"]) for m in player["minions"]]}


@pytest.fixture(scope="module")
def game_positions():
    return positions(3)


def test_r1_1_the_new_game_shows_each_seat_what_it_saw(game_positions):
    """Rule: R1.1 — built from the seat's knowledge, the new game's view of that seat (heroes,
    life, energy, hand, face-up minions, displays, graveyards, turn, whose decision, legal
    actions) equals the old game's at that step."""
    rng = random.Random(1)
    for snapshot, *views in game_positions[::3]:
        for seat in (0, 1):
            start = play_on_snapshot(snapshot, cards=TEST.cards, seats=knowing(seat), rng=rng)
            new = Game.from_snapshot(start, TEST.cards, seed=rng.randrange(1 << 30))
            assert new.view(seat).to_dict() == views[seat]


def test_r2_1_5_hidden_cards_are_dealt_from_the_list_less_what_was_shown(game_positions):
    """Rule: R2.1.5 — face-down enemy minions, the enemy hand and deck are dealt from the enemy
    list less its shown cards (face-down ones from its minions), never read from the game; over
    many seeds they are not always the real ones."""
    differs = 0
    for number, (snapshot, *_views) in enumerate(game_positions):
        real = hidden_of(snapshot, 1)
        start = play_on_snapshot(snapshot, cards=TEST.cards, seats=knowing(0),
                                 rng=random.Random(number))
        dealt = hidden_of(start, 1)
        face_down = [c for c in dealt["face_down"] if c]
        left = Counter(DECKS[1].counts()) - Counter(shown_cards(snapshot["players"][1]))
        assert not Counter(dealt["hand"] + dealt["deck"] + face_down) - left
        assert all(TEST.cards[c].kind == "minion" for c in face_down)
        assert len(dealt["hand"]) == len(real["hand"]) and len(dealt["deck"]) == len(real["deck"])
        assert [c is None for c in dealt["face_down"]] == [c is None for c in real["face_down"]]
        differs += dealt != real
    assert differs > len(game_positions) * 0.9


def test_r1_1_the_deal_does_not_read_the_hidden_cards(game_positions):
    """Rule: R1.1 — two positions that differ only in the enemy's hidden cards give the same new
    game for the same seed."""
    snapshot = game_positions[len(game_positions) // 2][0]
    other = json.loads(json.dumps(snapshot))
    enemy = other["players"][1]
    enemy["hand"].reverse()
    enemy["deck"].reverse()
    first = play_on_snapshot(snapshot, cards=TEST.cards, seats=knowing(0), rng=random.Random(5))
    second = play_on_snapshot(other, cards=TEST.cards, seats=knowing(0), rng=random.Random(5))
    assert first == second


def test_r2_1_3_the_own_deck_keeps_its_cards_in_a_new_order(game_positions):
    """Rule: R2.1.3 — the seat's own remaining deck: the same cards, shuffled anew."""
    snapshot = next(s for s, *_ in game_positions if len(s["players"][0]["deck"]) > 10)
    orders = set()
    for seed in range(10):
        start = play_on_snapshot(snapshot, cards=TEST.cards, seats=knowing(0),
                                 rng=random.Random(seed))
        mine = start["players"][0]
        assert sorted(mine["deck"]) == sorted(snapshot["players"][0]["deck"])
        assert mine["hand"] == snapshot["players"][0]["hand"]
        orders.add(tuple(mine["deck"]))
    assert len(orders) > 5


def test_r1_1_an_unknown_list_is_guessed_from_the_cards_shown(game_positions):
    """Rule: R1.1 — a list kept hidden (a game between people): the hidden cards are cards the
    seat has shown; with nothing shown there is nothing to deal from."""
    snapshot = game_positions[-1][0]
    shown = shown_cards(snapshot["players"][1])
    seats = [SeatKnowledge(hidden=False), SeatKnowledge(hidden=True, shown=shown)]
    start = play_on_snapshot(snapshot, cards=TEST.cards, seats=seats, rng=random.Random(2))
    dealt = hidden_of(start, 1)
    assert set(dealt["hand"] + dealt["deck"]) <= set(shown)
    with pytest.raises(PlayOnRefused) as refused:
        play_on_snapshot(game_positions[0][0], cards=TEST.cards, rng=random.Random(2),
                         seats=[SeatKnowledge(hidden=False), SeatKnowledge(hidden=True)])
    assert refused.value.code == NOTHING_SHOWN


def test_r2_1_5_a_position_in_the_setup_or_after_the_end_is_refused():
    """Rule: R2.1.5 — the setup's placements are not a main-phase position; an ended game has
    no move left."""
    game = Game(TEST.cards, DECKS[:2], seed=1)
    with pytest.raises(PlayOnRefused) as refused:
        play_on_snapshot(game.snapshot(), cards=TEST.cards, seats=knowing(0),
                         rng=random.Random(1))
    assert refused.value.code == NOT_MAIN
    ended = {**positions(4)[-1][0], "result": {"winner": 0}}
    with pytest.raises(PlayOnRefused) as refused:
        play_on_snapshot(ended, cards=TEST.cards, seats=knowing(0), rng=random.Random(1))
    assert refused.value.code == GAME_OVER
