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
    from tests.fixtures import LEGAL_CARDS

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


# --- the builder follows the format's game ---------------------------------------------------


def _builder_post(client, path, **data):
    return client.post(f"/decks/build/new/{path}/", data, headers={"hx-request": "true"})


def _choose_format(client, code):
    return _builder_post(client, "meta", name="", description="", format=code,
                         visibility="private")


def test_SCR_spellbook_the_card_panel_lists_the_formats_games_cards(rule_books, client):
    page = client.get("/decks/build/").content.decode()
    assert 'id="plus-T-M01"' in page                    # the standard format: this game's
    assert "Pebble Squire" not in page and "Ashen Duelist" not in page
    switched = _choose_format(client, "sorcery")
    # Another game: the whole builder is drawn again for it (panel, quick searches, picker).
    assert switched.status_code == 204 and switched["HX-Redirect"] == "/decks/build/"
    page = client.get("/decks/build/").content.decode()
    assert "Pebble Squire" in page and "Windy Hill" in page
    assert "Ashen Duelist" not in page and 'id="plus-T-M01"' not in page
    assert 'href="?q=k%3Asite"' in page and 'id="hero-only"' not in page
    # Rarity tags are the game's tier names, not their codes.
    assert ">Ordinary</span>" in page and ">ordinary</span>" not in page
    # A search for this game's cards finds none while the format is Sorcery.
    results = client.get("/decks/build/new/cards/", {"q": "k:minion"}).content.decode()
    assert "Pebble Squire" in results and 'id="plus-T-M01"' not in results


def test_SCR_avatar_an_imported_list_keeps_its_avatar_in_the_builder_and_deck_page(
        rule_books, client, alice):
    text = ("Format: sorcery\nPile: avatar\n1x Lantern Warden\nPile: spellbook\n"
            "4x Pebble Squire\n4x Marsh Lurker\n4x Kite Rider\n4x Cinder Hound\n4x Hailstone\n"
            "4x Second Wind\n4x Low Fog\n4x Brass Compass\n3x Tide Oracle\n3x Quake Call\n"
            "2x Storm Colossus\nPile: atlas\n4x Windy Hill\n4x Still Lake\n4x Red Quarry\n"
            "4x Old Cairn\n4x Salt Flat\n")
    client.force_login(alice)
    response = client.post("/decks/import/", {"text": text, "format": "auto"})
    assert response.status_code == 302, response.content.decode()[:2000]
    page = client.get("/decks/build/").content.decode()
    status = page.split('id="deck-status"')[1].split("</p>")[0]
    assert "61" in status and "Lantern Warden" in status and "legal" in status
    assert "hero" not in status
    assert '<option value="SC-A01" selected>' in page
    assert "— choose a card for Avatar —" in page and "choose a hero" not in page
    saved = client.post("/decks/build/new/save/")
    assert saved.status_code == 302
    deck_page = client.get(saved["Location"]).content.decode()
    assert "Avatar: " in deck_page and "Lantern Warden" in deck_page
    assert "No cards." not in deck_page and 'data-testid="deck-pile-spellbook"' in deck_page
    assert 'data-testid="deck-pile-atlas"' in deck_page and "Windy Hill" in deck_page
    assert 'data-testid="tune-deck"' not in deck_page


# --- import and export of a format whose heroes are cards of the deck -----------------------

DW_LEGAL_TEXT = ("2x Ashen Duelist\n1x Brine Sage\n2x Tin Sabre\n2x Reed Bow\n2x Moth Cloak\n"
                 "2x Clay Buckler\n2x Lantern Staff\n2x Twin Daggers\n1x Iron Gauntlet\n"
                 "2x Spark Rain\n2x Mending Mist\n2x Sudden Frost\n2x Echo Step\n"
                 "2x Bounty Call\n2x Dust Veil\n2x Loud Omen\n")


def test_DW_hero_a_legal_list_with_heroes_in_the_deck_imports(rule_books, client):
    response = client.post("/decks/import/", {"text": DW_LEGAL_TEXT, "format": "auto",
                                              "deck_format": "duwushi"})
    assert response.status_code == 302, response.content.decode()[:3000]
    page = client.get("/decks/build/").content.decode()
    status = page.split('id="deck-status"')[1].split("</p>")[0]
    assert "30" in status and "legal" in status and "hero" not in status
    # The list's own Format: line says the same without the page's choice.
    api = client.post("/api/decks/import/", {"text": "Format: duwushi\n" + DW_LEGAL_TEXT},
                      content_type="application/json")
    assert api.status_code == 200, api.content
    assert api.json()["valid"] and api.json()["deck"]["hero"] is None
    assert api.json()["deck"]["cards"]["DW-H01"] == 2


def test_DW_size_the_import_api_names_an_unknown_deck_format(rule_books, client):
    response = client.post("/api/decks/import/", {"text": DW_LEGAL_TEXT,
                                                  "deck_format": "duelwizards"},
                           content_type="application/json")
    assert response.status_code == 400
    assert "duelwizards" in response.json()["deck_format"][0]


def test_DW_hero_the_text_export_keeps_heroes_in_the_deck_under_the_games_headings(
        rule_books, client):
    client.post("/decks/import/", {"text": DW_LEGAL_TEXT, "format": "auto",
                                   "deck_format": "duwushi"})
    text = client.get("/decks/build/new/download/text/").content.decode()
    assert "Hero:" not in text and "Items" not in text and "Other cards" not in text
    assert "# Hero (3)\n2x Ashen Duelist\n1x Brine Sage" in text
    assert "# Item (13)" in text and "# Magic (14)" in text
    # It reads back as the same deck.
    again = client.post("/api/decks/import/", {"text": text}, content_type="application/json")
    assert again.json()["valid"] and again.json()["deck"]["cards"]["DW-H01"] == 2


def test_the_import_help_shows_the_chosen_formats_games_examples(rule_books, client):
    standard = client.get("/decks/import/").content.decode()
    help_text = standard.split('id="import-help"')[1].split("</aside>")[0]
    assert "Format: standard" in help_text and "Tin Sabre" not in help_text
    duel = client.get("/decks/import/", {"deck_format": "duwushi"}).content.decode()
    help_text = duel.split('id="import-help"')[1].split("</aside>")[0]
    assert "Format: duwushi" in help_text and "2x Ashen Duelist" in help_text
    assert "Hero:" not in help_text
    sorcery = client.get("/decks/import/", {"deck_format": "sorcery"}).content.decode()
    help_text = sorcery.split('id="import-help"')[1].split("</aside>")[0]
    assert "Hero: Lantern Warden" in help_text and "Pile: atlas" in help_text


# --- words: the command, the query language, the card page -----------------------------------


def test_load_formats_speaks_english_or_chinese(db, tmp_path):
    out = io.StringIO()
    call_command("load_formats", str(GAMES / "sorcery.yaml"), "--lang", "zh", stdout=out)
    assert "游戏 sorcery：已创建" in out.getvalue() and "（示例数据）" in out.getvalue()
    out = io.StringIO()
    call_command("load_formats", str(GAMES / "sorcery.yaml"), stdout=out)
    assert "format sorcery: updated" in out.getvalue()
    bad = tmp_path / "bad.yaml"
    bad.write_text("formats:\n  - code: x\n    name_en: X\n    name_zh: X\n"
                   "    rules: {piles: [{code: d, name_en: D, name_zh: D, min: 5, max: 1}]}\n")
    err = io.StringIO()
    from django.core.management import CommandError

    with pytest.raises(CommandError) as refused:
        call_command("load_formats", str(bad), "--lang", "zh", stdout=io.StringIO(),
                     stderr=err)
    assert "已拒绝" in err.getvalue() and "小于最小值" in err.getvalue()
    assert "个问题" in str(refused.value)


def test_the_query_language_finds_a_games_cards_with_g(rule_books, client):
    from cards.selectors import card_search

    assert {c.code for c in card_search(query="g:sorcery k:site")} == {
        f"SC-T0{n}" for n in range(1, 7)}
    assert card_search(query="g:斗巫师").count() == 19
    assert not card_search(query="g:cardlab").filter(engine=False).exists()
    help_page = client.get("/cards/help/").content.decode()
    assert "g:sorcery" in help_page
    assert "卡牌所属的游戏" in client.get("/cards/help/", headers={
        "accept-language": "zh-Hans"}).content.decode()


def test_SCR_copies_a_sorcery_cards_page_names_its_tier(rule_books, client):
    page = client.get("/cards/SC-U01/").content.decode()
    assert ">Unique</span>" in page and ">unique</span>" not in page
    chinese = client.get("/cards/SC-U01/", headers={"accept-language": "zh-Hans"})
    assert ">独有</span>" in chinese.content.decode()


# --- statistics and comparison over every pile -------------------------------------------------


def test_SCR_piles_statistics_and_compare_count_every_pile(rule_books, client, alice):
    from decks.drafts import Draft
    from decks.services import deck_create

    spellbook = {"SC-S01": 4, "SC-S05": 4}
    a = deck_create(owner=alice, draft=Draft(
        name="A", format_code="sorcery", hero="SC-A01", cards=spellbook,
        piles={"atlas": {"SC-T01": 4}}, visibility="public"))
    b = deck_create(owner=alice, draft=Draft(
        name="B", format_code="sorcery", hero="SC-A01", cards=spellbook,
        piles={"atlas": {"SC-T02": 3}}, visibility="public"))
    page = client.get(a.get_absolute_url()).content.decode()
    stats = page.split('data-testid="pile-stats"')[1].split("</div>")[0]
    assert "Counted over every pile: Spellbook, Atlas." in stats
    assert "Minion</span> <strong>4<" in stats and "Site</span> <strong>4<" in stats
    assert "not shown for Sorcery: Contested Realm" in stats
    compared = client.get("/decks/compare/", {"a": a.uid, "b": b.uid}).content.decode()
    assert 'data-testid="compare-scope"' in compared
    assert "Windy Hill" in compared and "Still Lake" in compared


SORCERY_LIST = ("Format: sorcery\nLantern Warden\n"
                "4x Pebble Squire\n4x Marsh Lurker\n4x Kite Rider\n4x Cinder Hound\n4x Hailstone\n"
                "4x Second Wind\n4x Low Fog\n4x Brass Compass\n3x Tide Oracle\n3x Quake Call\n"
                "2x Storm Colossus\n4x Windy Hill\n4x Still Lake\n4x Red Quarry\n"
                "4x Old Cairn\n4x Salt Flat\n")


def test_SCR_avatar_a_list_without_piles_puts_the_avatar_beside_and_the_sites_in_the_atlas(
        rule_books, client, alice):
    """An avatar's name on its own line is the deck's avatar (as a hero's is in this game's
    lists) and sites go to the atlas: a list written as players write it imports legal."""
    client.force_login(alice)
    response = client.post("/decks/import/", {"text": SORCERY_LIST, "format": "auto"})
    assert response.status_code == 302, response.content.decode()[:3000]
    page = client.get("/decks/build/").content.decode()
    status = page.split('id="deck-status"')[1].split("</p>")[0]
    assert "61" in status and "Lantern Warden" in status and "legal" in status, status
    api = client.post("/api/decks/import/", {"text": SORCERY_LIST},
                      content_type="application/json")
    assert api.status_code == 200, api.content
    deck = api.json()["deck"]
    assert api.json()["valid"], api.json()
    assert deck["hero"] == "SC-A01" and sum(deck["piles"]["atlas"].values()) == 20
    assert "SC-T01" not in deck["cards"] and sum(deck["cards"].values()) == 40


def test_a_did_you_mean_offers_only_the_lists_own_games_cards(rule_books, client):
    """A Standard list's misspelt card is never "Lantern Warden" (Sorcery's avatar), and a
    Sorcery list's is."""
    standard = client.post("/api/decks/import/", {"text": "Hero: Lantern Wardn\n"},
                           content_type="application/json")
    assert standard.status_code == 400
    assert "Lantern Warden" not in standard.content.decode()
    sorcery = client.post("/api/decks/import/",
                          {"text": "Format: sorcery\nLantern Wardn\n"},
                          content_type="application/json")
    assert sorcery.status_code == 400 and "Lantern Warden" in sorcery.content.decode()
