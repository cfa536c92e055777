"""Other games on the site, as a user meets them: a deck holds only its format's game's cards
(the builder's and the API's validation both say so), a fixed set names the cards it lacks.
Each test names the rule book's rule it proves (DW: 斗巫师, SCR: Sorcery, MLBK: 墨龙, R5: this
game's rule book)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"
BOOKS = ("duwushi", "hota", "molong", "sorcery")
DW_ITEMS = {f"DW-I0{n}": 2 for n in range(1, 9)}
DW_MAGIC = {f"DW-M0{n}": 2 for n in range(1, 8)}

pytestmark = pytest.mark.django_db


@pytest.fixture
def rule_books(catalogue):
    """This game's test set and the four other games' rule books, side by side."""
    call_command("load_formats", *[str(GAMES / f"{b}.yaml") for b in BOOKS], stdout=io.StringIO())


def _validate(client, **body):
    response = client.post("/api/decks/validate/", {"cards": {}, **body},
                           content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()["problems"]


def test_DW_hero_a_duel_wizards_deck_whose_only_hero_is_this_games_is_not_legal(rule_books,
                                                                                client):
    problems = _validate(client, format="duwushi",
                         piles={"deck": {"T-H01": 1, **DW_ITEMS, **DW_MAGIC}})
    codes = sorted(p["code"] for p in problems)
    assert codes == ["kind_too_few", "other_game"]
    foreign = next(p for p in problems if p["code"] == "other_game")
    assert foreign["cards"] == ["T-H01"] and foreign["fix"].startswith("remove 1 ×")


def test_SCR_spellbook_this_games_minion_in_a_spellbook_is_not_legal(rule_books, client):
    legal = {"SC-S01": 4, "SC-S02": 4, "SC-S03": 4, "SC-S04": 4, "SC-S05": 4, "SC-S06": 4,
             "SC-S07": 4, "SC-S08": 4, "SC-E01": 3, "SC-E02": 3, "SC-L01": 2}
    atlas = {"SC-T01": 4, "SC-T02": 4, "SC-T03": 4, "SC-T04": 4, "SC-T05": 4}
    assert _validate(client, format="sorcery", hero="SC-A01", cards=legal,
                     piles={"atlas": atlas}) == []
    problems = _validate(client, format="sorcery", hero="SC-A01",
                         cards={**legal, "T-M01": 1, "DW-M01": 1}, piles={"atlas": atlas})
    assert sorted((p["code"], p["cards"][0]) for p in problems) == [
        ("other_game", "DW-M01"), ("other_game", "T-M01")]


def test_R5_2_a_standard_deck_with_another_games_item_is_not_legal(rule_books, client):
    from tests.accounts import LEGAL_CARDS

    # Another game's card counts toward nothing: the 30 cards of this game stay legal.
    problems = _validate(client, format="standard", hero="T-H01",
                         cards={**LEGAL_CARDS, "DW-I01": 2})
    assert [p["code"] for p in problems] == ["other_game"]
    assert "Tin Sabre" in problems[0]["message"]


def test_MLBK_actions_composition_a_missing_card_is_named_by_its_name(rule_books, client):
    problems = _validate(client, format="molong", piles={})
    missing = [p for p in problems if p["code"] == "composition_missing"]
    assert missing and all("ML-" not in p["fix"] for p in missing)
    assert any("Sneak Strike" in p["fix"] for p in missing)
