"""Formats as data on the site: ``load_formats`` loads the four rule books (games, kinds,
rarity tiers, sample sets, formats), decks in several piles are saved, versioned, validated
through the API and shown; other games are not simulated; the admin's rules field is checked
by the engine's schema; the data migration puts existing entries in the main pile."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from cards.models import Card, CardSet, Game
from decks.drafts import Draft
from decks.models import DeckEntry, Format
from decks.services import deck_create, deck_restore, deck_save
from rules.decks.formats import rule_book_from_data

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"
BOOKS = ("duwushi", "hota", "molong", "sorcery")

pytestmark = pytest.mark.django_db


@pytest.fixture
def rule_books(db):
    call_command("load_formats", *[str(GAMES / f"{b}.yaml") for b in BOOKS], stdout=None)


def _book(name):
    return rule_book_from_data(yaml.safe_load((GAMES / f"{name}.yaml").read_text("utf-8")))


def test_load_formats_loads_games_kinds_tiers_sample_sets_and_formats(rule_books):
    sorcery = Game.objects.get(code="sorcery")
    assert not sorcery.engine and sorcery.names["zh-hans"] == "巫道:竞逐领域"
    assert list(sorcery.rarities.values_list("code", flat=True)) == [
        "ordinary", "exceptional", "elite", "unique"]
    assert "site" in set(sorcery.kinds.values_list("code", flat=True))
    sample = CardSet.objects.get(code="sorcery-sample")
    assert sample.sample and sample.game == sorcery
    assert not Card.objects.get(code="SC-T01").engine
    fmt = Format.objects.get(code="sorcery")
    assert fmt.game == sorcery and fmt.has_piles and not fmt.simulated
    assert {f.code for f in Format.objects.filter(game__isnull=False)} == {
        "duwushi", "hota-constructed", "hota-limited", "molong", "sorcery"}
    # The engine's own game came with the migration, and the standard format is untouched.
    assert Game.objects.get(code="cardlab").engine
    assert Format.objects.get(code="standard").simulated


def test_load_formats_again_changes_nothing(rule_books):
    before = (Card.objects.count(), Format.objects.count(), Game.objects.count())
    call_command("load_formats", str(GAMES / "sorcery.yaml"), stdout=None)
    assert (Card.objects.count(), Format.objects.count(), Game.objects.count()) == before


def test_load_formats_refuses_a_bad_file_whole(tmp_path, db):
    bad = tmp_path / "bad.yaml"
    bad.write_text("formats:\n  - code: x\n    name_en: X\n    name_zh: X\n"
                   "    rules: {piles: [{code: d, name_en: D, name_zh: D, min: 5, max: 1}]}\n")
    with pytest.raises(CommandError):
        call_command("load_formats", str(bad), stdout=None, stderr=None)
    assert not Format.objects.filter(code="x").exists()


@pytest.mark.parametrize("name", BOOKS)
def test_every_sample_deck_validates_through_the_api_as_the_engine_says(rule_books, client,
                                                                         name):
    for deck in _book(name).decks:
        body = {"cards": {}, "format": deck.format,
                "piles": {k: v for k, v in deck.piles.items()}}
        response = client.post("/api/decks/validate/", body, content_type="application/json")
        assert response.status_code == 200, response.content
        found = sorted(p["code"] for p in response.json()["problems"])
        assert found == sorted(deck.expect), deck.name
        assert response.json()["valid"] == (not deck.expect)


def test_the_api_reads_problems_in_chinese(rule_books, client):
    body = {"hero": "SC-A01", "cards": {"SC-S01": 5}, "format": "sorcery"}
    response = client.post("/api/decks/validate/", body, content_type="application/json",
                           headers={"accept-language": "zh-Hans"})
    messages = " ".join(p["message"] for p in response.json()["problems"])
    assert "法术书" in messages and "地图册" in messages and "普通" in messages


def _sorcery_draft(**changes) -> Draft:
    legal = next(d for d in _book("sorcery").decks if not d.expect)
    fields = {"name": "Two piles", "hero": "SC-A01", "cards": dict(legal.piles["spellbook"]),
              "piles": {"atlas": dict(legal.piles["atlas"])}, "format_code": "sorcery"}
    fields.update(changes)
    return Draft(**fields)


def test_a_deck_in_two_piles_is_saved_versioned_and_restored(rule_books, alice):
    deck = deck_create(owner=alice, draft=_sorcery_draft())
    assert set(deck.entries.values_list("pile", flat=True)) == {"deck", "atlas"}
    assert deck.versions.get().piles == {"atlas": _sorcery_draft().piles["atlas"]}
    deck_save(deck=deck, by=alice, draft=_sorcery_draft(piles={"atlas": {"SC-T01": 4}}))
    assert deck.entries.filter(pile="atlas").count() == 1
    deck_restore(deck=deck, number=1, by=alice)
    assert deck.entries.filter(pile="atlas").count() == 5


def test_the_deck_api_and_page_handle_piles_and_offer_no_simulation(rule_books, alice,
                                                                    client):
    client.force_login(alice)
    draft = _sorcery_draft()
    body = {"name": "Two piles", "hero": draft.hero, "cards": dict(draft.cards),
            "piles": {k: dict(v) for k, v in draft.piles.items()}, "format": "sorcery",
            "visibility": "public"}
    response = client.post("/api/decks/", body, content_type="application/json")
    assert response.status_code == 201, response.content
    data = response.json()
    assert data["valid"] and data["piles"] == body["piles"]
    page = client.get(f"/decks/{data['uid']}/").content.decode()
    assert 'data-testid="not-simulated"' in page and "Atlas" in page
    assert "simulations/new/?deck=" not in page
    # Cost curve, kinds and opening-hand odds are this game's statistics, not Sorcery's.
    assert 'id="curve-title"' not in page and 'id="odds-title"' not in page


def test_a_standard_deck_page_still_offers_simulation(make_deck, alice, client):
    deck = make_deck(alice, visibility="public")
    client.force_login(alice)
    page = client.get(f"/decks/{deck.uid}/").content.decode()
    assert 'data-testid="not-simulated"' not in page
    assert 'id="curve-title"' in page and 'id="odds-title"' in page


def test_unknown_pile_name_is_a_400(rule_books, alice, client):
    client.force_login(alice)
    body = {"name": "x", "cards": {}, "piles": {"Not A Slug": {"SC-T01": 1}},
            "format": "sorcery"}
    response = client.post("/api/decks/", body, content_type="application/json")
    assert response.status_code == 400 and "piles" in response.json()


def test_the_formats_api_lists_games_and_rules(rule_books, client):
    rows = {f["code"]: f for f in client.get("/api/decks/formats/").json()}
    assert rows["sorcery"]["game"] == "sorcery" and not rows["sorcery"]["simulated"]
    assert [p["code"] for p in rows["sorcery"]["rules"]["piles"]] == [
        "avatar", "spellbook", "atlas"]
    assert rows["standard"]["game"] is None and rows["standard"]["simulated"]


def test_admin_rules_are_checked_by_the_schema(rule_books):
    fmt = Format.objects.get(code="sorcery")
    fmt.rules = {"piles": [{"code": "deck", "name_en": "D", "name_zh": "D",
                            "kinds": ["dragon"]}]}
    with pytest.raises(ValidationError) as err:
        fmt.full_clean()
    assert "dragon" in str(err.value.message_dict["rules"])


def test_the_admin_shows_the_schemas_problems_in_chinese(rule_books, admin_client):
    fmt = Format.objects.get(code="sorcery")
    page = admin_client.get(f"/admin/decks/format/{fmt.pk}/change/",
                            HTTP_ACCEPT_LANGUAGE="zh-Hans")
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields}
    data = {k: v for k, v in data.items() if v is not None}
    data["rules"] = json.dumps({"piles": [{"code": "deck", "name_en": "D", "name_zh": "D",
                                           "min": 5, "max": 2}]})
    data.update(_inline_management(page))
    response = admin_client.post(f"/admin/decks/format/{fmt.pk}/change/", data,
                                 HTTP_ACCEPT_LANGUAGE="zh-Hans")
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["rules"]
    assert "rules.piles[0].max: 小于最小值(2 < 5)" in errors


def _inline_management(page) -> dict:
    """The management forms of the change page's inlines, as an unchanged submit sends them."""
    data = {}
    for formset in page.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        for name in management.fields:
            data[management.add_prefix(name)] = management[name].value()
    return data


@pytest.mark.django_db(transaction=True)
def test_the_data_migration_puts_existing_entries_in_the_main_pile():
    """Migrate back to before piles, write a deck entry as the old schema had it, migrate
    forward: the entry is in pile ``deck`` and the engine's game holds the old card sets."""
    executor = MigrationExecutor(connection)
    old = [("cards", "0005_card_stats_before_optional_skills"),
           ("decks", "0003_translated_model_names")]
    executor.migrate(old)
    apps = executor.loader.project_state(old).apps
    user = apps.get_model("auth", "User").objects.create(username="old")
    card_set = apps.get_model("cards", "CardSet").objects.create(code="old", name_en="Old")
    card = apps.get_model("cards", "Card").objects.create(
        code="O-1", card_set=card_set, kind="item", name_en="Old Item", name_zh="旧道具",
        rarity="N", cost=1)
    # A flushed test database has lost the migrations' rows: make the format if need be.
    fmt, _ = apps.get_model("decks", "Format").objects.get_or_create(
        code="standard", defaults={"name": "Standard"})
    deck = apps.get_model("decks", "Deck").objects.create(owner=user, name="Old", format=fmt,
                                                          uid="olddeck00001")
    apps.get_model("decks", "DeckEntry").objects.create(deck=deck, card=card, count=2)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    entry = DeckEntry.objects.get(deck__uid="olddeck00001")
    assert entry.pile == "deck" and entry.count == 2
    assert CardSet.objects.get(code="old").game.code == "cardlab"


# --- import/export of decks in piles: text with pile headers, JSON, CSV, deck code ----------


@pytest.mark.parametrize("codec", ["text", "json", "csv", "code"])
def test_every_codec_round_trips_a_deck_in_two_piles(rule_books, codec):
    from decks.adapters import catalogue_index
    from decks.codecs import export_deck, import_deck

    deck = _sorcery_draft().legality_deck()
    index = catalogue_index()
    written = export_deck(deck, codec, index, format_code="sorcery")
    back = import_deck(written, index, codec)
    assert back.deck.heroes == ("SC-A01",) and back.format_code == "sorcery"
    assert dict(back.deck.counts) == dict(deck.counts)
    assert {k: dict(v) for k, v in back.deck.piles.items()} == {
        k: dict(v) for k, v in deck.piles.items()}


def test_a_one_list_deck_still_writes_the_files_it_always_wrote(make_deck, alice):
    from decks.adapters import catalogue_index
    from decks.codecs import export_deck
    from decks.codecs.deckcode import read_deck_code

    deck = make_deck(alice)
    from decks.selectors import draft_from_deck

    legality = draft_from_deck(deck).legality_deck()
    code = export_deck(legality, "code", catalogue_index(), format_code="standard")
    assert read_deck_code(code) and code.startswith("AQ")   # version 1: varint 1 → "AQ"
    assert '"piles"' not in export_deck(legality, "json", catalogue_index())
    assert "Pile:" not in export_deck(legality, "text", catalogue_index())


def test_text_pile_headers_in_english_and_chinese(rule_books):
    from decks.adapters import catalogue_index
    from decks.codecs import import_deck

    text = ("Format: sorcery\nHero: Lantern Warden\n4x Pebble Squire\n\nPile: Atlas\n"
            "4x Windy Hill\n牌堆：atlas\n2 静湖\nPile: deck\n1x Hailstone\n")
    got = import_deck(text, catalogue_index(), "text").deck
    assert dict(got.counts) == {"SC-S01": 4, "SC-S05": 1}
    assert dict(got.piles) == {"atlas": {"SC-T01": 4, "SC-T02": 2}}


def test_a_bad_pile_name_is_an_import_error_on_its_line(rule_books):
    from decks.adapters import catalogue_index
    from decks.codecs import DeckImportError, import_deck

    with pytest.raises(DeckImportError) as err:
        import_deck("1x Windy Hill\nPile: !!\n1x Still Lake\n", catalogue_index(), "text")
    assert err.value.problems[0].line == 2


def test_the_import_api_reads_piles(rule_books, client):
    text = "Format: sorcery\nHero: SC-A01\n4x SC-S01\nPile: atlas\n4x SC-T01\n"
    response = client.post("/api/decks/import/", {"text": text},
                           content_type="application/json")
    assert response.status_code == 200, response.content
    assert response.json()["deck"]["piles"] == {"atlas": {"SC-T01": 4}}
    codes = {p["code"] for p in response.json()["problems"]}
    assert codes == {"pile_too_small"}   # 4 spells and 4 sites: both piles too small


# --- the builder with a format in piles -----------------------------------------------------


def _builder_post(client, path, **data):
    return client.post(f"/decks/build/new/{path}/", data, headers={"hx-request": "true"})


def test_the_builder_routes_cards_to_the_pile_that_takes_them(rule_books, client):
    _builder_post(client, "meta", name="", description="", format="sorcery",
                  visibility="private")
    _builder_post(client, "card", code="SC-A01", delta="1")    # the avatar: the hero slot
    _builder_post(client, "card", code="SC-T01", delta="1")    # a site: the atlas
    _builder_post(client, "card", code="SC-S01", delta="1")    # a spell: the spellbook
    response = _builder_post(client, "card", code="SC-S01", delta="1")
    page = response.content.decode()
    assert 'data-testid="deck-piles"' in page
    assert 'data-testid="pile-count-avatar">1 / 1<' in page
    assert 'data-testid="pile-count-spellbook">2 / ≥ 40<' in page
    assert 'data-testid="pile-count-atlas">1 / ≥ 20<' in page
    assert 'data-testid="not-simulated"' in page
    assert 'id="curve-title"' not in page and 'id="sample-hand-button"' not in page
    # The minus button of a pile takes from that pile; the avatar's minus empties the slot.
    _builder_post(client, "card", code="SC-T01", delta="-1", pile="atlas")
    page = _builder_post(client, "card", code="SC-A01", delta="-1", pile="avatar"
                         ).content.decode()
    assert 'data-testid="pile-count-atlas">0 / ≥ 20<' in page
    assert 'data-testid="pile-count-avatar">0 / 1<' in page


def test_the_builder_hero_picker_offers_the_hero_piles_cards(rule_books, client):
    _builder_post(client, "meta", name="", description="", format="sorcery",
                  visibility="private")
    page = client.get("/decks/build/").content.decode()
    assert 'value="SC-A01"' in page and 'value="SC-A02"' in page
    assert '<label for="hero-select">Avatar</label>' in page
    refused = _builder_post(client, "hero", code="SC-T01")
    assert refused.status_code == 400
    # A format without a hero pile (Duel Wizards: heroes inside the deck) has no hero picker.
    _builder_post(client, "meta", name="", description="", format="duwushi",
                  visibility="private")
    assert 'id="hero-select"' not in client.get("/decks/build/").content.decode()


def test_a_sample_card_page_says_it_is_sample_data_and_not_simulated(rule_books, client):
    page = client.get("/cards/SC-T01/").content.decode()
    assert 'data-testid="not-simulated"' in page and "sample data" in page
    assert client.get("/cards/SC-T01/image.svg").status_code == 200


def test_a_deck_of_another_game_cannot_be_simulated(rule_books, alice, client):
    deck = deck_create(owner=alice, draft=_sorcery_draft(visibility="public"))
    client.force_login(alice)
    response = client.post("/api/simulations/", {"decks": [deck.uid, deck.uid], "games": 10,
                                                 "kind": "match"},
                           content_type="application/json")
    assert response.status_code == 400
    assert "cannot be simulated" in response.content.decode()
    form = client.get("/simulations/new/").content.decode()
    assert deck.uid not in form


def test_history_names_the_pile_of_each_change(rule_books, alice):
    from decks.selectors import deck_history

    deck = deck_create(owner=alice, draft=_sorcery_draft())
    deck_save(deck=deck, by=alice, draft=_sorcery_draft(
        piles={"atlas": {**_sorcery_draft().piles["atlas"], "SC-T06": 1}}))
    latest = deck_history(deck=deck)[0]
    assert [(c.delta, c.label) for c in latest.changes] == [(1, "Sunken Spire · Atlas")]


def test_validate_deck_command_reads_a_text_list_in_piles(rule_books, tmp_path, capsys):
    path = tmp_path / "deck.txt"
    path.write_text("Format: sorcery\nHero: SC-A01\n4x SC-S01\nPile: atlas\n4x SC-T01\n",
                    "utf-8")
    with pytest.raises(SystemExit) as exit_:
        call_command("validate_deck", str(path))
    assert exit_.value.code == 1
    out = capsys.readouterr().out
    assert "pile_too_small, SCR.spellbook" in out and "pile_too_small, SCR.atlas" in out


def test_deck_page_and_print_sheet_of_a_deck_in_piles(rule_books, alice, client):
    deck = deck_create(owner=alice, draft=_sorcery_draft(visibility="public"))
    page = client.get(f"/decks/{deck.uid}/").content.decode()
    assert "Avatar: " in page and "HP" not in page.split("hero-line")[1][:400]
    sheet = client.get(f"/decks/{deck.uid}/print/").content.decode()
    assert 'data-pile="Atlas"' in sheet and "Windy Hill" in sheet
    duel = deck_create(owner=alice, draft=Draft(
        name="DW", format_code="duwushi", cards={"DW-H01": 2, "DW-I01": 2}))
    client.force_login(alice)
    duel_page = client.get(f"/decks/{duel.uid}/").content.decode()
    assert 'class="hero-line"' not in duel_page   # heroes are inside this deck


def test_sample_sets_leave_the_engine_catalogue_version_as_it_was(catalogue):
    """Loading another game's cards changes nothing the simulations freeze."""
    from cards.selectors import card_data_version, card_defs

    before = card_data_version()
    call_command("load_formats", str(GAMES / "sorcery.yaml"), stdout=None)
    assert card_data_version() == before
    assert "SC-S01" not in card_defs()
