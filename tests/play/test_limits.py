"""A game's size has bounds a designer would accept (R6.6, proven in
tests/rules/test_ruleset_bounds.py) and the site refuses a game beyond them, and the
hint has a cost cap, honours ``?seat=`` and says why the planner's pick is not the best-rated."""

from __future__ import annotations

import pytest

from play.ai import hint
from rules.engine.cards import RULESET_BOUNDS

pytestmark = pytest.mark.django_db


def test_a_game_of_400_slots_is_refused_with_the_bound(alice, client_for, catalogue):
    response = client_for(alice).post("/api/play/", {
        "deck": "starter:Dawn Test", "opponent_deck": "starter:Dusk Test",
        "ruleset": {"slots": 400}}, format="json")
    assert response.status_code == 400
    assert "10" in str(response.json()["ruleset"])


def test_the_rulebook_states_the_bounds():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "rules" / "RULES.md").read_text()
    for name, (_low, high) in RULESET_BOUNDS.items():
        assert f"`{name}`" in text and str(high) in text


def test_the_hint_honours_its_seat(alice, client_for, start):
    state = start(alice, opponent="human")
    client = client_for(alice)
    assert client.get(f"/api/play/{state['uid']}/hint/?seat=1").status_code == 400
    assert client.get(f"/api/play/{state['uid']}/hint/?seat=0").json()["seat"] == 0
    assert client.get(f"/api/play/{state['uid']}/hint/?seat=x").status_code == 400


def test_the_hint_stops_at_its_budget_and_says_so(alice, client_for, start, monkeypatch):
    monkeypatch.setattr(hint, "PLAYOUT_BUDGET", 3)
    state = start(alice)
    body = client_for(alice).get(f"/api/play/{state['uid']}/hint/").json()
    assert body["complete"] is False and body["note"]
    assert sum(c["games"] for c in body["candidates"]) <= 3 + 1


def test_the_hint_says_how_the_pick_is_chosen_when_it_is_not_the_best(alice, client_for, start,
                                                                     monkeypatch):
    state = start(alice)
    body = client_for(alice).get(f"/api/play/{state['uid']}/hint/").json()
    best = max(c["rating"] for c in body["candidates"])
    pick = next(c for c in body["candidates"] if c["planner_pick"])
    if pick["rating"] < best:
        assert "planner" in body["pick_note"]
    else:
        assert body["pick_note"] == ""
    original = hint.Candidate.rating
    monkeypatch.setattr(hint.Candidate, "rating", property(
        lambda c: 0.0 if c.pick else original.fget(c) + 0.5))
    body = client_for(alice).get(f"/api/play/{state['uid']}/hint/").json()
    assert "planner" in body["pick_note"]
