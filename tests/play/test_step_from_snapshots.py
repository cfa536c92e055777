"""An earlier step (``?step=``) is rebuilt from the kept snapshots
(``play.engine.adapter.game_at_step``): the nearest step whose snapshot holds the whole game,
given the random-number state the game had there, then the actions up to the step asked. At
every step of whole games — agents of each kind, effects that ask for choices and effects
drawn at random — it is exactly the game replayed from its start (``game_at``): the same true
state, the same view for both seats, the same legal actions; through the API, the same answer
for both seats, log included."""

from __future__ import annotations

import itertools
import random
from types import SimpleNamespace
from typing import Any

import pytest

from play.engine import adapter as engine_adapter
from play.engine.adapter import History, game_at, game_at_step, game_history
from rules.ai.agents import make_agent
from rules.decks.cardset import CORE_SET, load_card_set
from rules.engine import Game
from rules.engine.cards import STANDARD
from tests.play.test_api import _act, _first_choice
from tests.play.test_friends import game_between

# (agent in seat 0, agent in seat 1, pairing of the core set's starter decks): decks whose
# effects ask for choices (a card to pick, a target, a discard) and draw at random (a random
# enemy destroyed, a random discard), played by each kind of agent.
AGENT_GAMES = [("greedy", "greedy", 12), ("greedy", "greedy", 2), ("learned", "greedy", 14),
               ("greedy", "random", 16), ("lean", "greedy", 1), ("random", "learned", 7)]
# What an effect asks for in the middle of a turn (not a main-phase or setup decision).
EFFECT_DECISIONS = {"pick", "choose", "optional", "replenish", "discard", "target"}


def _played(agents: tuple[str, str], number: int) -> SimpleNamespace:
    """A whole game of two agents over a pair of the core set's decks, as a play record has
    it (its cards as data, its actions as data)."""
    cs = load_card_set(CORE_SET)
    deck_a, deck_b = list(itertools.permutations(sorted(cs.decks), 2))[number]
    seed, first = 1000 + number, number % 2
    decks = [cs.deck(deck_a), cs.deck(deck_b)]
    game = Game(cs.cards, decks, seed=seed, first_player=first, log=False)
    rngs = (random.Random(seed), random.Random(seed + 1))
    game.play_out((make_agent(agents[0]), make_agent(agents[1])), rngs, 2000)
    assert game.result is not None
    return SimpleNamespace(uid=None, version=None, start=None, seed=seed, first_player=first,
                           cards={code: card.to_dict() for code, card in cs.cards.items()},
                           decks=[d.to_dict() for d in decks], ruleset=STANDARD.to_dict(),
                           actions=[a.to_dict() for a in game.actions])


def _rebuilt(record: SimpleNamespace, history: History, step: int) -> dict[str, Any] | str:
    try:
        return _seen(game_at_step(record, history, step))
    except (IndexError, ValueError) as error:      # a game gone astray plays an illegal move
        return repr(error)


def _seen(game: Game) -> dict[str, Any]:
    return {"snapshot": game.snapshot(), "views": [game.view(s).to_dict() for s in (0, 1)],
            "legal": [a.to_dict() for a in game.legal_actions()] if game.decision else []}


@pytest.fixture(scope="module")
def records() -> list[SimpleNamespace]:
    return [_played((a, b), number) for a, b, number in AGENT_GAMES]


def test_every_step_rebuilt_from_the_snapshots_is_the_game_replayed(records):
    asked: set[str] = set()
    for record in records:
        history = game_history(record)
        assert history.marks, "a whole game has main-phase steps to rebuild from"
        for step in range(history.steps):
            assert _seen(game_at_step(record, history, step)) == _seen(game_at(record, step)), step
            asked.add((history.snapshots[step].get("decision") or {}).get("kind"))
    assert asked & EFFECT_DECISIONS, f"the games make effects ask for choices: {asked}"


def test_the_rebuilt_game_draws_the_random_numbers_the_game_drew(records, monkeypatch):
    """The snapshots carry no random-number state: rebuilt with the generator restarted from
    the game's seed, the steps after a random draw (a shuffle, a random discard or target)
    differ from the game that was played — which is why the state is kept beside them."""
    monkeypatch.setattr(engine_adapter, "rng_unpack", lambda state: random.Random(0))
    differ = 0
    for record in records:
        history = game_history(record)
        differ += sum(_rebuilt(record, history, step) != _seen(game_at(record, step))
                      for step in range(history.steps))
    assert differ > 0


def _steps_both_ways(client, uid: str, seats: tuple[int, ...], monkeypatch) -> None:
    """Every step of the game read through the API, for each seat: rebuilt from the snapshots,
    and replayed from the start."""
    from play.seat import state as seat_state_module

    steps = client.get(f"/api/play/{uid}/").json()["steps"]
    assert steps > 20

    def read() -> list[dict[str, Any]]:
        reads = [client.get(f"/api/play/{uid}/", {"step": step, "seat": seat}).json()
                 for step in range(steps + 1) for seat in seats]
        for answer in reads:
            (answer["clock"] or {}).pop("now", None)        # the server's clock, read anew
        return reads

    rebuilt = read()
    with monkeypatch.context() as replaying:
        replaying.setattr(seat_state_module, "game_at_step",
                          lambda record, history, step: game_at(record, step))
        assert read() == rebuilt


@pytest.mark.django_db
@pytest.mark.parametrize("opponent", ["greedy", "lean", "human"])
def test_the_api_reads_every_step_as_before(alice, client_for, start, opponent, monkeypatch):
    client = client_for(alice)
    state = start(alice, opponent=opponent, seed=11)
    for _ in range(40):
        if state["status"] != "playing" or not state["actions"]:
            break
        state = _act(client, state, _first_choice(state)).json()
    seats = (0, 1) if opponent == "human" else (0,)
    _steps_both_ways(client, state["uid"], seats, monkeypatch)


@pytest.mark.django_db
def test_a_game_between_people_reads_every_step_as_before(alice, bob, client_for, monkeypatch):
    clients = {0: client_for(alice), 1: client_for(bob)}
    state = game_between(client_for, alice, bob)
    uid = state["uid"]
    for _ in range(40):
        seat = next((s for s in (0, 1)
                     if clients[s].get(f"/api/play/{uid}/").json()["actions"]), None)
        if seat is None:
            break
        state = clients[seat].get(f"/api/play/{uid}/").json()
        if state["status"] != "playing":
            break
        assert _act(clients[seat], state, _first_choice(state)).status_code == 200
    for seat, client in clients.items():
        _steps_both_ways(client, uid, (seat,), monkeypatch)
