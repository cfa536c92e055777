"""The API answers in the language of ``Accept-Language``: its own messages (deck problems and
their fixes, import errors) and Django REST framework's (field errors, 404)."""

from __future__ import annotations

import pytest

from tests.fixtures import _empty_cache, catalogue  # noqa: F401  (fixtures used here)

pytestmark = pytest.mark.django_db
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-CN"}


def test_deck_problems_and_their_fixes_follow_accept_language(client, catalogue):  # noqa: F811
    body = {"cards": {"T-M12": 2}}
    english = client.post("/api/decks/validate/", body, content_type="application/json").json()
    chinese = client.post("/api/decks/validate/", body, content_type="application/json",
                          **ZH).json()
    assert [p["code"] for p in chinese["problems"]] == [p["code"] for p in english["problems"]]
    assert english["problems"][0]["fix"] == "pick a hero"
    assert chinese["problems"][0]["fix"] == "选择一张英雄卡"
    assert chinese["problems"][-1]["message"].startswith("「夜之龙」:2 张")


def test_import_and_field_errors_follow_accept_language(client, catalogue):  # noqa: F811
    bad = client.post("/api/decks/import/", {"text": "3x 没有这张卡"},
                      content_type="application/json", **ZH)
    assert bad.status_code == 400
    assert "没有名为" in bad.content.decode()
    missing = client.post("/api/decks/validate/", {}, content_type="application/json", **ZH)
    assert missing.status_code == 400
    assert missing.json()["cards"] == ["该字段是必填项。"]
    assert client.get("/api/decks/no-such-deck/", **ZH).json()["detail"] == "这里没有卡组。"
