"""A seat learns of the other seat's minions only what it may see (a face-down minion is
hidden from the other player until it is awakened or revealed, R4.1): its state and its log
name a minion only if that seat knows that minion, not when another copy of the card is known."""

from __future__ import annotations

import copy

import pytest

from play.models import HUMAN, PlayGame
from simulations.sources import cards_freeze

pytestmark = pytest.mark.django_db

BANNER, CRY = "T-M08", "T-I03"
RALLY = "T-X01"          # an item of the test's own: every ally +1 attack for good and Shield


def _rally(cards):
    data = copy.deepcopy(cards[CRY])
    data.update(code=RALLY, cost=0, name_en="Rally", name_zh="集结", name="Rally")
    data["abilities"] = [{"trigger": "use", "effects": [
        {"do": "attack", "amount": 1, "target": {"pick": "all", "side": "ally"},
         "duration": "permanent"},
        {"do": "grant_keyword", "keyword": "shield", "target": {"pick": "all", "side": "ally"},
         "duration": "permanent"}]}]
    return data


def _mirror(alice):
    deck = {"name": "Banners", "hero": "T-H01", "cards": {BANNER: 2, CRY: 1}}
    cards = cards_freeze([deck])
    cards[RALLY] = _rally(cards)
    deck = {**deck, "cards": {BANNER: 12, RALLY: 8}}
    return PlayGame.objects.create(owner=alice, decks=[deck, dict(deck)], cards=cards,
                                   seats=[HUMAN, HUMAN], seed=11, ruleset={}, first_player=0)


def _act(client, uid, version, action, seat):
    response = client.post(f"/api/play/{uid}/actions/",
                           {"version": version, "action": action}, format="json")
    assert response.status_code == 200, response.json()
    return client.get(f"/api/play/{uid}/?seat={seat}").json()


def _play_until_rally(client, record):
    """Both seats keep, place Banner Knights face down and get ready; P1 ends its turn; P2 plays
    Rally. Returns the step where Rally was played."""
    state = client.get(f"/api/play/{record.uid}/").json()
    for _ in range(200):
        seat = state["seat"]
        actions = [a["action"] for a in state["actions"]]
        kinds = {a["kind"] for a in actions}
        if seat == 1 and "item" in kinds and state["view"]["turn"] >= 1:
            step = state["steps"]
            item = next(a for a in actions if a["kind"] == "item")
            _act(client, record.uid, state["version"], item, 1)
            return step
        for kind in ("keep", "place", "ready", "end", "pass"):
            chosen = next((a for a in actions if a["kind"] == kind), None)
            if chosen:
                break
        assert chosen, actions
        state = _act(client, record.uid, state["version"], chosen, seat)
        state = client.get(f"/api/play/{record.uid}/").json()
    raise AssertionError("Rally was never played")


def test_the_other_seat_never_reads_the_name_of_a_face_down_minion_a_buff_reaches(
        alice, client_for, catalogue):
    """Rule: R4.1 — a sleeping minion is face down, unknown to the other player: P2's Rally
    buffs its face-down Banner Knights; P1 knows the card Banner Knight (its own hand and board
    hold copies) but not those minions."""
    client = client_for(alice)
    record = _mirror(alice)
    step = _play_until_rally(client, record)
    p1 = client.get(f"/api/play/{record.uid}/?seat=0").json()
    p2 = client.get(f"/api/play/{record.uid}/?seat=1").json()
    mine = [e["text"] for e in p2["log"] if e["step"] > step]
    theirs = [e["text"] for e in p1["log"] if e["step"] > step]
    assert "Banner Knight: attack +1 permanently." in mine       # P2 knows its own minions
    assert "Banner Knight gains Shield." in mine
    hidden = [m for m in p1["view"]["enemy"]["minions"] if m and m.get("hidden")]
    assert hidden, "P2's Banner Knights are face down for P1"
    assert not [t for t in theirs if "Banner Knight" in t], theirs
    assert "An unknown card gains Shield." in theirs or "an unknown card" in " ".join(theirs)
    # The state sent to P1 says nothing of them either.
    assert "Banner Knight" not in str(p1["view"]["enemy"])
    assert "shield" not in str(p1["view"]["enemy"]["minions"])
