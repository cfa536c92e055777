"""The deck codecs as a user meets them: pasting lists, reading files and codes, downloading."""

from __future__ import annotations

import csv
import io
import json

import pytest

from decks.codecs import (
    CardIndex,
    DeckImportError,
    DeckImportTooLarge,
    ImportLimits,
    base,
    deckcode,
    detect_format,
    export_deck,
    import_deck,
    safe_filename,
    text,
)
from decks.codecs.csvcodec import neutralise, restore
from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.deckcode import encode_deck_code
from rules.decks.legality import Deck
from rules.engine.cards import CardDef

INDEX = CardIndex(load_card_set(TEST_SET).cards.values())
DECK = Deck(heroes=("T-H01",), counts={"T-M01": 3, "T-M12": 1, "T-I01": 2}, name="Ember Rush")


def read(pasted: str, **kw):
    return import_deck(pasted, INDEX, "text", **kw).deck


def problems(pasted: str, format_name: str = "text", **kw) -> list[str]:
    with pytest.raises(DeckImportError) as caught:
        import_deck(pasted, INDEX, format_name, **kw)
    return [str(p) for p in caught.value.problems]


def test_every_count_style_codes_both_languages_and_a_hero_line():
    deck = read("Hero: Flame Warden\n3x Ember Pup\nThorn Boar x2\n2 Reef Guard\nT-I01\n"
                "3张 晨曦侍从\n暮色潜行者 x1\n")
    assert deck.heroes == ("T-H01",)
    assert deck.counts == {"T-M01": 3, "T-M02": 2, "T-M03": 2, "T-I01": 1, "T-M04": 3,
                           "T-M05": 1}


def test_blank_and_comment_lines_crlf_full_width_digits_and_repeats_add_up():
    deck = read("# my deck\r\n\r\n// a note\r\n３ｘ Ember Pup\r\nＥｍｂｅｒ　Ｐｕｐ\r\n"
                "ember pup X2\r\n英雄：炎之守望者\r\n")
    assert deck.counts == {"T-M01": 6} and deck.heroes == ("T-H01",)


def test_a_hero_card_on_a_card_line_is_the_hero_unless_a_hero_line_says_otherwise():
    assert read("Flame Warden\n3x Ember Pup").heroes == ("T-H01",)
    deck = read("Hero: Tide Oracle\nFlame Warden\n")
    assert deck.heroes == ("T-H02",) and deck.counts == {"T-H01": 1}


def test_deck_name_and_format_headers():
    imported = import_deck("Deck: Ember Rush\nFormat: standard\n1x Ember Pup", INDEX)
    assert imported.deck.name == "Ember Rush" and imported.format_code == "standard"
    assert read("卡组：火之队\n1x Ember Pup").name == "火之队"


def test_unknown_names_get_did_you_mean_and_every_error_names_its_line():
    found = problems("Hero: Flame Warden\n3x Embr Pup\n\n2x Fire Blot\n1x Zzzzzz\n")
    assert found == [
        "line 2: No card is called 'Embr Pup'. Did you mean 'Ember Pup'?",
        "line 4: No card is called 'Fire Blot'. Did you mean 'Fire Bolt'?",
        "line 5: No card is called 'Zzzzzz'.",
    ]
    [chinese] = problems("1x 余烬幼")
    assert "Did you mean '余烬幼犬'?" in chinese


def test_zero_and_huge_counts_are_errors_with_the_fix():
    assert problems("0x Ember Pup") == [
        "line 1: " + base.ZERO_COPIES.format(name="Ember Pup")]
    [huge] = problems("1000000000000x Ember Pup")
    assert "a line can hold at most 99" in huge


def test_caps_bytes_and_lines_are_413_and_total_cards_are_400():
    with pytest.raises(DeckImportTooLarge) as caught:
        read("x" * 40_000)
    assert caught.value.status == 413 and "32768 bytes" in str(caught.value)
    with pytest.raises(DeckImportTooLarge):
        read("\n" * 600)
    with pytest.raises(DeckImportError) as caught:
        read("99x Ember Pup\n" * 4)
    assert caught.value.status == 400
    assert str(caught.value) == base.TOO_MANY_CARDS.format(count=396, limit=300)


def test_errors_are_capped_with_a_count_of_the_rest():
    found = problems("\n".join(f"{i}x Nope" for i in range(1, 31)),
                     limits=ImportLimits(max_errors=5))
    assert len(found) == 6 and found[-1] == "… and 25 more problems."


def test_a_whole_line_name_beats_a_count_reading():
    dog = CardDef(code="X-3", kind="minion", name_en="3 Headed Dog", name_zh="三头犬")
    index = CardIndex([*INDEX.cards.values(), dog])
    assert import_deck("3 Headed Dog", index, "text").deck.counts == {"X-3": 1}
    assert import_deck("2x 3 Headed Dog", index, "text").deck.counts == {"X-3": 2}


def test_text_download_groups_kinds_and_reimports():
    written = export_deck(DECK, "text", INDEX, format_code="standard")
    assert written == ("Deck: Ember Rush\nFormat: standard\nHero: Flame Warden\n\n"
                       "# Minions (4)\n3x Ember Pup\n1x Night Wyrm\n\n# Items (2)\n2x Fire Bolt\n")
    assert read(written) == DECK


def test_the_text_download_from_a_chinese_page_is_chinese_and_reimports():
    from django.utils import translation

    with translation.override("zh-hans"):
        written = export_deck(DECK, "text", INDEX, format_code="standard")
    assert written == ("卡组：Ember Rush\n赛制：standard\n英雄：炎之守望者\n\n"
                       "# 随从 (4)\n3x 余烬幼犬\n1x 夜之龙\n\n# 道具 (2)\n2x 火焰箭\n")
    assert read(written) == DECK


def test_json_download_and_loose_json_input():
    data = json.loads(export_deck(DECK, "json", INDEX, format_code="standard"))
    assert data["cardlab_deck"] == 1 and data["hero"]["name_zh"] == "炎之守望者"
    assert data["cards"][0] == {"code": "T-I01", "name": "Fire Bolt", "name_zh": "火焰箭",
                                "count": 2, "kind": "item"}
    loose = import_deck('{"hero": "Flame Warden", "cards": {"T-M01": 2, "Fire Bolt": 1}}',
                        INDEX).deck
    assert loose.heroes == ("T-H01",) and loose.counts == {"T-M01": 2, "T-I01": 1}


def test_json_problems_name_their_path():
    found = problems('{"hero": 5, "cards": [{"code": "T-M01", "count": 0}, {"code": "Nope"},'
                     ' 7], "name": ["x"]}', "json")
    assert found == [
        "name: must be a string.",
        "hero: must be a card code or name (a string).",
        "cards[0].count: must be a whole number from 1 to 99.",
        "cards[1]: no card has the code or name 'Nope'.",
        "cards[2]: must be an object with a \"code\" (or \"name\") and a \"count\".",
    ]
    assert problems("[1, 2]", "json") == ["A JSON deck is an object with \"hero\" and \"cards\"."]
    assert "nested too deeply" in problems("[" * 5000, "json")[0]


def test_csv_neutralises_formula_cells_both_ways():
    deck = Deck(heroes=("T-H01",), counts={"T-M01": 1}, name="=HYPERLINK(\"evil\")")
    written = export_deck(deck, "csv", INDEX)
    rows = list(csv.reader(io.StringIO(written)))
    assert rows[1][3] == "'=HYPERLINK(\"evil\")"
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)
    assert import_deck(written, INDEX).deck == deck
    for cell in ["=1", "+1", "-1", "@x", "'=1", "''-2", "plain", "'quoted", "\t1"]:
        assert restore(neutralise(cell)) == cell


def test_csv_reads_a_spreadsheet_without_the_section_column():
    deck = import_deck("count,code,name\n1,,Flame Warden\n3,T-M01,\n2,,火焰箭\n", INDEX).deck
    assert deck.heroes == ("T-H01",) and deck.counts == {"T-M01": 3, "T-I01": 2}
    assert problems("count,code\nthree,T-M01\n", "csv") == [
        "line 2: the count 'three' is not a whole number; write 1 or more."]
    assert problems("hello\n", "csv")[0].startswith("line 1: The first row must name the columns")


def test_deck_codes_are_short_versioned_and_checked():
    code = export_deck(DECK, "code", INDEX, format_code="standard").strip()
    assert len(code) < 60 and code.isascii() and "=" not in code
    again = import_deck(f"# Ember Rush\n{code}\n# made on Cardlab\n", INDEX)
    assert again.source == "code" and again.deck.counts == DECK.counts
    assert again.format_code == "standard"
    damaged = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    assert "damaged" in problems(damaged, "code")[0]
    assert problems("not a code at all", "code") == ["line 1: " + deckcode.NOT_A_CODE]


def test_a_newer_deck_code_version_says_so():
    import base64
    import zlib

    body = bytes([3, 0, 0, 0])   # version 2 is the code of a deck in piles
    data = body + (zlib.crc32(body) & 0xFFFF).to_bytes(2, "big")
    newer = base64.urlsafe_b64encode(data).decode().rstrip("=")
    assert problems(newer, "code") == [
        "line 1: " + deckcode.NEWER.format(version=3, known="1 and 2")]


def test_a_code_naming_unknown_cards_lists_them():
    code = encode_deck_code(Deck(heroes=("ZZ-H",), counts={"ZZ-1": 1}))
    assert problems(code, "code") == ["line 1: " + deckcode.UNKNOWN.format(code="ZZ-H"),
                                      "line 1: " + deckcode.UNKNOWN.format(code="ZZ-1")]


@pytest.mark.parametrize("pasted, expected", [
    ('{"hero": "T-H01"}', "json"), ("section,count,code,name,name_zh\n", "csv"),
    ("3x Ember Pup\n", "text"), ("Ember", "text"),
    (encode_deck_code(DECK), "code"),
])
def test_the_format_of_a_paste_is_detected(pasted, expected):
    assert detect_format(pasted) == expected


@pytest.mark.parametrize("name, expected", [
    ("Ember Rush", "Ember-Rush.txt"), ('say "hi"\nnow', "say-hi-now.txt"),
    ("../../etc/passwd", "etc-passwd.txt"), ("炎之队", "炎之队.txt"), ("", "deck.txt"),
    ("\u202egpj.exe", "gpj.exe.txt"), ("a;b=c", "a-b-c.txt"),
])
def test_download_file_names_are_safe(name, expected):
    assert safe_filename(name, "txt") == expected


def test_unknown_format_name_is_a_clean_error():
    assert problems("x", "yaml") == ["Unknown format 'yaml': choose one of text, json, csv, "
                                     "code."]
    assert text.UNKNOWN_CARD.format(name="x") == "No card is called 'x'."
