"""The play API as a client uses it: start, act, refuse, conflict, undo, restart, concede."""

from __future__ import annotations

import pytest

from play.engine.adapter import game_at
from play.errors import STALE
from play.models import PlayGame

pytestmark = pytest.mark.django_db


def _act(client, state, action):
    return client.post(f"/api/play/{state['uid']}/actions/",
                       {"version": state["version"], "action": action}, format="json")


def _first_choice(state):
    """A plain player: fills the board, awakens and attacks while it can, then ends the turn."""
    actions = [a["action"] for a in state["actions"]]
    for kind in ("keep", "place", "ready", "awaken", "attack", "end", "pass", "decline"):
        for action in actions:
            if action["kind"] == kind:
                return action
    return actions[0]


def test_a_seat_is_sent_its_own_view_and_nothing_of_the_other_hand(alice, start):
    state = start(alice)
    record = PlayGame.objects.get(uid=state["uid"])
    game = game_at(record)
    assert state["view"] == {**game.view(0).to_dict(), "legal_actions": state["view"][
        "legal_actions"]}
    assert "hand" not in state["view"]["enemy"]
    assert state["view"]["enemy"]["hand_size"] == len(game.players[1].hand)
    assert [a["action"] for a in state["actions"]] == [a.to_dict() for a in game.legal_actions()]
    assert all(a["label"] for a in state["actions"])


def test_a_whole_game_against_greedy_is_played_through_the_api(alice, client_for, start):
    client = client_for(alice)
    state = start(alice)
    for _ in range(600):
        if state["status"] != "playing":
            break
        response = _act(client, state, _first_choice(state))
        assert response.status_code == 200, response.json()
        state = response.json()
    record = PlayGame.objects.get(uid=state["uid"])
    assert record.status == "finished"
    assert record.result == game_at(record).result          # the stored actions replay it
    assert state["log"][-1]["text"].startswith("Game over")


def test_an_action_the_engine_refuses_is_a_400_naming_it(alice, client_for, start):
    state = start(alice)
    response = _act(client_for(alice), state, {"kind": "attack", "slot": 0, "target": "hero"})
    assert response.status_code == 400
    message = response.json()["action"][0]
    assert "attack(slot=0, target=hero)" in message and "keep()" in message
    bad = _act(client_for(alice), state, {"kind": "fly"})
    assert bad.status_code == 400 and "fly" in bad.json()["action"]["kind"][0]


def test_a_stale_version_is_a_409_with_the_fresh_state(alice, client_for, start):
    client = client_for(alice)
    state = start(alice)
    first = _act(client, state, _first_choice(state))
    assert first.status_code == 200
    second = _act(client, state, _first_choice(state))       # the other tab's old version
    assert second.status_code == 409
    assert second.json()["detail"] == str(STALE)
    assert second.json()["state"]["version"] == first.json()["version"]


def test_another_users_game_is_a_404(alice, bob, client_for, start):
    state = start(alice)
    assert client_for(bob).get(f"/api/play/{state['uid']}/").status_code == 404
    assert _act(client_for(bob), state, {"kind": "keep"}).status_code == 404


def _play_until_turn(client, state, turns):
    while state["view"]["turn"] < turns and state["status"] == "playing":
        state = _act(client, state, _first_choice(state)).json()
    return state


def test_undo_goes_back_to_the_start_of_your_turn(alice, client_for, start):
    client = client_for(alice)
    state = _play_until_turn(client, start(alice), 3)
    assert state["view"]["active"] == 0 and state["can_undo"] is False     # nothing done yet
    turn_start = state["steps"]
    move = next(a["action"] for a in state["actions"] if a["action"]["kind"] != "end")
    state = _act(client, state, move).json()
    assert state["can_undo"]
    undone = client.post(f"/api/play/{state['uid']}/undo/", {"version": state["version"]},
                         format="json")
    assert undone.status_code == 200
    assert undone.json()["steps"] == turn_start
    assert undone.json()["can_undo"] is False
    assert len(PlayGame.objects.get(uid=state["uid"]).actions) == turn_start


def test_restart_replays_the_same_game_from_the_same_seed(alice, client_for, start):
    client = client_for(alice)
    state = _play_until_turn(client, start(alice), 3)
    before = PlayGame.objects.get(uid=state["uid"]).actions
    restarted = client.post(f"/api/play/{state['uid']}/restart/",
                            {"version": state["version"]}, format="json").json()
    assert restarted["steps"] == 0
    replayed = _play_until_turn(client, restarted, 3)
    assert PlayGame.objects.get(uid=state["uid"]).actions == before
    assert replayed["view"] == state["view"]


def test_conceding_ends_the_game_for_the_other_seat(alice, client_for, start):
    client = client_for(alice)
    state = start(alice)
    response = client.post(f"/api/play/{state['uid']}/concede/",
                           {"version": state["version"]}, format="json")
    assert response.json()["status"] == "conceded"
    assert response.json()["result"]["winner"] == 1
    assert _act(client, response.json(), {"kind": "keep"}).status_code == 400


def test_the_hint_names_the_planners_pick_among_rated_candidates(alice, client_for, start):
    client = client_for(alice)
    state = _play_until_turn(client, start(alice), 3)
    hint = client.get(f"/api/play/{state['uid']}/hint/").json()
    candidates = hint["candidates"]
    assert sum(c["planner_pick"] for c in candidates) == 1
    ratings = [c["rating"] for c in candidates]
    assert ratings == sorted(ratings, reverse=True)
    assert all(0 <= r <= 1 and c["games"] >= 16 and c["label"]
               for r, c in zip(ratings, candidates, strict=True))
    legal = [a["action"] for a in state["actions"]]
    assert all(c["action"] in legal for c in candidates)


def test_starting_with_an_unknown_deck_or_agent_names_the_field(alice, client_for, catalogue):
    client = client_for(alice)
    response = client.post("/api/play/", {"deck": "starter:Nope", "opponent_deck": "x"},
                           format="json")
    assert response.status_code == 400 and "deck" in response.json()
    response = client.post("/api/play/", {"deck": "starter:Dawn Test",
                                          "opponent_deck": "starter:Dusk Test",
                                          "ruleset": {"slots": "five"}}, format="json")
    assert response.status_code == 400 and "slots" in str(response.json())


def test_the_agents_moves_are_the_same_at_the_same_point(alice, client_for, start):
    """Same decks, seed and person's moves ⇒ the same agent moves (its random source is seeded
    from the game's seed and the step)."""
    client = client_for(alice)
    one = _play_until_turn(client, start(alice, opponent="planner"), 4)
    two = _play_until_turn(client, start(alice, opponent="planner"), 4)
    a = PlayGame.objects.get(uid=one["uid"]).actions
    b = PlayGame.objects.get(uid=two["uid"]).actions
    assert a == b and len(a) > 20


def test_a_request_that_finds_an_agent_to_move_sets_it_playing(alice, client_for, catalogue):
    """A game left with the agent to move (its process stopped before it moved) goes on when
    the page or the API next reads it."""
    from play import services
    from play.ai.turn import agent_to_move
    from simulations.sources import resolve_spec

    deck, _row = resolve_spec("starter:Dawn Test")
    other, _row = resolve_spec("starter:Dusk Test")
    record = services.play_start(owner=alice, deck=deck, opponent_deck=other,
                                 opponent="greedy", first="opponent", seed=3)
    assert record.actions == [] and agent_to_move(record) == "greedy"
    state = client_for(alice).get(f"/api/play/{record.uid}/").json()
    assert state["agent_to_move"] is None and state["steps"] > 0
    assert state["actions"]                                    # now it is the person's turn
