"""The catalogue pages as a visitor sees them: gallery, table, filters, sorting, pagination,
the query language with its error messages, the card page and its image, help pages."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.html import escape

from cards.card_stats import card_stats, card_stats_add
from cards.models import Card, CardSet, Faction, Race
from cards.query import errors as E
from common.page_cache import clear_stored_pages


def html(response) -> str:
    return response.content.decode()


def card_links(page: str) -> list[str]:
    return re.findall(r'class="gallery-card" href="/cards/([^/]+)/"', page)


def table_codes(page: str) -> list[str]:
    return re.findall(r'<td class="code-cell"><a href="/cards/([^/]+)/">\1</a></td>', page)


def test_gallery_shows_every_card_as_an_image(client, test_set):
    response = client.get("/cards/")
    assert response.status_code == 200
    page = html(response)
    assert len(card_links(page)) == 22
    assert page.count('src="/cards/T-M01/image.svg?v=') == 1
    assert "22</strong> cards" in page
    assert 'href="/cards/help/"' in page


def test_query_and_filters_narrow_the_gallery(client, test_set):
    page = html(client.get("/cards/", {"q": "k:minion a:fire c<=3"}))
    assert card_links(page) == ["T-M01"]
    assert "kind is minion and attribute is fire and cost ≤ 3" in page
    page = html(client.get("/cards/", {"kind": "minion", "attribute": ["fire", "water"],
                                       "cost_max": "2"}))
    assert card_links(page) == ["T-M01", "T-M03"]
    page = html(client.get("/cards/", {"faction": "dusk", "race": "dragon"}))
    assert card_links(page) == ["T-M12"]
    page = html(client.get("/cards/", {"keyword": "react"}))
    assert card_links(page) == ["T-M05"]
    page = html(client.get("/cards/", {"set": "TEST", "hp_min": "20"}))
    assert card_links(page) == ["T-H01", "T-H02"]
    page = html(client.get("/cards/", {"rarity": "UR", "attack_min": "6"}))
    assert card_links(page) == ["T-M12"]


def test_the_filter_panel_shows_the_current_choices(client, test_set):
    page = html(client.get("/cards/", {"kind": "item", "faction": "dawn", "cost_min": "1",
                                       "q": "o:draw", "order": "-cost", "view": "table"}))
    assert re.search(r'name="kind" value="item" checked', page)
    assert re.search(r'name="faction" value="dawn" checked', page)
    assert 'name="cost_min" min="0" max="999" inputmode="numeric" value="1"' in page
    assert 'value="o:draw"' in page
    assert '<option value="-cost" selected>' in page
    assert 'name="view" value="table" checked' in page


def test_table_view_sorts_and_links_each_card(client, test_set):
    page = html(client.get("/cards/", {"view": "table", "order": "-attack", "kind": "minion"}))
    assert table_codes(page)[:2] == ["T-M12", "T-M06"]
    assert 'aria-sort="descending"' in page
    page = html(client.get("/cards/", {"view": "table", "order": "rarity", "q": "k:hero"}))
    assert table_codes(page) == ["T-H01", "T-H02"]
    page = html(client.get("/cards/", {"view": "table", "order": "-rarity"}))
    assert table_codes(page)[0] == "T-M12"                   # the UR first
    page = html(client.get("/cards/", {"view": "table", "order": "cost"}))
    assert table_codes(page)[0] == "T-I06" and table_codes(page)[-1] in ("T-H01", "T-H02")


def test_pagination_keeps_the_whole_query_in_the_links(client, test_set):
    page = html(client.get("/cards/", {"view": "table", "q": "k:minion", "order": "cost"}))
    assert 'aria-label="Pages"' not in page                 # 14 cards: one page
    many = [Card(code=f"T-Z{i:03}", card_set_id=Card.objects.first().card_set_id, kind="item",
                 names={"en": f"Filler {i}", "zh-hans": "填充"}, cost=1) for i in range(60)]
    Card.objects.bulk_create(many)
    page = html(client.get("/cards/", {"q": "k:item", "order": "name"}))
    assert len(card_links(page)) == 48
    assert "showing 1–48" in page
    assert 'href="?q=k%3Aitem&amp;order=name&amp;page=2"' in page
    second = html(client.get("/cards/", {"q": "k:item", "order": "name", "page": "2"}))
    assert len(card_links(second)) == 66 - 48


@pytest.mark.parametrize("query, message, at", [
    ("a:fire)", str(E.MSG_UNEXPECTED_CLOSE), ")"),
    ("c<=three", E.MSG_NOT_NUMBER.format(value="three", field="cost", example="c<=3"),
     "three"),
    ("colour:red", "Unknown field &#x27;colour&#x27;", "colour"),
])
def test_a_malformed_query_points_at_the_problem(client, test_set, query, message, at):
    response = client.get("/cards/", {"q": query})
    assert response.status_code == 400
    page = html(response)
    assert 'role="alert"' in page and "That query has a problem" in page
    assert escape(message) in page or message in page
    assert f"<mark>{at}</mark>" in page
    assert 'aria-invalid="true"' in page
    assert card_links(page) == []


def test_htmx_requests_get_only_the_results(client, test_set):
    response = client.get("/cards/", {"q": "kw:shield"}, headers={"HX-Request": "true"})
    page = html(response)
    assert "<html" not in page and card_links(page) == ["T-M03"]
    error = client.get("/cards/", {"q": "(a:fire"}, headers={"HX-Request": "true"})
    assert error.status_code == 200 and "never closed" in html(error)   # htmx swaps 2xx only


def test_no_results_is_said_plainly(client, test_set):
    page = html(client.get("/cards/", {"q": "race:golem"}))
    assert "<strong>No cards</strong>" in page and "start over" in page


def test_bad_filter_values_are_field_errors(client, test_set):
    response = client.get("/cards/", {"faction": "nobody", "cost_min": "x"})
    assert response.status_code == 400
    page = html(response)
    assert "Some filters are not valid" in page and "faction" in page and "cost_min" in page


def test_card_page_shows_every_field_the_image_and_neighbours(client, test_set):
    response = client.get("/cards/T-M06/")
    assert response.status_code == 200
    page = html(response)
    for text in ("Ash Phoenix", "灰烬凤凰", "T-M06", "Minion", "SR", "Fire", "Dawn Order",
                 "Dragon", "regenerate", "Regenerate.", "再生。", "beats Grass, loses to Water"):
        assert text in page, text
    assert '<svg xmlns="http://www.w3.org/2000/svg"' in page
    assert 'href="/cards/?faction=dawn"' in page and 'href="/cards/?race=dragon"' in page
    assert "More Dawn Order cards" in page and "More Dragon cards" in page
    assert 'href="/cards/T-H01/"' in page                     # the other dragon
    assert "No simulated games have played this card yet" in page


def test_card_page_shows_simulated_stats_once_there_are_some(client, test_set):
    card_stats_add(totals={"T-M06": {"games_played_in": 40, "times_played": 50,
                                     "times_awakened": 30, "wins_when_played": 22,
                                     "games_drawn": 60, "wins_when_drawn": 30}},
                   agent="greedy", card_data_version="v1")
    page = html(client.get("/cards/T-M06/"))
    assert "Games played in" in page and ">40<" in page
    assert "When played" in page and "55.0 %" in page and "When drawn" in page
    assert card_stats(card=Card.objects.get(code="T-M06")).win_rate_when_played == 22 / 40


def test_card_page_figures_are_filtered_by_agent_ruleset_and_card_data_version(client,
                                                                               test_set):
    def add(agent, version, played, won, ruleset=None):
        card_stats_add(totals={"T-M06": {"games_played_in": played, "wins_when_played": won}},
                       agent=agent, ruleset=ruleset, card_data_version=version)

    add("greedy", "v1", 40, 20)
    add("search", "v1", 10, 9)
    add("greedy", "v2", 100, 30)
    add("greedy", "v2", 8, 8, ruleset={"turn_limit": 20})
    card = Card.objects.get(code="T-M06")
    assert card_stats(card=card).games_played_in == 158
    page = html(client.get("/cards/T-M06/"))
    assert 'name="agent"' in page and '<option value="search">Search</option>' in page
    assert "Standard rules, as in the rule book." in page
    assert "a draw after 20 turns per player (R2.2.6)" in page
    chosen = html(client.get("/cards/T-M06/", {"agent": "greedy", "version": "v2",
                                              "ruleset": "standard"}))
    assert ">100<" in chosen and "30.0 %" in chosen
    assert '<option value="greedy" selected>' in chosen
    nothing = html(client.get("/cards/T-M06/", {"agent": "search", "version": "v2"}))
    assert "No simulated games match this choice." in nothing


def test_unknown_card_is_a_404(client, test_set):
    assert client.get("/cards/NOPE/").status_code == 404
    assert client.get("/cards/NOPE/image.svg").status_code == 404


@pytest.mark.parametrize("code", ["T-H01", "T-M10", "T-M12", "T-I05"])
@pytest.mark.parametrize("lang", ["en", "zh-hans", "zh"])
def test_card_image_is_well_formed_svg_with_the_cards_data(client, test_set, code, lang):
    response = client.get(f"/cards/{code}/image.svg", {"lang": lang})
    assert response["Content-Type"].startswith("image/svg+xml")
    svg = response.content.decode()
    root = ElementTree.fromstring(svg)                      # parses: well-formed XML
    assert root.tag.endswith("svg") and root.get("viewBox") == "0 0 300 420"
    card = Card.objects.get(code=code)
    text = "".join(root.itertext())
    assert card.name_en in text and card.name_zh in text and card.rarity in text
    if card.kind == "hero":
        assert f">{card.hp}<" in svg and 'class="cost"' not in svg
    else:
        assert f">{card.cost}<" in svg
    rules = card.texts["en" if lang == "en" else "zh-hans"]   # an old link's "zh" too
    first_word = rules.split()[0] if lang == "en" else rules[:2]
    assert first_word in text


def test_card_image_frame_follows_the_attribute(client, test_set):
    fire = client.get("/cards/T-M01/image.svg").content.decode()
    water = client.get("/cards/T-M03/image.svg").content.decode()
    assert "#c2410c" in fire and "#1d4ed8" in water


def test_help_page_documents_fields_and_examples(client, test_set):
    from cards.examples import query_examples

    page = html(client.get("/cards/help/"))
    for example in query_examples():
        assert escape(example.query) in page, example
    assert 'href="/cards/vocabulary/"' in page
    assert "never closed" in page or "has no matching" in page


def test_help_page_shows_malformed_queries_as_a_chinese_reader_types_them(client, test_set):
    """In Chinese the help page's bad queries use Chinese names, the messages name the fields
    in Chinese, and what a reader types (fields, example terms) is set as code."""
    page = html(client.get("/cards/help/", headers={"accept-language": "zh-hans"}))
    errors = page.split("<h2>", 5)[4]
    assert "c&lt;=三" in errors and "“<code>color</code>”" in errors
    assert "“三”不是整数；费用 需要整数" in errors                      # not "cost 需要整数"
    assert "<code>atk</code> (攻击力)" in errors and "(kind)" not in errors
    assert "<code>c&lt;=3</code>" in errors
    english = html(client.get("/cards/help/"))
    assert "Known fields: k (card kind), a (attribute)" in english


def test_a_bad_choice_is_named_in_the_readers_language(client, test_set):
    page = html(client.get("/cards/", {"q": "a:nope"}, headers={"accept-language": "zh-hans"}))
    assert "“nope”不是有效的属性。可选：fire (火)、grass (草)" in page
    english = html(client.get("/cards/", {"q": "a:nope"}))
    assert escape("'nope' is not a valid attribute. Choose from: fire, grass") in english


def test_vocabulary_page_lists_every_term_with_an_example(client, db):
    from rules.engine.reference import reference_entries

    page = html(client.get("/cards/vocabulary/"))
    for entry in reference_entries():
        assert f'id="{entry["section"]}-{entry["name"]}"' in page
    assert "Awaken: Draw a card." in page and "唤醒技：抽1张卡。" in page


def _grow(n: int) -> None:
    card_set, faction, race = CardSet.objects.first(), Faction.objects.first(), Race.objects.first()
    Card.objects.bulk_create([Card(code=f"T-G{i:03}", card_set=card_set, kind="minion",
                                   names={"en": f"Grown {i}", "zh-hans": "长"}, cost=1, attack=1,
                                   attribute="fire", faction=faction, race=race,
                                   keyword_tags="|shield|") for i in range(n)])


@pytest.mark.parametrize("url", ["/cards/?q=k:minion", "/cards/?view=table&order=-rarity",
                                 "/api/cards/?q=k:minion&page_size=200",
                                 "/cards/T-M06/", "/api/cards/T-M06/"])
def test_query_count_does_not_grow_with_the_catalogue(client, test_set, url):
    # Rendered afresh each time: a stored page (common/page_cache.py) would hide the queries.
    clear_stored_pages()
    with CaptureQueriesContext(connection) as small:
        assert client.get(url).status_code == 200
    _grow(150)
    clear_stored_pages()
    with CaptureQueriesContext(connection) as large:
        assert client.get(url).status_code == 200
    assert len(small) == len(large), [q["sql"] for q in large.captured_queries]


def test_list_page_query_count_is_exact(client, test_set, django_assert_num_queries, settings):
    # the catalogue's generation (the stored pages' key); count, page of cards, factions,
    # races, sets; the games, and the kinds and rarity tiers they declare (the filter panel)
    # (the generation is a query when the cache is a database table, not on Redis)
    expected = 8 + ("Database" in settings.CACHES["default"]["BACKEND"])
    with django_assert_num_queries(expected):
        client.get("/cards/", {"q": "k:minion"})
    _grow(100)
    clear_stored_pages()
    with django_assert_num_queries(expected):
        client.get("/cards/", {"q": "k:minion"})


def test_vocabulary_examples_name_factions_and_races_as_the_catalogue_does(client, catalogue):
    zh = client.get("/cards/vocabulary/", HTTP_ACCEPT_LANGUAGE="zh-Hans").content.decode()
    assert "所有友方晨曦教团随从" in zh and "1张龙随从卡" in zh
    assert "empire" not in zh and "dragon随从" not in zh
    en = client.get("/cards/vocabulary/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "All allied Dawn Order minions" in en
