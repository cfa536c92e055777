"""The deck API answers what its schema documents: the statuses and bodies of each operation."""

from __future__ import annotations

from rest_framework.test import APIClient


def test_taking_back_a_favourite_answers_the_status_and_body_the_schema_documents(
        client, alice, bob, make_deck):
    deck = make_deck(alice, visibility="public")
    api = APIClient()
    api.force_authenticate(bob)
    api.put(f"/api/decks/{deck.uid}/favourite/")
    answer = api.delete(f"/api/decks/{deck.uid}/favourite/")
    schema = client.get("/api/schema/?format=json").json()
    documented = schema["paths"]["/api/decks/{uid}/favourite/"]["delete"]["responses"]
    assert str(answer.status_code) in documented
    assert answer.json() == {"favourite": False, "favourite_count": 0}
    body = documented[str(answer.status_code)]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/Favourite"}
