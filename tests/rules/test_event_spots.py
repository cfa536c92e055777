"""The log says which minion an event is about, not only its card: a reader that may not see a
face-down minion must not learn its name from another copy of the card (R4.1)."""

from __future__ import annotations

from rules.decks.cardset import TEST_SET, load_card_set
from rules.engine import Game


def test_r4_1_a_buff_logs_the_spot_of_each_minion_it_reaches():
    """Rule: R4.1 — Battle Cry reaches an awake and a face-down Banner Knight: each event names
    its [player, slot], so a reader tells the face-down one apart."""
    cards = load_card_set(TEST_SET).cards
    game = Game.from_snapshot({"players": [
        {"hero": "T-H01", "hand": ["T-I03"], "energy": 5,
         "minions": [{"card": "T-M08", "awake": True}, None, {"card": "T-M08"}]},
        {"hero": "T-H02", "minions": [{"card": "T-M02"}]}]}, cards)
    game.apply({"kind": "item", "card": 0})
    changes = [e for e in game.events if e["t"] == "attack_change"]
    assert [(e["card"], e["at"]) for e in changes] == [("T-M08", [0, 0]), ("T-M08", [0, 2])]
