"""Validation through the API answers exactly what the builder's validation answers, for every
game's format, reads no catalogue rows again while the catalogue stands still, and sees a
change of a card or a format's ban list at once."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation

from cards.models import Card
from decks.drafts import Draft
from decks.models import Format, FormatCardLimit
from decks.selectors import deck_view
from decks.validation.services import draft_validate
from tests.fixtures import LEGAL_CARDS

pytestmark = pytest.mark.django_db

GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"

ATLAS = {"SC-T01": 4, "SC-T02": 4, "SC-T03": 4, "SC-T04": 4, "SC-T05": 4}
SPELLBOOK = {"SC-S01": 4, "SC-S02": 4, "SC-S03": 4, "SC-S04": 4, "SC-S05": 4, "SC-S06": 4,
             "SC-S07": 4, "SC-S08": 4, "SC-E01": 3, "SC-E02": 3, "SC-L01": 2}
DRAFTS = [
    Draft(hero="T-H01", cards=dict(LEGAL_CARDS), format_code="standard"),
    Draft(hero="T-H01", cards={**LEGAL_CARDS, "T-M01": 5, "NOPE-1": 2}, format_code="standard"),
    Draft(hero=None, cards={"T-M01": 1}, format_code="standard"),
    Draft(hero="T-H01", cards={**LEGAL_CARDS, "DW-I01": 2}, format_code="standard"),
    Draft(hero="SC-A01", cards=SPELLBOOK, piles={"atlas": ATLAS}, format_code="sorcery"),
    Draft(hero="SC-A01", cards={**SPELLBOOK, "T-M01": 1}, piles={"atlas": {"SC-T01": 9}},
          format_code="sorcery"),
    Draft(hero=None, cards={}, format_code="molong"),
    Draft(hero=None, cards={"T-H01": 1, "DW-I01": 2}, format_code="duwushi"),
]


@pytest.fixture
def rule_books(catalogue):
    call_command("load_formats", *[str(GAMES / f"{b}.yaml")
                                   for b in ("duwushi", "molong", "sorcery")],
                 stdout=io.StringIO())


def as_dicts(problems) -> list[dict]:
    return [p.as_dict() for p in problems]


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_the_api_validation_finds_what_the_builders_finds(rule_books, lang):
    for draft in DRAFTS:
        fmt = Format.objects.get(code=draft.format_code)
        with translation.override(lang):
            expected = deck_view(draft, fmt=fmt)
            found = draft_validate(draft=draft, format_code=draft.format_code)
        assert as_dicts(found.problems) == as_dicts(expected.problems), draft
        assert found.valid == expected.is_legal and found.format == fmt


def test_kept_rules_answer_each_language_in_its_own_words(rule_books):
    """The rules validation keeps across requests name no language: a Chinese reader after an
    English one reads the format's Chinese name."""
    draft = Draft(hero=None, cards={"T-M01": 1}, format_code="standard")
    with translation.override("en"):
        english = draft_validate(draft=draft, format_code="standard").problems[0]
    with translation.override("zh-hans"):
        chinese = draft_validate(draft=draft, format_code="standard").problems[0]
    assert "Standard format" in english.message and "标准赛制" in chinese.message


def test_a_validation_reads_no_catalogue_rows_while_the_catalogue_stands_still(
        client, catalogue, django_assert_max_num_queries):
    body = {"hero": "T-H01", "cards": dict(LEGAL_CARDS)}
    assert client.post("/api/decks/validate/", body,
                       content_type="application/json").json()["valid"] is True
    with django_assert_max_num_queries(1):   # the catalogue's generation, at most
        answer = client.post("/api/decks/validate/", body, content_type="application/json")
    assert answer.status_code == 200 and answer.json()["valid"] is True


def test_a_changed_card_or_ban_list_is_seen_by_the_next_validation(client, catalogue):
    draft = Draft(hero="T-H01", cards=dict(LEGAL_CARDS), format_code="standard")
    assert draft_validate(draft=draft, format_code="standard").valid
    card = Card.objects.get(code="T-M01")
    card.rarity = "UR"
    card.save()
    assert [p.code for p in draft_validate(draft=draft, format_code="standard").problems] == [
        "copy_limit"]
    card.rarity = "N"
    card.save()
    FormatCardLimit.objects.create(format=Format.objects.get(code="standard"),
                                   card=Card.objects.get(code="T-M02"), limit=0)
    assert [p.code for p in draft_validate(draft=draft, format_code="standard").problems] == [
        "banned"]


def test_an_unknown_format_is_a_400_naming_the_known_ones(client, catalogue):
    answer = client.post("/api/decks/validate/", {"cards": {"T-M01": 1}, "format": "nope"},
                         content_type="application/json")
    assert answer.status_code == 400 and "standard" in answer.json()["format"][0]
