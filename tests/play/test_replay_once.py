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


def test_an_earlier_step_is_rebuilt_from_the_kept_snapshots(alice, client_for, start, replays):
    """``?step=`` (the page stepping through the AI's moves): a step after the setup is rebuilt
    from the snapshots kept with the replayed game, replaying nothing from the start; only the
    setup's few steps, before any snapshot holds the whole game, start from the decks.
    (tests/play/test_step_from_snapshots.py: it reads exactly as the game replayed.)"""
    client, state = _played(alice, client_for, start)
    uid, steps = state["uid"], state["steps"]
    assert steps > 20
    client.get(f"/api/play/{uid}/")                           # the game replayed and kept
    from_start = []
    for step in range(steps):
        before = replays["replays"]
        assert client.get(f"/api/play/{uid}/?step={step}").status_code == 200
        if replays["replays"] != before:
            from_start.append(step)
    from play.engine.adapter import game_history
    from play.models import PlayGame

    first_whole = min(game_history(PlayGame.objects.get(uid=uid)).marks)   # the first turn's
    assert from_start == list(range(first_whole)), from_start              # main phase
