"""Import edge cases a real paste brings: section headings, several problems at once, a damaged
deck code pasted with "detect automatically", characters no list may hold, and a paste far over
the cap on the import page."""

from __future__ import annotations

import base64
import re
import zlib
from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from decks.builder.paste import PASTE_TOO_LONG
from decks.codecs import CardIndex, DeckImportError, ImportLimits, import_deck
from decks.codecs.base import (
    BAD_CHARACTER,
    NUL_CHARACTER,
    SURROGATE_CHARACTER,
    TOO_MANY_HEROES,
)
from decks.codecs.deckcode import (
    CODE_BAD_CHARACTER,
    CODE_SECOND_WORD,
    DAMAGED,
    NEWER,
)
from decks.codecs.text import UNKNOWN_CARD
from decks.transfer.services import BODY_TOO_LARGE, FORMAT_NOT_HERE, IMPORT_MAX_BODY
from rules.decks.cardset import TEST_SET, load_card_set
from rules.decks.deckcode import encode_deck_code
from rules.decks.legality import Deck
from tests.fixtures import LEGAL_CARDS

INDEX = CardIndex(load_card_set(TEST_SET).cards.values())
ONE_HERO = ImportLimits(max_heroes=1)


@pytest.fixture(autouse=True)
def _english_after_each_request():
    """A page asked for in Chinese leaves Chinese active in the thread; messages built outside
    a request here are English."""
    with translation.override("en"):
        yield


def problems(pasted: str, format_name: str = "text", limits=ONE_HERO) -> list[str]:
    with pytest.raises(DeckImportError) as caught:
        import_deck(pasted, INDEX, format_name, limits)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize("heading", ["Deck", "Minions (12)", "Items:", "Heroes (1)", "随从（3）",
                                     "道具：", "其他卡牌", "MINIONS", "Items [2]:", "Other cards"])
def test_section_headings_are_skipped(heading):
    deck = import_deck(f"Hero: Flame Warden\n{heading}\n3x Ember Pup\n", INDEX, "auto").deck
    assert deck.heroes == ("T-H01",) and deck.counts == {"T-M01": 3}


def test_a_card_called_like_a_heading_is_still_a_card():
    items = SimpleNamespace(code="X-01", name_en="Items", name_zh="物", kind="item", cost=1)
    index = CardIndex([*load_card_set(TEST_SET).cards.values(), items])
    assert import_deck("2x Items\nItems", index, "text").deck.counts == {"X-01": 3}


def test_two_heroes_and_other_mistakes_are_all_listed_at_once():
    found = problems("Hero: Flame Warden\nHero: Tide Oracle\n3x Ember Pupp\n0x Thorn Boar\n")
    assert found[0] == "line 2: " + TOO_MANY_HEROES.format(
        count=2, names="Flame Warden, Tide Oracle", limit=1)
    assert found[1].startswith("line 3: " + UNKNOWN_CARD.format(name="Ember Pupp"))
    assert found[2].startswith("line 4: 0 copies")


def test_two_heroes_in_csv_and_json_are_reported_with_the_rest():
    csv_found = problems("section,count,code\nhero,1,T-H01\nhero,1,T-H02\ncard,3,NOPE\n", "csv")
    assert csv_found[0].startswith("line 3: The list names 2 heroes")
    assert csv_found[1].startswith("line 4:")
    json_found = problems('{"heroes": ["T-H01", "T-H02"], "cards": {"NOPE": 1}}', "json")
    assert json_found[0].startswith("heroes: The list names 2 heroes") and len(json_found) == 2


def test_auto_reports_a_damaged_deck_code_as_a_deck_code():
    code = encode_deck_code(Deck(heroes=("T-H01",), counts={"T-M01": 3}),
                            format_code="standard")
    damaged = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    found = problems(damaged, "auto")
    assert found == ["line 1: " + DAMAGED.format(detail="its checksum does not match")]
    assert problems(f"# my deck\n{code[:12]}", "auto")[0].startswith(
        "line 2: This deck code is damaged")


def test_auto_still_suggests_a_card_for_a_one_word_typo():
    found = problems("EmberPupp", "auto")
    assert found[0].startswith("line 1: " + UNKNOWN_CARD.format(name="EmberPupp"))


@pytest.mark.parametrize("format_name, pasted, line, column", [
    ("text", "3x Ember Pup\n2x Tho\x00rn Boar\n", 2, 7),
    ("text", "Deck: a\ud83dname\n", 1, 8),
    ("csv", "count,code\n3,T-M01\n1,T-\x00M02\n", 3, 5),
    ("json", '{"name": "x",\n "cards": {"T-M01\x00": 1}}', 2, 18),
    ("code", "AQ\x00", 1, 3),
    ("auto", "\n\n\x00", 3, 1),
])
def test_nul_and_surrogates_are_reported_with_their_line_and_column(format_name, pasted, line,
                                                                    column):
    found = problems(pasted, format_name)
    what = NUL_CHARACTER if "\x00" in pasted else SURROGATE_CHARACTER.format(code=0xD83D)
    assert found[0] == f"line {line}, column {column}: " + BAD_CHARACTER.format(what=what)


@pytest.mark.django_db
def test_the_import_page_names_the_line_of_a_nul(client, catalogue):
    response = client.post(reverse("decks:import"), {"text": "3x Ember Pup\n1x Emb\x00er Pup"})
    assert response.status_code == 400
    assert "Line 2, column 7" in response.content.decode()


@pytest.mark.django_db
def test_the_import_page_over_the_cap_answers_413_on_the_page(client, catalogue):
    body = {"text": "3x Ember Pup\n" * (IMPORT_MAX_BODY // 13 + 10)}
    response = client.post(reverse("decks:import"), body)
    assert response.status_code == 413
    page = response.content.decode()
    assert "Import a deck" in page or "import" in page.lower()
    assert BODY_TOO_LARGE.split("{")[0] in page


@pytest.mark.django_db
def test_a_body_over_the_sites_upload_cap_is_a_413_page_even_with_csrf_checks(catalogue,
                                                                              settings):
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("decks:import"))                       # the CSRF cookie, as a browser has
    text = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)
    response = client.post(reverse("decks:import"), {"text": text})
    assert response.status_code == 413
    page = response.content.decode()
    assert "Too large" in page and 'href="/decks/"' in page   # the site's page, a way back


# A list with a second hero, a fourth copy and a 31st card: three problems, all named at once.
EVERY_PROBLEM = "Hero: Flame Warden\nHero: Tide Oracle\n4x Ember Pup\n" + "".join(
    f"3x {code}\n" for code in LEGAL_CARDS if code != "T-M01")


@pytest.mark.django_db
def test_the_import_api_lists_a_second_hero_a_fourth_copy_and_a_31st_card_at_once(catalogue):
    response = APIClient().post("/api/decks/import/", {"text": EVERY_PROBLEM}, format="json")
    assert response.status_code == 400
    found = response.json()["problems"]
    assert [p["code"] for p in found] == ["hero_count", "deck_too_large", "copy_limit"]
    assert found[0]["line"] == 2 and "2 heroes" in found[0]["text"]
    assert "31" in found[1]["text"] and "Ember Pup" in found[2]["text"]
    assert response.json()["detail"] == found[0]["text"]


@pytest.mark.django_db
@pytest.mark.parametrize("language, words", [
    ("en", ["2 heroes", "31", "Ember Pup"]),
    ("zh-hans", ["2 张英雄卡", "31", "余烬幼犬"]),
])
def test_the_import_page_lists_every_problem_in_either_language(client, catalogue, language,
                                                                 words):
    with translation.override("en"):      # the page's language stays with the request
        response = client.post(reverse("decks:import"), {"text": EVERY_PROBLEM},
                               HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    page = response.content.decode()
    box = page.split('class="import-problems"')[1].split("</ul>")[0]
    listed = re.findall(r"<li>.*?</li>", box, flags=re.S)
    assert len(listed) == 3
    for word, item in zip(words, listed, strict=True):
        assert word in item, listed


EMBER_CODE = encode_deck_code(Deck(heroes=("T-H01",), counts={"T-M01": 3}),
                              format_code="standard")


@pytest.mark.parametrize("format_name", ["auto", "code"])
@pytest.mark.parametrize("char", ["!", "+", "/", ".", "=", "é", "。", "*"])
def test_a_character_no_deck_code_holds_is_named_with_its_column(format_name, char):
    damaged = EMBER_CODE[:10] + char + EMBER_CODE[10:]
    assert problems(damaged, format_name) == [
        "line 1, column 11: " + CODE_BAD_CHARACTER.format(char=char)]


@pytest.mark.parametrize("format_name", ["auto", "code"])
@pytest.mark.parametrize("extra", ["please", "x", "AQhz", "3x Ember Pup"])
def test_a_second_word_after_a_deck_code_is_named_with_its_column(format_name, extra):
    found = problems(f"# Ember Rush\n  {EMBER_CODE} {extra}\n", format_name)
    assert found == [f"line 2, column {len(EMBER_CODE) + 4}: "
                     + CODE_SECOND_WORD.format(extra=extra)]


@pytest.mark.parametrize("pasted, name", [
    ("Supercalifragilistic", None), ("FlameWardenEmberPupThornBoar", None),
    ("https://cardlab.example/decks/abc123def456/", None), ("3x 没有这张卡", "没有这张卡"),
    ("3x NoSuchCardAtAll", "NoSuchCardAtAll"), ("T-M99", None)])
def test_a_line_that_is_no_deck_code_is_still_read_as_a_card(pasted, name):
    assert problems(pasted, "auto")[0].startswith(
        "line 1: " + UNKNOWN_CARD.format(name=name or pasted))


def _code_of(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


EMBER_BODY = base64.urlsafe_b64decode(EMBER_CODE + "=" * (-len(EMBER_CODE) % 4))[1:-2]


@pytest.mark.parametrize("format_name", ["auto", "code"])
@pytest.mark.parametrize("version, data", [
    # A later version may end in another checksum: a 4-byte CRC-32 here.
    (3, bytes([3]) + EMBER_BODY + zlib.crc32(bytes([3]) + EMBER_BODY).to_bytes(4, "big")),
    # A version written in two varint bytes (131), with a body this site might misread.
    (131, bytes([0x83, 0x01]) + EMBER_BODY[:12]),
    (9, bytes([9]) + EMBER_BODY),
    (0, bytes([0]) + EMBER_BODY + (zlib.crc32(bytes([0]) + EMBER_BODY) & 0xFFFF).to_bytes(2,
                                                                                     "big")),
])
def test_a_code_of_an_unknown_version_says_which_version_and_what_this_site_reads(
        format_name, version, data):
    found = problems(_code_of(data), format_name)
    assert found == ["line 1: " + NEWER.format(version=version, known="1 and 2")]
    assert "damaged" not in found[0]


def test_the_unknown_version_message_is_in_chinese_too():
    data = bytes([7]) + EMBER_BODY
    with translation.override("zh-hans"):
        found = problems(_code_of(data), "auto")
    assert found == ["第 1 行：这个卡组代码由更新或未知的第 7 版卡组代码生成；"
                     "本站读取第 1 和 2 版。请在生成它的网站把卡组导出为文本，再粘贴文本。"]


@pytest.mark.django_db
@pytest.mark.parametrize("language, says", [("en", "Back to the form"), ("zh-hans", "返回表单")])
def test_a_paste_over_the_sites_upload_cap_is_the_sites_413_page_with_debug_on(
        catalogue, settings, language, says):
    settings.DEBUG = True          # where Django would show its technical RequestDataTooBig page
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    client.get(reverse("decks:import"))                       # the CSRF cookie, as a browser has
    text = "3x Ember Pup\n" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 13 + 10)
    with translation.override("en"):
        response = client.post(reverse("decks:import"), {"text": text})
    assert response.status_code == 413
    page = response.content.decode()
    assert "RequestDataTooBig" not in page and "Traceback" not in page
    assert f"{settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,}" in page      # the limit, in figures
    assert f'href="{reverse("decks:import")}"' in page and says in page


@pytest.mark.django_db
def test_importing_a_format_the_site_does_not_have_is_a_400_naming_it_and_the_known_ones(
        catalogue):
    response = APIClient().post("/api/decks/import/",
                                {"text": "Format: nope\nHero: Flame Warden\n3x Ember Pup\n"},
                                format="json")
    assert response.status_code == 400, response.content
    (problem,) = response.json()["problems"]
    assert problem["text"] == "line 1: " + FORMAT_NOT_HERE.format(
        code="nope", known="standard")


@pytest.mark.django_db
@pytest.mark.parametrize("written", ["standard", "Standard", "STANDARD"])
def test_a_format_is_found_by_its_code_in_any_case(catalogue, written):
    response = APIClient().post("/api/decks/import/",
                                {"text": f"Format: {written}\nHero: Flame Warden\n"},
                                format="json")
    assert response.status_code == 200 and response.json()["format"] == "standard"
    assert response.json()["notes"] == []


@pytest.mark.django_db
def test_the_import_page_names_an_unknown_format_in_chinese(client, catalogue):
    response = client.post(reverse("decks:import"), {"text": "赛制：nope\n英雄：T-H01\n"},
                           HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    page = response.content.decode().replace("&#x27;", "'")
    assert "'nope'" in page and "standard" in page and "本站没有" in page


@pytest.mark.django_db
def test_a_paste_into_the_builders_code_box_over_its_cap_says_so_rather_than_cutting_it(
        client, catalogue):
    pasted = EMBER_CODE + " " + "x" * 5000
    response = client.post("/decks/build/new/code/", {"code": pasted}, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert PASTE_TOO_LONG.format(length=f"{len(pasted):,}", limit="4,000") in page
