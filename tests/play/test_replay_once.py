"""A play request replays the game at most once: the replayed game is kept per (game, version),
and a change stores the game it played on, so the state read after it (and every agent move)
replays nothing; the card definitions are built once per game."""

from __future__ import annotations

import pytest

from play.engine import adapter as engine_adapter
from tests.play.test_api import _act, _first_choice

pytestmark = pytest.mark.django_db


@pytest.fixture
def replays(monkeypatch):
    counted = {"replays": 0, "cards": 0}
    start, defs = engine_adapter.record_start, engine_adapter.card_defs

    def counting_start(record):
        counted["replays"] += 1
        return start(record)

    def counting_defs(cards):
        counted["cards"] += 1
        return defs(cards)

    monkeypatch.setattr(engine_adapter, "record_start", counting_start)
    monkeypatch.setattr(engine_adapter, "card_defs", counting_defs)
    return counted


def test_an_action_with_the_agents_reply_replays_the_game_at_most_once(alice, client_for, start,
                                                                       replays):
    client = client_for(alice)
    state = start(alice)
    for _ in range(12):                   # the mulligan, the setup and a turn with the reply
        before = replays["replays"]
        response = _act(client, state, _first_choice(state))
        assert response.status_code == 200
        assert replays["replays"] - before <= 1, replays
        state = response.json()
        before = replays["replays"]
        assert client.get(f"/api/play/{state['uid']}/").status_code == 200
        assert replays["replays"] == before           # a read after a change: nothing replayed
    assert replays["cards"] <= 2                      # the start's check, then once for the game


def _played(alice, client_for, start, moves=30):
    """A game against the agent some turns in: the person plays the first legal choice."""
    client = client_for(alice)
    state = start(alice)
    for _ in range(moves):
        if state["status"] != "playing" or not state["actions"]:
            break
        state = _act(client, state, _first_choice(state)).json()
    return client, state


def test_an_earlier_step_is_read_from_its_kept_snapshot(alice, client_for, start, replays,
                                                        monkeypatch):
    """``?step=`` (the page stepping through the AI's moves): a step at a main-phase decision
    is built from the snapshot kept for it, replaying nothing, and reads exactly as the game
    replayed to that step; any other step is replayed, as before."""
    client, state = _played(alice, client_for, start)
    uid, steps = state["uid"], state["steps"]
    assert steps > 20
    client.get(f"/api/play/{uid}/")                           # the game replayed and kept
    from_snapshots, from_snapshot_steps = [], 0
    for step in range(steps):
        before = replays["replays"]
        read = client.get(f"/api/play/{uid}/?step={step}").json()
        from_snapshot_steps += replays["replays"] == before
        from_snapshots.append(read)
    assert from_snapshot_steps > steps // 3, "most steps of a game stand in its main phase"
    from play.seat import state as seat_state_module

    monkeypatch.setattr(seat_state_module, "game_of_snapshot", lambda record, snapshot: None)
    before = replays["replays"]
    replayed = [client.get(f"/api/play/{uid}/?step={step}").json() for step in range(steps)]
    assert replays["replays"] - before == steps                # each step replayed this time
    assert from_snapshots == replayed
