"""The game's own rules as a person meets them on the play API: the setup (R2.1) and the
optional skills (R6.1), each choice offered from the engine's legal actions."""

from __future__ import annotations

import pytest

from play.models import PlayGame
from play.services import play_act
from rules.engine import Action

pytestmark = pytest.mark.django_db


def test_setup_asks_mulligan_then_placing_then_ready(alice, client_for, start):
    """Rule: R2.1.3, R2.1.4, R2.1.5"""
    state = start(alice, opponent="human")
    assert state["view"]["phase"] == "mulligan"
    assert len(state["view"]["me"]["hand"]) == 10                      # R2.1.3
    kinds = {a["action"]["kind"] for a in state["actions"]}
    assert kinds == {"mulligan", "keep"}                               # R2.1.4
    client = client_for(alice)
    uid = state["uid"]
    while state["view"]["phase"] == "mulligan":
        state = client.post(f"/api/play/{uid}/actions/", {"version": state["version"],
                            "action": {"kind": "keep"}}, format="json").json()
    assert state["view"]["phase"] == "setup"
    kinds = {a["action"]["kind"] for a in state["actions"]}
    assert "place" in kinds                                            # R2.1.5
    assert all(a["action"]["slot"] in range(5) for a in state["actions"]
               if a["action"]["kind"] == "place")


def test_a_face_down_placement_is_an_unknown_card_in_the_other_seats_log(alice, client_for,
                                                                          start):
    """Rule: R2.1.5 (placed face down: the other player does not learn the card)"""
    client = client_for(alice)
    state = start(alice, opponent="human", first="opponent")
    uid = state["uid"]
    while state["view"]["phase"] != "main":
        choice = next(a["action"] for a in state["actions"]
                      if a["action"]["kind"] in ("keep", "place", "ready")
                      and (a["action"]["kind"] != "ready" or len(state["actions"]) == 1
                           or state["view"]["me"]["minions"].count(None) < 3))
        state = client.post(f"/api/play/{uid}/actions/", {"version": state["version"],
                            "action": choice}, format="json").json()
    record = PlayGame.objects.get(uid=uid)
    for seat in (0, 1):
        log = client.get(f"/api/play/{uid}/", {"seat": seat}).json()["log"]
        places = [line["text"] for line in log if " face down in slot " in line["text"]]
        mine = [t for t in places if t.startswith(f"P{seat + 1} ")]
        theirs = [t for t in places if not t.startswith(f"P{seat + 1} ")]
        assert mine and theirs
        assert all("an unknown card" in t for t in theirs)
        assert not any("an unknown card" in t for t in mine)
    assert record.hot_seat


def _optional_game(alice, start, ruleset=None):
    """A hot-seat game played by the seeded greedy choices until a person is offered an
    awaken skill or last words."""
    from play.engine.adapter import agent_rng, game_at
    from rules.ai.agents import make_agent

    for seed in range(1, 40):
        state = start(alice, opponent="human", seed=seed, ruleset=ruleset or {})
        record = PlayGame.objects.get(uid=state["uid"])
        greedy = make_agent("greedy")
        for _ in range(400):
            game = game_at(record)
            if game.over:
                break
            if game.decision.kind == "optional":
                return record, game
            seat = game.to_move
            action = greedy.choose(game.view(seat), game.legal_actions(),
                                   agent_rng(seed, len(record.actions)))
            record = play_act(record=record, action=action, version=record.version)
    return None, None


def test_an_optional_skill_is_offered_as_use_or_decline(alice, client_for, start):
    """Rule: R6.1"""
    record, game = _optional_game(alice, start)
    assert record is not None, "no seed offered an optional skill"
    seat = game.to_move
    state = client_for(alice).get(f"/api/play/{record.uid}/", {"seat": seat}).json()
    assert [a["action"] for a in state["actions"]] == [{"kind": "use"}, {"kind": "decline"}]
    assert state["view"]["offer"]["trigger"] in ("awaken", "last_words")
    declined = client_for(alice).post(f"/api/play/{record.uid}/actions/", {
        "version": state["version"], "action": {"kind": "decline"}}, format="json").json()
    assert any("declined" in line["text"] for line in declined["log"])
    assert Action("decline") == Action.from_dict(PlayGame.objects.get(uid=record.uid)
                                                 .actions[-1])


def test_with_always_use_optional_skills_nobody_is_asked(alice, start):
    """Rule: R6.1 (ruleset option always_use_optional_skills)"""
    record, _game = _optional_game(alice, start, {"always_use_optional_skills": True})
    assert record is None
