"""Validation through the API answers a list it never saw exactly as it always did: a plainly
well-formed body (what every client sends) is read without DRF's parser and serializer, and
its answer — status, JSON, headers, in English and Chinese — is byte for byte the one DRF's
path gives; every other body (an error to report, a number sent as text, a key the API does
not read) still goes through DRF, whose errors are the answer."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from cards.models import Card
from common.parsers import MAX_DEPTH
from decks.drafts import Draft
from decks.models import Format, FormatCardLimit
from decks.validation.apis import DeckValidateApi
from decks.validation.services import _answers, plain_json, plain_reading
from tests.fixtures import LEGAL_CARDS

pytestmark = pytest.mark.django_db

PATH = "/api/decks/validate/"
GAMES = Path(__file__).resolve().parents[2] / "rules" / "data" / "games"
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN"}
LANGUAGES = [{}, ZH]
SPELLBOOK = {"SC-S01": 4, "SC-S02": 4, "SC-S03": 4, "SC-S04": 4, "SC-S05": 4, "SC-S06": 4,
             "SC-S07": 4, "SC-S08": 4, "SC-E01": 3, "SC-E02": 3, "SC-L01": 2}
ATLAS = {"SC-T01": 4, "SC-T02": 4, "SC-T03": 4, "SC-T04": 4, "SC-T05": 4}


def _json(value) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


# Lists a user sends, each with the problems its answer names (in this order).
LISTS = {
    "legal": ({"hero": "T-H01", "cards": LEGAL_CARDS}, []),
    "legal, format named": ({"hero": "T-H01", "cards": LEGAL_CARDS, "format": "standard",
                             "piles": {}}, []),
    "legal, text trimmed": ({"hero": " T-H01 ", "cards": LEGAL_CARDS,
                             "format": " standard "}, []),
    "too many copies": ({"hero": "T-H01", "cards": {**LEGAL_CARDS, "T-M01": 4}},
                        ["deck_too_large", "copy_limit"]),
    "a second UR copy": ({"hero": "T-H01", "cards": {**LEGAL_CARDS, "T-M01": 1, "T-M12": 2}},
                         ["copy_limit"]),
    "too small": ({"hero": "T-H01", "cards": {"T-M01": 3}}, ["deck_too_small"]),
    "no hero": ({"hero": None, "cards": LEGAL_CARDS}, ["hero_missing"]),
    "a blank hero": ({"hero": "", "cards": LEGAL_CARDS}, ["hero_missing"]),
    "a minion as hero": ({"hero": "T-M01", "cards": LEGAL_CARDS}, ["hero_not_hero"]),
    "an unknown hero": ({"hero": "NOPE", "cards": LEGAL_CARDS}, ["unknown_card"]),
    "unknown cards": ({"hero": "T-H01", "cards": {**LEGAL_CARDS, "T-M01": 1, "ZZ-1": 1,
                                                  "夜之龙": 1}},
                      ["unknown_card", "unknown_card"]),
    "a hero among the cards": ({"hero": "T-H01", "cards": {**LEGAL_CARDS, "T-M01": 2,
                                                           "T-H02": 1}},
                               ["kind_not_allowed"]),
    "another game's card": ({"hero": "T-H01", "cards": {**LEGAL_CARDS, "DW-I01": 2}},
                            ["other_game"]),
    "banned": ({"hero": "T-H01", "cards": {**LEGAL_CARDS, "T-M13": 1, "T-M01": 2}},
               ["banned"]),
    "limited": ({"hero": "T-H01", "cards": {**LEGAL_CARDS, "T-M14": 2, "T-M01": 1}},
                ["restricted"]),
    "an empty list": ({"cards": {}}, ["hero_missing", "deck_too_small"]),
    "piles, legal": ({"hero": "SC-A01", "cards": SPELLBOOK, "piles": {"atlas": ATLAS},
                      "format": "sorcery"}, []),
    "piles, broken": ({"hero": "SC-A01", "cards": {**SPELLBOOK, "T-M01": 1},
                       "piles": {"atlas": {"SC-T01": 9}, "nope": {"SC-T02": 1}},
                       "format": "sorcery"}, None),
    "another game's format": ({"cards": {"T-H01": 1, "DW-I01": 2}, "format": "duwushi"},
                              None),
}

# Bodies the serializer or the parser refuses, and what each answer holds.
REFUSED = {
    "no cards": (_json({"hero": "T-H01"}), 400, "cards"),
    "cards as a list": (_json({"cards": ["T-M01"]}), 400, "cards"),
    "a count as a word": (_json({"cards": {"T-M01": "two"}}), 400, "cards"),
    "a count of 0": (_json({"cards": {"T-M01": 0}}), 400, "cards"),
    "a count of 100": (_json({"cards": {"T-M01": 100}}), 400, "cards"),
    "a count of true": (_json({"cards": {"T-M01": True}}), 400, "cards"),
    "a hero as a number": (_json({"hero": 5, "cards": {}}), 400, "hero"),
    "a hero too long": (_json({"hero": "H" * 33, "cards": {}}), 400, "hero"),
    "a blank format": (_json({"format": " ", "cards": {}}), 400, "format"),
    "an unknown format": (_json({"format": "nope", "cards": {}}), 400, "format"),
    "a null pile": (_json({"cards": {}, "piles": {"atlas": None}}), 400, "piles"),
    "too many different cards": (_json({"cards": {f"X{i}": 1 for i in range(301)}}), 400,
                                 "cards"),
    "not an object": (b"[1, 2]", 400, "non_field_errors"),
    "not JSON": (b'{"cards": {', 400, "detail"),
    "NaN": (b'{"cards": {"T-M01": NaN}}', 400, "detail"),
    "not UTF-8": (b'{"cards": {"\xff": 1}}', 400, "detail"),
    "a NUL in a key": (b'{"cards": {"T-M0\\u00001": 1}}', 400, "cards"),
    "a lone surrogate": (b'{"hero": "\\ud800", "cards": {}}', 400, "hero"),
    "nested too deep": (b'{"cards": {}, "x": ' + b"[" * (MAX_DEPTH + 1)
                        + b"]" * (MAX_DEPTH + 1) + b"}", 400, "detail"),
    "nested a thousand deep": (b"[" * 1000 + b"]" * 1000, 400, "detail"),
    "cards nested a thousand deep": (b'{"cards": ' + b"[" * 1000 + b"]" * 1000 + b"}", 400,
                                     "detail"),
    "empty": (b"", 400, "cards"),
}


@pytest.fixture
def rule_books(catalogue):
    """The test set, the sample games' rule books, and a ban list: Mourning Wolf banned,
    Sun Acolyte limited to one."""
    call_command("load_formats", *[str(GAMES / f"{b}.yaml")
                                   for b in ("duwushi", "molong", "sorcery")],
                 stdout=io.StringIO())
    standard = Format.objects.get(code="standard")
    FormatCardLimit.objects.create(format=standard, card=Card.objects.get(code="T-M13"),
                                   limit=0)
    FormatCardLimit.objects.create(format=standard, card=Card.objects.get(code="T-M14"),
                                   limit=1)


def _post(body: bytes, headers: dict, *, through_drf: bool, monkeypatch) -> tuple:
    """The answer to ``body`` as a client sees it: status, headers and bytes. Answers kept from
    earlier requests are forgotten first, so each request is validated as never seen."""
    _answers.clear()
    with monkeypatch.context() as patch:
        if through_drf:
            patch.setattr(DeckValidateApi, "_is_plain", staticmethod(lambda request: False))
        response = Client().post(PATH, body, content_type="application/json", **headers)
    kept = {name: value for name, value in response.items() if name != "Date"}
    return response.status_code, kept, response.content


@pytest.mark.parametrize("headers", LANGUAGES, ids=["en", "zh"])
@pytest.mark.parametrize("name", list(LISTS))
def test_a_fresh_list_is_answered_as_drf_answers_it(rule_books, monkeypatch, name, headers):
    body, problems = LISTS[name]
    raw = _json(body)
    assert plain_reading(plain_json(raw)) is not None   # the plain path reads it: a real test
    plain = _post(raw, headers, through_drf=False, monkeypatch=monkeypatch)
    assert plain == _post(raw, headers, through_drf=True, monkeypatch=monkeypatch)
    status, kept, content = plain
    answer = json.loads(content)
    assert status == 200 and kept["Content-Type"] == "application/json"
    assert kept["Allow"] == "POST, OPTIONS" and kept["Vary"].startswith("Accept")
    if problems is not None:
        assert [p["code"] for p in answer["problems"]] == problems
        assert answer["valid"] is (not problems)
    assert kept["Content-Language"] == ("zh-hans" if headers else "en")


def test_the_problems_speak_the_readers_language(rule_books):
    body = {"hero": "T-H01", "cards": {**LEGAL_CARDS, "T-M01": 1, "T-M12": 2}}
    english = Client().post(PATH, body, content_type="application/json").json()
    chinese = Client().post(PATH, body, content_type="application/json", **ZH).json()
    assert english["problems"][0]["message"] == (
        "Night Wyrm: 2 copies — UR cards are limited to 1.")
    assert english["problems"][0]["fix"] == "remove 1 × Night Wyrm"
    assert chinese["problems"][0]["message"].startswith("「夜之龙」:2 张")
    assert chinese["problems"][0]["fix"] == "移除 1 张「夜之龙」"


@pytest.mark.parametrize("headers", LANGUAGES, ids=["en", "zh"])
@pytest.mark.parametrize("name", list(REFUSED))
def test_a_body_the_api_refuses_gets_the_same_400_with_its_message(
        rule_books, monkeypatch, name, headers):
    body, status, field = REFUSED[name]
    answer = _post(body, headers, through_drf=False, monkeypatch=monkeypatch)
    assert answer == _post(body, headers, through_drf=True, monkeypatch=monkeypatch)
    assert answer[0] == status
    message = json.loads(answer[2])[field]
    assert message and all(message)


def test_the_refusals_speak_the_readers_language(rule_books):
    body = {"cards": {"T-M01": "two"}}
    english = Client().post(PATH, body, content_type="application/json")
    chinese = Client().post(PATH, body, content_type="application/json", **ZH)
    assert english.json() == {"cards": {"T-M01": ["A valid integer is required."]}}
    assert chinese.json() == {"cards": {"T-M01": ["请填写合法的整数值。"]}}


@pytest.mark.parametrize("headers, words", [({}, "bytes; a form on this site takes at most"),
                                            (ZH, "字节")], ids=["en", "zh"])
def test_a_body_over_the_upload_cap_is_a_413_saying_the_size_and_the_limit(
        catalogue, headers, words):
    body = _json({"hero": "T-H01", "cards": LEGAL_CARDS, "note": "x" * (1024 * 1024)})
    response = Client().post(PATH, body, content_type="application/json", **headers)
    assert response.status_code == 413
    detail = response.json()["detail"]
    assert words in detail and f"{len(body):,}" in detail and "1,048,576" in detail


def test_plain_reading_is_the_serializers_reading(catalogue):
    """Whatever ``plain_reading`` reads, the serializer reads the same way."""
    bodies = [body for body, _ in LISTS.values()] + [
        {"hero": "  ", "cards": {"T-M01": 99}}, {"cards": {}, "piles": {"atlas": {}}},
        {"cards": {"T-M01": 1}, "piles": {"atlas": {"SC-T01": 2}, "empty": {}}}]
    for body in bodies:
        data = DeckValidateApi.DeckValidateInputSerializer(data=body)
        assert data.is_valid(), data.errors
        piles = data.validated_data.get("piles") or {}
        assert plain_reading(plain_json(_json(body))) == Draft(
            hero=data.validated_data.get("hero") or None, cards=data.validated_data["cards"],
            format_code=data.validated_data["format"],
            piles={k: dict(v) for k, v in piles.items() if v}), body


def test_a_list_sent_again_gets_its_answer_until_the_catalogue_changes(catalogue):
    body = {"hero": "T-H01", "cards": LEGAL_CARDS}
    first = Client().post(PATH, body, content_type="application/json")
    again = Client().post(PATH, body, content_type="application/json")
    assert first.content == again.content and first.json()["valid"] is True
    card = Card.objects.get(code="T-M01")
    card.rarity = "UR"
    card.save()
    changed = Client().post(PATH, body, content_type="application/json").json()
    assert [p["code"] for p in changed["problems"]] == ["copy_limit"]


def test_a_signed_in_browser_still_needs_its_csrf_token(catalogue, alice):
    """A session-authenticated request goes through DRF, which checks the CSRF token."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    refused = browser.post(PATH, {"hero": "T-H01", "cards": LEGAL_CARDS},
                           content_type="application/json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["detail"]


@pytest.mark.parametrize("body, status", [
    ({"hero": "T-H01", "cards": {"T-M01": "2"}}, 200),    # a count as text: the serializer's
    ({"hero": "T-H01", "cards": {"T-M01": 0}}, 400),      # an error to report
    ({"hero": "T-H01", "cards": {"T-M01": 1}, "format": "nope"}, 400),   # an unknown format
], ids=["count as text", "zero copies", "unknown format"])
def test_a_body_left_to_drf_is_hashed_parsed_and_looked_up_once(catalogue, monkeypatch, body,
                                                                 status):
    """The fallback path reuses what the plain path did: the generation read and the body
    hashed once, its JSON parsed once, an unknown format's 400 from the kept catalogue (no
    query of its own)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from common.parsers import JSONParser
    from decks.validation import services

    Client().post(PATH, {"cards": {}}, content_type="application/json")   # the catalogue kept
    _answers.clear()
    counts = {"generation": 0, "key": 0, "parse": 0}

    def counting(name, real):
        def count(*args, **kwargs):
            counts[name] += 1
            return real(*args, **kwargs)
        return count

    monkeypatch.setattr(services, "catalogue_generation",
                        counting("generation", services.catalogue_generation))
    monkeypatch.setattr(services, "answer_key", counting("key", services.answer_key))
    monkeypatch.setattr(JSONParser, "parse", counting("parse", JSONParser.parse))
    monkeypatch.setattr(services.json, "loads", counting("parse", json.loads))
    with CaptureQueriesContext(connection) as queries:
        response = Client().post(PATH, body, content_type="application/json")
    assert response.status_code == status, response.content
    assert counts == {"generation": 1, "key": 1, "parse": 1}
    assert [q["sql"] for q in queries.captured_queries if "decks_format" in q["sql"]] == []
