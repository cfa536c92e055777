"""Import edge cases a real paste brings: section headings, several problems at once, a damaged
deck code pasted with "detect automatically", characters no list may hold, and a paste far over
the cap on the import page."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from decks.codecs import CardIndex, DeckImportError, ImportLimits, import_deck
from decks.codecs.base import (
    BAD_CHARACTER,
    NUL_CHARACTER,
    SURROGATE_CHARACTER,
    TOO_MANY_HEROES,
)
from decks.codecs.deckcode import DAMAGED, encode_deck_code
from decks.codecs.text import UNKNOWN_CARD
from decks.transfer import BODY_TOO_LARGE, IMPORT_MAX_BODY
from rules.cardset import TEST_SET, load_card_set
from rules.legality import Deck

INDEX = CardIndex(load_card_set(TEST_SET).cards.values())
ONE_HERO = ImportLimits(max_heroes=1)


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
