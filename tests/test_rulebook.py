"""The rule book page: the English rule book and the original Chinese one, with the same rule
ids, each rule an anchor that deck problems link to."""

from __future__ import annotations

from config.rulebook import RULE_BOOKS, rule_ids

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-Hans"}


def test_both_rule_books_define_the_same_rule_ids_in_the_same_order():
    english = rule_ids(RULE_BOOKS["en"].read_text(encoding="utf-8"))
    chinese = rule_ids(RULE_BOOKS["zh"].read_text(encoding="utf-8"))
    assert len(english) > 50 and len(set(english)) == len(english)
    assert chinese == english


def test_the_chinese_rule_book_is_the_original_text():
    """Spot checks against the original rule book's own wording."""
    text = RULE_BOOKS["zh"].read_text(encoding="utf-8")
    for original in ("火=>草=>水=>火,光与暗目前与各属性都不存在克制关系。",
                     "每当场上有唤醒的随从死亡,该随从的控制者可选择从手牌将新的随从以沉睡状态",
                     "稀有度为 UR 的卡只能携带最多 1 张同名卡"):
        assert original in text


def test_the_page_shows_the_rule_book_in_the_page_language(client):
    english = client.get("/rules/").content.decode()
    assert '<li id="R2.4.1"><strong>R2.4.1 Replenish (instant).</strong>' in english
    assert 'href="#R4.1"' in english and 'href="#R2.3"' in english   # mentions and contents
    chinese = client.get("/rules/", **ZH).content.decode()
    assert '<li id="R2.4.1"><strong>R2.4.1 随从补充机制(即时触发)。</strong>' in chinese
    assert "规则书" in chinese and "Replenish" not in chinese


def test_a_deck_problem_links_to_its_rule(client, db):
    from cards.services import card_set_import
    from rules.decks.cardset import TEST_SET

    card_set_import(source=TEST_SET)
    page = client.get("/decks/build/").content.decode()
    assert '<a class="rule-id" href="/rules/#R5.1"' in page
