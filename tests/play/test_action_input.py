"""An action sent to the play API is read strictly: the right JSON types, no unknown keys, no
number too large, the hero named "hero" — a 400 naming the field, never a 500 or a guess."""

from __future__ import annotations

import pytest

from tests.play.test_api import _act

pytestmark = pytest.mark.django_db


def _refused(client, state, action, raw=None):
    if raw is not None:
        response = client.post(f"/api/play/{state['uid']}/actions/", raw,
                               content_type="application/json")
    else:
        response = _act(client, state, action)
    assert response.status_code == 400, (action, response.status_code)
    return response.json()["action"]


def test_a_number_too_large_for_the_engine_is_a_400_not_a_500(alice, client_for, start):
    state = start(alice)
    raw = '{"version": VERSION, "action": {"kind": "mulligan", "card": 1e400}}'.replace(
        "VERSION", str(state["version"]))
    problems = _refused(client_for(alice), state, None, raw=raw)
    assert "card" in problems, problems


@pytest.mark.parametrize("value", [0.9, "0", True, None, [0], 10 ** 40, -1])
def test_a_card_of_the_wrong_type_or_range_is_refused_naming_the_field(alice, client_for, start,
                                                                        value):
    state = start(alice)
    problems = _refused(client_for(alice), state, {"kind": "mulligan", "card": value})
    assert list(problems) == ["card"], problems
    assert "0" in problems["card"][0] and "whole number" in problems["card"][0]


def test_unknown_and_missing_keys_are_refused(alice, client_for, start):
    state = start(alice)
    client = client_for(alice)
    extra = _refused(client, state, {"kind": "keep", "card": 0})
    assert "card" in extra and "keep" in extra["card"][0]
    missing = _refused(client, state, {"kind": "mulligan"})
    assert "card" in missing
    no_kind = _refused(client, state, {"card": 0})
    assert "kind" in no_kind
    wrong_kind = _refused(client, state, {"kind": 3})
    assert "kind" in wrong_kind
    not_an_object = client.post(f"/api/play/{state['uid']}/actions/",
                                {"version": state["version"], "action": ["keep"]}, format="json")
    assert not_an_object.status_code == 400 and "action" in not_an_object.json()


def test_the_hero_is_named_hero_not_minus_one(alice, client_for, start):
    state = start(alice)
    problems = _refused(client_for(alice), state, {"kind": "attack", "slot": 0, "target": -1})
    assert list(problems) == ["target"] and '"hero"' in problems["target"][0]
    hero = _act(client_for(alice), state, {"kind": "attack", "slot": 0, "target": "hero"})
    assert hero.status_code == 400 and "attack(slot=0, target=hero)" in hero.json()["action"][0]


def test_the_page_refuses_a_bad_action_with_the_board_and_a_400(alice, client, start):
    state = start(alice)
    client.force_login(alice)
    response = client.post(f"/play/{state['uid']}/act/", {
        "version": state["version"], "action": '{"kind": "mulligan", "card": 1e400}'})
    assert response.status_code == 400


def test_the_schema_describes_an_action_exactly(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    body = schema["components"]["schemas"]["ActInputRequest"]["properties"]["action"]
    assert body["additionalProperties"] is False
    assert "hero" in str(body["properties"]["target"])
    assert body["properties"]["card"]["type"] == "integer"
